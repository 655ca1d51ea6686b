// A problem left without a winner is a failed run, whatever else went right (a run in
// which some variants fail and others compile still has one). Says why, for the command
// to report in one line and exit 1; the results already written stay.
#pragma once

#include "emit/tuning_run.hpp"

#include <optional>
#include <string>
#include <vector>

namespace autotune {

// nullopt when the problem has a winner; else why not, with the first error behind it:
// "no variant compiled (48 compile errors); the first: kernel.cuh(3): error: ...".
[[nodiscard]] std::optional<std::string> why_no_winner(const TuningRun& run);

// One line naming the spec, the architecture, the first problem without a winner (and how
// many more) and why; nullopt when every problem has a winner.
[[nodiscard]] std::optional<std::string> no_winner_line(const std::vector<TuningRun>& runs, const std::string& spec);

} // namespace autotune
