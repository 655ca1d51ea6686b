// The compile stage's driver: every variant of a space compiled for one architecture,
// in parallel, through the on-disk cache, each compile under the run's limits (a pool of
// compile workers when the limits name one). A variant that fails to compile is recorded
// as compile_error, one stopped at a limit as compile_timeout or compile_out_of_memory, one
// that crashed the compiler as compile_error saying so; the others go on. What the cache can
// or cannot store never changes a result.
#pragma once

#include "arch/arch_target.hpp"
#include "compile/compile_limits.hpp"
#include "compile/compiled_variant.hpp"
#include "compile/limited_compiler.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace autotune {

struct CompileSettings {
    CompilerKind compiler = CompilerKind::nvrtc;
    unsigned jobs = 0;                              // 0: all cores
    CompileLimits limits;                           // time and memory per compile, the worker program
    std::optional<std::filesystem::path> cache_dir; // nullopt: no cache
    // Told (from a worker thread, at most once per compile_variants call) when the cache
    // cannot store an entry: the compiles' results stand, and the call stores no more.
    std::function<void(const std::string& why)> cache_store_failed;
    NvrtcLibrary nvrtc = linked_nvrtc();            // used when compiler == nvrtc (--nvrtc)
    std::filesystem::path nvcc;                     // used when compiler == nvcc
    std::vector<std::string> nvcc_flags;            // added to every nvcc compile (a consumer's flags)
    std::filesystem::path project_root;             // paths in records are relative to it
    // Called from worker threads, serialised, after each variant: (done, total).
    std::function<void(std::size_t, std::size_t)> progress;
    // Called the same way, before `progress`, whenever a variant did not compile: how many
    // have not so far in this call (a template that does not compile shows at once).
    std::function<void(std::size_t)> failed;
};

[[nodiscard]] std::vector<CompiledVariant> compile_variants(const KernelSpec& spec, const Problem& problem,
                                                            const std::vector<Variant>& variants,
                                                            const ArchTarget& arch, const CompileSettings& settings);
// The same, serially, every compile through `compiler`, whose worker outlives the call: a
// search that compiles a variant at a time pays for one worker, not one a call.
[[nodiscard]] std::vector<CompiledVariant> compile_variants(const KernelSpec& spec, const Problem& problem,
                                                            const std::vector<Variant>& variants,
                                                            const ArchTarget& arch, const CompileSettings& settings,
                                                            LimitedCompiler& compiler);
// The compiler compile_variants uses for `settings` (NVRTC in a worker where the limits
// name one, else in this process; or nvcc).
[[nodiscard]] LimitedCompiler limited_compiler(const CompileSettings& settings);

// One variant, no cache, no threads: the reference path tests compare shortcuts with.
[[nodiscard]] CompiledVariant compile_variant(const CompileRequest& request, const RegisterPolicy& policy,
                                              const CompileSettings& settings);

// The flag that makes nvcc generate the code NVRTC does (docs/fidelity.md): cicc's
// shared-memory pointers 64 bits wide, as NVRTC's always are.
inline constexpr const char* nvcc_flag_matching_nvrtc = "-Xcicc=--sharedmem32=0";

// The default toolkit nvcc: $AUTOTUNE_NVCC, else the one next to the NVRTC the build found.
[[nodiscard]] std::filesystem::path default_nvcc();

} // namespace autotune
