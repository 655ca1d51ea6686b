// Reading a T1 kernel description (JSON), the FAIR autotuning community format that
// Kernel Tuner, KTT and others read and write: ConfigurationSpace (TuningParameters,
// Conditions) and KernelSpecification (KernelFile, KernelName, LocalSize, GridDivX/Y/Z
// with ProblemSize, Arguments, ...). Values, Conditions and sizes are Python expressions
// (spec/python_expression.hpp). load_spec reads a .json spec through this.
#pragma once

#include "spec/kernel_spec.hpp"

#include <filesystem>

namespace autotune {

// The T1 file as a KernelSpec: parameters as preprocessor definitions (Kernel Tuner's
// convention), the whole space tuned by default, the T1 Default as the reference variant
// when the conditions keep it. Throws SpecError, one line naming the file and the JSON
// path of the field, for anything it cannot honour.
[[nodiscard]] KernelSpec load_t1_spec(const std::filesystem::path& path);

} // namespace autotune
