// One variant rebuilt from its parameter values (as a results file records them),
// without enumerating the space: the same derived values, geometry, register policy and
// full-space index the enumeration would give.
#pragma once

#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

namespace autotune {

// Throws std::invalid_argument naming the parameter when a value is missing or not among
// the spec's values, or when the spec's rules reject the combination.
[[nodiscard]] Variant variant_from_values(const KernelSpec& spec, const Problem& problem, const NamedValues& values);

} // namespace autotune
