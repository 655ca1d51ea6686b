// CompiledVariant: the compile stage's result for one variant.
#pragma once

#include "compile/compile_request.hpp"
#include "compile/machine_loops.hpp"
#include "compile/resource_usage.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// compile_timeout and compile_out_of_memory: the compile was stopped at the run's limit
// (--compile-timeout, the compile memory limit); a compiler that crashed is a compile_error
// whose error says so.
enum class CompileStatus { ok, compile_error, compile_timeout, compile_out_of_memory };
// The results file's spelling: "ok", "compile_error", "compile_timeout", "compile_out_of_memory".
[[nodiscard]] std::string to_string(CompileStatus status);
// Whether a results file's variant status is one of a variant that did not compile.
[[nodiscard]] bool is_compile_failure(std::string_view status);

struct CompiledVariant {
    std::size_t variant = 0; // index into the list of variants that was compiled
    CompileStatus status = CompileStatus::compile_error;
    std::string error;       // first error line when status != ok
    CompilerKind compiler = CompilerKind::nvrtc;
    std::string name_expression;
    std::string lowered_name;
    std::string template_path;        // relative to the project (or the spec's folder)
    std::vector<std::string> options; // as given to the compiler, paths relative like template_path
    ResourceUsage resources;
    std::string cubin;
    std::string ptx;
    std::string log;
    std::string cubin_sha256;
    std::string sass_sha256;          // machine code only: equal code, equal hash
    // Instructions of the entry's own machine code that can issue (CubinFunctionInfo::
    // entry_code_bytes); 0 where no cubin was read.
    std::int64_t machine_instructions = 0;
    int machine_loops = 0;            // backward branches in that code (CubinFunctionInfo::entry_loops)
    std::vector<MachineLoop> machine_inner_loops; // its innermost loops (CubinFunctionInfo::entry_inner_loops)
    // No compiler ran for this variant: its compile came from the on-disk cache, or from
    // an earlier variant of the same run with an identical request.
    bool cache_hit = false;
    double compile_seconds = 0;       // of the compile itself (as first measured, when cached)
};

} // namespace autotune
