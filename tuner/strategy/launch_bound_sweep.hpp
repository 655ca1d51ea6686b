// Launch-bound search: around the best configurations found, every register policy the
// spec allows — __launch_bounds__ min blocks (and max threads), __maxnreg__, the file-level
// maxrregcount — with the other parameters fixed; and the frontier of registers against
// time among them (the point of a register policy is to trade one for the other).
#pragma once

#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <optional>
#include <vector>

namespace autotune {

// The variants that differ from `base` only in the register-policy parameters (all their
// values in the full space) and that the space's rules admit; `base` itself is not among them.
[[nodiscard]] std::vector<Variant> launch_bound_sweep(const KernelSpec& spec, const Problem& problem, const Variant& base);

struct PolicyPoint {
    std::size_t variant = 0;          // position in the run's variants
    int registers = 0;
    std::optional<double> seconds;    // measured median, or the model's time when nothing was measured
};

// The points no other point beats on both registers and time (fewer registers and no more
// time, or less time and no more registers): the choices worth making; of equal points the
// first. Returns their variants.
[[nodiscard]] std::vector<std::size_t> register_time_frontier(const std::vector<PolicyPoint>& points);

} // namespace autotune
