// Compiling a request in-process with NVRTC, straight to a cubin for the real
// architecture; the PTX is kept too. Safe to call from several threads at once.
#pragma once

#include "compile/compile_output.hpp"
#include "compile/compile_request.hpp"
#include "compile/nvrtc_library.hpp"

namespace autotune {

[[nodiscard]] CompileOutput compile_with_nvrtc(const CompileRequest& request); // the linked NVRTC
[[nodiscard]] CompileOutput compile_with_nvrtc(const CompileRequest& request, const NvrtcLibrary& nvrtc);

// NVRTC's first error line when it refuses `options` themselves (an unknown option, a bad
// value: NVRTC_ERROR_INVALID_OPTION) for `arch`, found by compiling an empty kernel; empty
// when it takes them. A spec's or a command's options are checked so before any variant.
[[nodiscard]] std::string rejected_options(const NvrtcLibrary& nvrtc, const ArchTarget& arch,
                                           const std::vector<std::string>& options);

} // namespace autotune
