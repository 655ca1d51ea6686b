// How long warps that share an SM's units take when several units are busy at once.
//
// The time model's terms each say what one unit needs (the schedulers' issue slots, the FP32
// pipe, the shared-memory wavefronts, ...); taking the largest as the time assumes every other
// unit's work hides under it, which holds only with warps to spare. A warp waiting for a
// shared-memory load does not issue its FMAs meanwhile: where two units are near their limit,
// and few warps are resident, they overlap less. A closed queueing network says how much:
// the resident warps are its customers, each unit a queue with the cycles one warp needs of
// it, and the rest of one warp's own chain (the waits for operands no unit serves) a delay.
//
// A warp stays on the scheduler (SM sub-partition) it was given, and each scheduler has its
// own issue slots, pipes and LD/ST units; only the shared-memory banks and L1's wavefronts
// are the SM's. So each scheduler's warps are a class of their own: they queue only behind
// each other at their scheduler's units, and behind every warp of the SM at the units the
// schedulers share. The classes are alike (the busiest scheduler's count stands for each),
// and the cycle is found by Bard and Schweitzer's approximate mean value analysis (P.
// Schweitzer, "Approximate analysis of multiclass closed networks of queues", 1979; exact
// for one customer and for balanced queues, within a few per cent elsewhere). It lies
// between the largest unit's work and the sum of all of it: near the first with many warps
// and one dominant unit, near the second with one warp a scheduler or units in balance.
// Nothing in it is fitted.
#pragma once

#include <vector>

namespace autotune {

struct ClosedNetwork {
    std::vector<double> per_scheduler; // cycles one warp needs of each unit its scheduler has alone
    std::vector<double> per_sm;        // ... of each unit every scheduler's warps share
    double delay = 0;                  // the rest of one warp's chain, waiting on no unit
    int customers = 1;                 // the warps of the busiest scheduler: one class
    double warps = 1;                  // the SM's warps, every class: who queues at the shared units
};

// The cycles the network's warps take to each pass once through every unit and the delay.
// At least one warp's demands and delay together; with many warps, the largest
// per-scheduler demand times the customers or the largest per-SM demand times the warps,
// whichever is larger (the time model takes the larger of this and every unit's term).
// Throws std::invalid_argument for no customers, fewer warps than customers, or a negative
// demand or delay.
[[nodiscard]] double closed_network_cycle(const ClosedNetwork& network);

} // namespace autotune
