// The compile worker's side of the pool (autotune compile-worker): NVRTC in a process of
// its own, so that a compile that runs too long, needs too much memory or crashes the
// compiler ends only this process, never the run (NVRTC cannot be cancelled in-process).
// Reads one request per line (compile_protocol.hpp) and answers each with one line.
#pragma once

#include "compile/compile_request.hpp"
#include "compile/nvrtc_library.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>

namespace autotune {

// Serves until the end of `in`; returns the exit code. `memory_bytes` (0: none) limits this
// process's address space (RLIMIT_AS) before anything is compiled; an allocation past it
// fails inside the compiler, which then reports it (compiler_run.hpp: says_out_of_memory).
// `before_compile` runs before each compile: a test's way to make a worker crash.
int serve_compile_requests(std::istream& in, std::ostream& out, std::uint64_t memory_bytes, const NvrtcLibrary& nvrtc,
                           const std::function<void(const CompileRequest&)>& before_compile = {});

} // namespace autotune
