// The worker processes the tuner starts from its own program: autotune measure-worker
// (measuring) and autotune compile-worker (the compile pool), and --compile-timeout.
#pragma once

#include "compile/compile_limits.hpp"
#include "compile/nvrtc_library.hpp"

#include <boost/program_options/options_description.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace autotune::cli {

// This program's path, which the workers run; throws std::runtime_error naming `purpose`
// when it cannot be found.
[[nodiscard]] std::filesystem::path own_executable(const std::string& purpose);

// {this program, "measure-worker"}, then --nvrtc PATH when the run compiles with a loaded NVRTC.
[[nodiscard]] std::vector<std::string> measure_worker_argv(const NvrtcLibrary& nvrtc);

// Adds --compile-timeout SECONDS, whose help states the default.
void add_compile_timeout_option(boost::program_options::options_description_easy_init add, double& seconds);

// The limits a command's compiles run under: the compile pool of this program's
// compile-worker, `timeout_seconds` each, the default memory limit. Throws UsageError naming
// --compile-timeout when it is not a positive number of seconds.
[[nodiscard]] CompileLimits compile_limits(double timeout_seconds);

} // namespace autotune::cli
