// The model that ranks variants when nothing was measured (--compile-only, or no GPU of
// the arch). Predicted fraction of the roof = the product of factors each in (0, 1]:
//
//   occupancy  min(1, warps per scheduler / 4)             latency hiding
//   spills     1 / (1 + spilled bytes per thread / 32)      local-memory traffic
//   waves      blocks / (waves × blocks one wave holds)     the last wave's idle SMs
//   vectors    0.85 when accesses are scalar where vectors were possible
//   issue      for compute-bound problems, the share of arithmetic among the PTX's
//              instructions (a static count): issue slots spent on loads and
//              address arithmetic are not spent on flops
//
// It is a ranking device, labelled predicted everywhere; when measurements exist the
// report says how well it ranked them.
#pragma once

#include "rank/diagnosis.hpp"

#include <string_view>

namespace autotune {

struct ModelFactors {
    double occupancy = 1, spills = 1, waves = 1, vectors = 1, issue = 1;
    [[nodiscard]] double fraction() const { return occupancy * spills * waves * vectors * issue; }
};

// The share of arithmetic instructions (fma, mul, add, mma and their kin) among all
// instructions of the PTX, by static count; a tensor-core mma counts as the issue slots
// its m·n·k keeps the tensor pipe busy (m·n·k / 512: 4 for m16n8k16).
[[nodiscard]] double arithmetic_share(std::string_view ptx);

[[nodiscard]] ModelFactors model_factors(const VariantFacts& facts, double arithmetic_share);

} // namespace autotune
