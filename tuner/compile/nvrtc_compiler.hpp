// Compiling a request in-process with NVRTC, straight to a cubin for the real
// architecture; the PTX is kept too. Safe to call from several threads at once.
#pragma once

#include "compile/compile_output.hpp"
#include "compile/compile_request.hpp"
#include "compile/nvrtc_library.hpp"

namespace autotune {

[[nodiscard]] CompileOutput compile_with_nvrtc(const CompileRequest& request); // the linked NVRTC
[[nodiscard]] CompileOutput compile_with_nvrtc(const CompileRequest& request, const NvrtcLibrary& nvrtc);

} // namespace autotune
