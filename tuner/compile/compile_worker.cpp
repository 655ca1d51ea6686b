#include "compile/compile_worker.hpp"

#include "compile/compile_protocol.hpp"
#include "compile/nvrtc_compiler.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>

namespace autotune {

int serve_compile_requests(std::istream& in, std::ostream& out, std::uint64_t memory_bytes, const NvrtcLibrary& nvrtc,
                           const std::function<void(const CompileRequest&)>& before_compile)
{
    if (memory_bytes > 0) {
        const rlimit limit{memory_bytes, memory_bytes};
        if (::setrlimit(RLIMIT_AS, &limit) != 0)
            throw std::runtime_error(fmt::format("cannot limit the compile worker's memory to {} bytes: {}",
                                                 memory_bytes, std::strerror(errno)));
    }
    for (std::string line; std::getline(in, line);) {
        CompileOutput output;
        try {
            const CompileRequest request = compile_request_from_json(nlohmann::json::parse(line));
            if (before_compile)
                before_compile(request);
            output = compile_with_nvrtc(request, nvrtc);
        } catch (const std::exception& e) { // a malformed request; std::bad_alloc past the limit
            output = CompileOutput{};
            output.error = fmt::format("compile worker: {}", e.what());
        }
        out << compile_output_to_json(output).dump() << std::endl;
    }
    return 0;
}

} // namespace autotune
