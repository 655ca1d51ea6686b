// The results file (results/<arch>/<kernel>.json): the contract other tools read. See
// DESIGN.md "Results" for the fields.
#pragma once

#include "emit/tuning_run.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

[[nodiscard]] nlohmann::ordered_json results_json(const TuningRun& run);

// The parts of a results document that ranking writes, for a run and for merged shards:
// a variant's rank fields, and a problem's entry (identities[i] = index and params of
// the i-th ranked variant; sms of the device the figures are for).
[[nodiscard]] nlohmann::ordered_json ranked_variant_json(const RankedVariant* ranked);
[[nodiscard]] nlohmann::ordered_json ranked_problem_json(
    const nlohmann::ordered_json& variables, const ProblemRanking& ranking,
    const std::vector<std::pair<std::size_t, nlohmann::ordered_json>>& identities, int sms);

// "<kernel>.json", or "<kernel>.shard-I-of-N.json" for a shard's part.
[[nodiscard]] std::string results_file_name(const std::string& kernel,
                                            const std::optional<std::pair<std::size_t, std::size_t>>& shard);

// The results file of a run over one or more problems (all of one kernel, arch and shard),
// in the order tuned; see problem_views.hpp for how further problems are held.
[[nodiscard]] nlohmann::ordered_json results_document(const std::vector<TuningRun>& runs);

// DIR/<arch>/<results_file_name>, written atomically; returns the path written.
std::filesystem::path write_results(const std::vector<TuningRun>& runs, const std::filesystem::path& out_dir);

} // namespace autotune
