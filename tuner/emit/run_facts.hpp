// What one run did that the results file deliberately leaves out — when it ran, how long
// each compile took, which came from the cache — written beside the results file as
// runs/<kernel>.json (ignored by git; a folder of its own, so that `results/sm_*/*.json`
// still names results files only). The results file stays a function of its inputs; this
// one is the run's log.
#pragma once

#include "emit/tuning_run.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

namespace autotune {

[[nodiscard]] nlohmann::ordered_json run_facts_json(const std::vector<TuningRun>& runs);

// "DIR/runs/gemm.json" for "DIR/gemm.json".
[[nodiscard]] std::filesystem::path run_facts_path(const std::filesystem::path& results_path);

// Writes run_facts_json(runs) beside the results file, atomically; returns its path.
std::filesystem::path write_run_facts(const std::vector<TuningRun>& runs, const std::filesystem::path& results_path);

} // namespace autotune
