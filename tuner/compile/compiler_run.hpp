// CompilerRun: how one compile ended. Either the compiler finished, and its output says
// whether the variant compiled (that, and only that, is what the cache may keep), or the
// compile was stopped: by the time or memory limit, or by the compiler crashing. A stopped
// compile says nothing about the variant that a later try, with other limits, would repeat.
#pragma once

#include "compile/compile_output.hpp"

#include <string_view>

namespace autotune {

enum class CompileEnding { finished, timed_out, out_of_memory, crashed };

struct CompilerRun {
    CompileEnding ending = CompileEnding::finished;
    CompileOutput output; // finished: the compiler's output; stopped: output.error says why
};

// Whether a failed compile's messages say memory ran out: the front end's "catastrophic
// error: out of memory", ptxas' "Memory allocation failure", an uncaught std::bad_alloc,
// LLVM's "out of memory" (what NVRTC and nvcc print when an allocation fails).
[[nodiscard]] bool says_out_of_memory(std::string_view messages);

// A finished run, or out_of_memory when the failed compile's log or `other_messages`
// (what the compiler wrote elsewhere, e.g. to stderr) say memory ran out.
[[nodiscard]] CompilerRun classify_finished(CompileOutput output, std::string_view other_messages = {});

} // namespace autotune
