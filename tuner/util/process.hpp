// Running a program (nvcc, ptxas) without a shell and capturing what it prints, within
// a time and a memory limit when asked.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct ProcessLimits {
    // Wall time, after which the program and every process it started are killed.
    std::optional<std::chrono::milliseconds> timeout;
    std::uint64_t memory_bytes = 0; // address space of it and of each process it starts (RLIMIT_AS); 0: none
};

struct ProcessResult {
    int exit_code = -1;      // -1 when it could not be started or died from a signal
    std::string output;      // stdout and stderr together, in order
    int signal = 0;          // the signal that ended it; 0 when it exited
    bool timed_out = false;  // killed, with its children, because the timeout passed
};

// argv[0] is the program path; no shell is involved, so arguments need no quoting. The
// program runs in a process group of its own, so that a timeout stops the processes it
// started too (nvcc runs cicc and ptxas).
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv,
                                        const std::filesystem::path& working_dir = {},
                                        const ProcessLimits& limits = {});

} // namespace autotune
