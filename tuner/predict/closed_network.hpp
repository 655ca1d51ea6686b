// How long warps that share an SM's units take when several units are busy at once.
//
// The time model's terms each say what one unit needs (the schedulers' issue slots, the FP32
// pipe, the shared-memory wavefronts, ...); taking the largest as the time assumes every other
// unit's work hides under it, which holds only with warps to spare. A warp waiting for a
// shared-memory load does not issue its FMAs meanwhile: where two units are near their limit,
// and few warps are resident, they overlap less. A closed queueing network says how much:
// the resident warps are its customers, each unit a queue with the cycles one warp needs of
// it, and the rest of one warp's own chain (the waits for operands no unit serves) a delay.
// Its cycle time, by exact mean value analysis (Reiser and Lavenberg, "Mean-Value Analysis
// of Closed Multichain Queuing Networks", J. ACM 27(2), 1980), lies between the largest
// unit's work and the sum of all of it: near the first with many warps and one dominant unit,
// near the second with one warp or units in balance. Nothing in it is fitted.
#pragma once

#include <span>

namespace autotune {

// The cycles `customers` warps take to each pass once through every unit (`demands`: the
// cycles one warp needs of each, served one warp at a time) and a `delay` of their own.
// At least the largest demand times the customers, and at least delay + the demands' sum.
// Throws std::invalid_argument for no customers or a negative demand or delay.
[[nodiscard]] double closed_network_cycle(std::span<const double> demands, double delay, int customers);

} // namespace autotune
