// The names a spec's expressions may use: problem variables, then parameters, then
// derived values, in that order (derived values may use all the others).
#pragma once

#include "spec/kernel_spec.hpp"

#include <string>
#include <vector>

namespace autotune {

[[nodiscard]] std::vector<std::string> spec_variable_names(const KernelSpec& spec);

} // namespace autotune
