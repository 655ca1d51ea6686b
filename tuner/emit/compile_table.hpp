// The readable table `autotune <kernel> --compile-only` prints: one row per variant.
#pragma once

#include "emit/tuning_run.hpp"

#include <string>

namespace autotune {

[[nodiscard]] std::string compile_table(const TuningRun& run);

// How many compiled, failed, came from the cache, and how long it took; then one line
// per rule that removed combinations from the space.
[[nodiscard]] std::string compile_summary(const TuningRun& run);

} // namespace autotune
