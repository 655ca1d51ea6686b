#include "compile/compiled_variant.hpp"

namespace autotune {

std::string to_string(CompileStatus status)
{
    switch (status) {
    case CompileStatus::ok: return "ok";
    case CompileStatus::compile_error: return "compile_error";
    case CompileStatus::compile_timeout: return "compile_timeout";
    case CompileStatus::compile_out_of_memory: return "compile_out_of_memory";
    }
    return "compile_error";
}

bool is_compile_failure(std::string_view status)
{
    return status == "compile_error" || status == "compile_timeout" || status == "compile_out_of_memory";
}

} // namespace autotune
