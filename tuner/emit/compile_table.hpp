// The readable table `autotune <kernel> --compile-only` prints: one row per variant.
#pragma once

#include "emit/compile_run.hpp"

#include <string>

namespace autotune {

[[nodiscard]] std::string compile_table(const CompileRun& run);

// One line: how many compiled, failed, came from the cache, and how long it took.
[[nodiscard]] std::string compile_summary(const CompileRun& run);

} // namespace autotune
