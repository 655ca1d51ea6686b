// Compiling a request with nvcc, one process per variant, the way a consumer build
// compiles the kernel: the entry is referenced from host code, as a launch would.
#pragma once

#include "compile/compile_request.hpp"
#include "compile/compiler_run.hpp"
#include "util/process.hpp"

#include <filesystem>
#include <string>

namespace autotune {

// `nvcc` is the program to run (e.g. /usr/local/cuda/bin/nvcc). Past `limits` (its time, or
// an allocation failing at its memory limit), nvcc and the programs it started are stopped.
[[nodiscard]] CompilerRun compile_with_nvcc(const CompileRequest& request, const std::filesystem::path& nvcc,
                                           const ProcessLimits& limits = {});

// The translation unit nvcc compiles for `request`.
[[nodiscard]] std::string nvcc_translation_unit(const CompileRequest& request);

// "Cuda compilation tools, release 13.0, V13.0.88" (the last line of nvcc --version that
// names the release); throws std::runtime_error when nvcc cannot be run.
[[nodiscard]] std::string nvcc_version(const std::filesystem::path& nvcc);

} // namespace autotune
