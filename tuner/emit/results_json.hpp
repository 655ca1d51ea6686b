// The results file (results/<arch>/<kernel>.json): the contract other tools read. See
// DESIGN.md "Results" for the fields.
#pragma once

#include "emit/tuning_run.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace autotune {

[[nodiscard]] nlohmann::ordered_json results_json(const TuningRun& run);

// DIR/<arch>/<kernel>.json, written atomically; returns the path written.
std::filesystem::path write_results(const TuningRun& run, const std::filesystem::path& out_dir);

} // namespace autotune
