// CompiledVariant: the compile stage's result for one variant.
#pragma once

#include "compile/compile_request.hpp"
#include "compile/resource_usage.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace autotune {

enum class CompileStatus { ok, compile_error };
[[nodiscard]] std::string to_string(CompileStatus status);

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
    // No compiler ran for this variant: its compile came from the on-disk cache, or from
    // an earlier variant of the same run with an identical request.
    bool cache_hit = false;
    double compile_seconds = 0;       // of the compile itself (as first measured, when cached)
};

} // namespace autotune
