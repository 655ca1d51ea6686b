#include "cli/worker_programs.hpp"

#include "cli/cli_error.hpp"
#include "cli/option_range.hpp"
#include "compile/limited_compiler.hpp"

#include <boost/program_options/value_semantic.hpp>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <system_error>

namespace po = boost::program_options;

namespace autotune::cli {
namespace {

constexpr double default_timeout_seconds = std::chrono::duration<double>(default_compile_timeout).count();
// A week: any longer is no limit, and the milliseconds must fit.
constexpr double longest_timeout_seconds = 7 * 24 * 3600;

} // namespace

std::filesystem::path own_executable(const std::string& purpose)
{
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error(fmt::format("cannot find the autotune executable to start {}: {}", purpose, ec.message()));
    return path;
}

std::vector<std::string> measure_worker_argv(const NvrtcLibrary& nvrtc)
{
    std::vector<std::string> argv{own_executable("a measuring worker").string(), "measure-worker"};
    if (!nvrtc.path.empty())
        argv.insert(argv.end(), {"--nvrtc", nvrtc.path.string()});
    return argv;
}

void add_compile_timeout_option(po::options_description_easy_init add, double& seconds)
{
    add("compile-timeout",
        ranged_value(&seconds, {.least = 0, .most = longest_timeout_seconds, .least_excluded = true})
            ->default_value(default_timeout_seconds),
        fmt::format("seconds one variant's compile may take; past it (or past {} of memory) the variant is "
                    "compile_timeout (compile_out_of_memory) and the others go on",
                    memory_size_text(default_compile_memory_bytes))
            .c_str());
}

CompileLimits compile_limits(double timeout_seconds)
{
    if (!std::isfinite(timeout_seconds) || timeout_seconds <= 0 || timeout_seconds > longest_timeout_seconds)
        throw UsageError(fmt::format("--compile-timeout {:g}: give the seconds one compile may take, more than 0 and "
                                     "at most {:g}",
                                     timeout_seconds, longest_timeout_seconds));
    CompileLimits limits;
    limits.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(timeout_seconds * 1000)));
    limits.worker_argv = {own_executable("a compile worker").string(), "compile-worker"};
    return limits;
}

} // namespace autotune::cli
