// What makes a problem impossible to tune, found before anything is compiled, so a bad
// spec or --problem is one clear line rather than a run of compile or launch failures.
#pragma once

#include "space/enumerate_space.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstdint>

namespace autotune {

// More bytes than any GPU holds: a buffer this large is a mistake (or an overflow).
inline constexpr std::int64_t max_buffer_bytes = std::int64_t{1} << 40; // 1 TiB

// Throws SpecError naming the spec file, the problem and the field when
//  - the cost differs between variants of `space` (space/problem_work.hpp), or cost.bytes is
//    beyond 2^53 or not finite (an overflow: N * N * 4 with N = 2^32);
//  - a buffer argument, for some variant of `space`, has an unknown element type, a size
//    that is not a positive integer below 2^53, or more than max_buffer_bytes;
//  - a scalar argument's value, for some variant, does not fit its type, or a [kernel]
//    defines expression is not an integer;
//  - `space` has no valid variant (space.valid, which counts those it does not hold too):
//    the message names the rule that removed the most combinations (and --space full when
//    the default space was enumerated and the full one has variants).
void check_problem(const KernelSpec& spec, const Problem& problem, const Space& space, SpaceSelection selection);

} // namespace autotune
