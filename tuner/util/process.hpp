// Running a program (nvcc, ptxas) without a shell and capturing what it prints.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace autotune {

struct ProcessResult {
    int exit_code = -1; // -1 when it could not be started or died from a signal
    std::string output; // stdout and stderr together, in order
};

// argv[0] is the program path; no shell is involved, so arguments need no quoting.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv,
                                        const std::filesystem::path& working_dir = {});

} // namespace autotune
