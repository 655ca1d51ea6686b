// A results file's measured time for one variant record: what replay, the T4 export and the
// Kernel Tuner import rank by. Alone in its file so that readers of results documents (the
// importer, its fuzz target) link without the search strategies.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace autotune {

// Which measured figure ranks a recorded variant: the run's own objective where it has one
// (an imported Kernel Tuner cache's `time`, its mean, recorded as objective_seconds, so a
// replay compares with published results), else the median; or the median always.
enum class MeasuredFigure { objective, median };

// A results file's variant record's measured time (s): status "ok" with a finite,
// positive figure; else nullopt (failed, not measured, or a time of 0, which no kernel takes).
[[nodiscard]] std::optional<double> measured_time(const nlohmann::ordered_json& variant,
                                                  MeasuredFigure figure = MeasuredFigure::objective);

} // namespace autotune
