// autotune compile-worker [--memory-limit BYTES] [--nvrtc PATH]: the process that runs
// NVRTC for the compile pool. It reads one compile request per line on stdin and answers
// one line on stdout (compile/compile_worker.hpp). Not for users: the tuner starts it
// (compile/compile_variants.hpp, CompileLimits::worker_argv).
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "compile/compile_worker.hpp"

#include <charconv>
#include <cstdint>
#include <iostream>

namespace autotune::cli {

int compile_worker_command(const Arguments& args)
{
    std::uint64_t memory_bytes = 0;
    std::filesystem::path nvrtc_path;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        const std::string value = i + 1 < args.size() ? args[i + 1] : std::string();
        if (args[i] == "--memory-limit") {
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), memory_bytes);
            if (value.empty() || ec != std::errc() || end != value.data() + value.size())
                throw UsageError("compile-worker --memory-limit takes a number of bytes");
        } else if (args[i] == "--nvrtc" && !value.empty()) {
            nvrtc_path = value;
        } else {
            throw UsageError("compile-worker takes only --memory-limit BYTES and --nvrtc PATH (it is started by the tuner)");
        }
    }
    const NvrtcLibrary nvrtc = nvrtc_library(nvrtc_path);
    std::ios::sync_with_stdio(false);
    return serve_compile_requests(std::cin, std::cout, memory_bytes, nvrtc);
}

} // namespace autotune::cli
