// autotune compile-worker [--memory-limit BYTES]: the process that runs NVRTC for the
// compile pool. It reads one compile request per line on stdin and answers one line on
// stdout (compile/compile_worker.hpp). Not for users: the tuner starts it
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
    if (!args.empty()) {
        const std::string& value = args.size() == 2 && args[0] == "--memory-limit" ? args[1] : std::string();
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), memory_bytes);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size())
            throw UsageError("compile-worker takes only --memory-limit BYTES (it is started by the tuner)");
    }
    std::ios::sync_with_stdio(false);
    return serve_compile_requests(std::cin, std::cout, memory_bytes);
}

} // namespace autotune::cli
