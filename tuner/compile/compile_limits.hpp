// CompileLimits: what one variant's compile may take. NVRTC cannot be cancelled and runs
// in the caller's memory, so the limits hold where it runs in a worker process (the
// compile pool: worker_argv); nvcc is a process of its own and always gets them.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace autotune {

// Ten times the slowest compile known here (a Kernel Tuner convolution variant, about
// 30 s on a loaded 2-core machine); the built-in kernels' take seconds.
inline constexpr std::chrono::seconds default_compile_timeout{300};
// Address space per compile (RLIMIT_AS): a GEMM variant's compile peaks near 0.2 GiB.
inline constexpr std::uint64_t default_compile_memory_bytes = std::uint64_t{4} << 30;

struct CompileLimits {
    std::chrono::milliseconds timeout = default_compile_timeout; // wall time, past which: compile_timeout
    std::uint64_t memory_bytes = default_compile_memory_bytes;   // past which: compile_out_of_memory; 0: none
    // The compile worker NVRTC runs in, e.g. {"/path/to/autotune", "compile-worker"}; one
    // per parallel job, replaced when a compile kills it. Empty: NVRTC runs in this process,
    // without either limit.
    std::vector<std::string> worker_argv;
};

} // namespace autotune
