// The readable table `autotune <kernel> --compile-only` prints: one row per variant.
#pragma once

#include "emit/tuning_run.hpp"

#include <string>

namespace autotune {

[[nodiscard]] std::string compile_table(const TuningRun& run);

// --launch-bounds: per base configuration, its register-policy sweep with registers,
// spills, occupancy and time (measured, or the model's), the frontier marked. Empty when
// there was no sweep.
[[nodiscard]] std::string launch_bound_table(const TuningRun& run);

// How many compiled, failed, came from the cache, and how long it took; then one line
// per rule that removed combinations from the space.
[[nodiscard]] std::string compile_summary(const TuningRun& run);

} // namespace autotune
