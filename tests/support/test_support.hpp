// Shared helpers for the test suites: paths to the project's files and test data.
#pragma once

#include "autotune_test_config.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

namespace autotune::test {

// The checkout and the autotune program, where the build put them; AUTOTUNE_HOME and
// AUTOTUNE_BINARY say where they are instead when the test programs run on another machine
// than the one that built them (scripts/gpu-check --prebuilt on a lent GPU machine).
inline std::filesystem::path from_environment(const char* variable, const char* built)
{
    const char* value = std::getenv(variable);
    return value && *value ? std::filesystem::path(value) : std::filesystem::path(built);
}
inline std::filesystem::path source_dir() { return from_environment("AUTOTUNE_HOME", AUTOTUNE_SOURCE_DIR); }
inline std::filesystem::path data_dir() { return source_dir() / "tests" / "data"; }
inline std::filesystem::path cuda_bin_dir() { return AUTOTUNE_CUDA_BIN_DIR; }
inline std::filesystem::path autotune_binary() { return from_environment("AUTOTUNE_BINARY", AUTOTUNE_BINARY); }

// A Kernel Tuner cache measured on an RTX 3090 ("gemm", "convolution", "pnpoly"), from the
// shared data beside the checkout (../shared/data/kernel-tuner-caches). Not part of the
// repository: a clean clone elsewhere has none, and tests that need one skip, saying so.
inline std::filesystem::path kernel_tuner_cache(const std::string& kernel)
{
    return source_dir() / ".." / "shared" / "data" / "kernel-tuner-caches" / (kernel + "_RTX_3090.json.gz");
}
#define AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE(kernel)                                                         \
    if (!std::filesystem::exists(::autotune::test::kernel_tuner_cache(kernel)))                                   \
    GTEST_SKIP() << "no Kernel Tuner cache at " << ::autotune::test::kernel_tuner_cache(kernel).string()          \
                 << " (the shared data is not beside this checkout)"

// A fresh empty directory under the system temp dir, removed when the object dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

struct CommandResult {
    int exit_code = -1;
    std::string out; // stdout
    std::string err; // stderr
};

// Runs a shell command line, capturing stdout and stderr separately.
[[nodiscard]] CommandResult run_command(const std::string& command_line);

// Runs the autotune program with `arguments` (a shell command line's tail) and a compile
// cache of its own under `dir` (dir/cache), as a user would from a fresh account.
[[nodiscard]] inline CommandResult run_autotune(const std::string& arguments, const std::filesystem::path& dir)
{
    return run_command("AUTOTUNE_CACHE_DIR=" + (dir / "cache").string() + " " + autotune_binary().string() + " " +
                       arguments);
}

// Reads a whole file; empty string when it does not exist.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

} // namespace autotune::test
