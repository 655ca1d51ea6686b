// The problem's work from the spec's cost model ([cost] flops and minimum bytes): one figure
// per problem, the roofline's, the same for every variant. Its expressions may name
// parameters and derived values as well as problem variables (Kernel Tuner's convolution
// has filter_height, a tuning parameter with one value, in its cost), so they are evaluated
// with each variant's values, and every variant must give the same work.
#pragma once

#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <vector>

namespace autotune {

struct ProblemWork {
    double flops = 0;
    double bytes = 0;
};

// The work, evaluated for each of `variants` (with none, for the parameters' first values).
// Throws SpecError, one line naming the spec file, the problem and the expression, when an
// expression cannot be evaluated or two variants give different work.
[[nodiscard]] ProblemWork problem_work(const KernelSpec& spec, const Problem& problem,
                                       const std::vector<Variant>& variants);

} // namespace autotune
