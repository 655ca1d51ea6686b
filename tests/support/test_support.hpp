// Shared helpers for the test suites: paths to the project's files and test data.
#pragma once

#include <filesystem>
#include <string>

namespace autotune::test {

inline std::filesystem::path source_dir() { return AUTOTUNE_SOURCE_DIR; }
inline std::filesystem::path data_dir() { return AUTOTUNE_TEST_DATA_DIR; }
inline std::filesystem::path cuda_bin_dir() { return AUTOTUNE_CUDA_BIN_DIR; }
inline std::filesystem::path autotune_binary() { return AUTOTUNE_BINARY; }

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

// Reads a whole file; empty string when it does not exist.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

} // namespace autotune::test
