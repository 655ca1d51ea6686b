// LimitedCompiler: one job's compiler, under the run's CompileLimits. NVRTC runs in a
// compile worker (compile_worker.hpp) when the limits name one, else in this process;
// nvcc runs as a process group of its own. A compile past the time or memory limit, or
// one that crashes the compiler, ends as a stopped CompilerRun, and the next compile gets
// a fresh worker. Not thread-safe: each parallel job owns one.
#pragma once

#include "compile/compile_limits.hpp"
#include "compile/compile_request.hpp"
#include "compile/compiler_run.hpp"
#include "compile/nvrtc_library.hpp"
#include "util/worker_supervisor.hpp"

#include <filesystem>
#include <optional>

namespace autotune {

class LimitedCompiler {
public:
    // `nvcc` is the program run when `compiler` is nvcc; `nvrtc` the library NVRTC runs
    // (a worker loads the same one by its path).
    LimitedCompiler(CompilerKind compiler, std::filesystem::path nvcc, CompileLimits limits, NvrtcLibrary nvrtc);

    [[nodiscard]] CompilerRun compile(const CompileRequest& request);
    // Compile workers started so far (a crash, a timeout or running out of memory each cost one).
    [[nodiscard]] int workers_started() const { return worker_ ? worker_->workers_started() : 0; }

private:
    [[nodiscard]] CompilerRun compile_in_worker(const CompileRequest& request);
    CompilerKind compiler_;
    std::filesystem::path nvcc_;
    CompileLimits limits_;
    NvrtcLibrary nvrtc_;
    std::optional<WorkerSupervisor> worker_;
};

// "4 GiB", "300 MiB": a memory limit as messages say it.
[[nodiscard]] std::string memory_size_text(std::uint64_t bytes);

} // namespace autotune
