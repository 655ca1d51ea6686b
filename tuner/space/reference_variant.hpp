// The spec's designated reference variant ([reference] variant = { ... }) as a Variant of
// one problem: the point every other variant's outputs are compared with when there is no
// CPU reference, as a user's own kernel has none.
#pragma once

#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <optional>

namespace autotune {

// nullopt when the spec names no reference variant. Throws SpecError naming the spec
// file, the problem and the rule when the point is not in this problem's full space (a
// constraint or one of CUDA's limits removes it): a reference that cannot run checks nothing.
[[nodiscard]] std::optional<Variant> reference_variant(const KernelSpec& spec, const Problem& problem);

} // namespace autotune
