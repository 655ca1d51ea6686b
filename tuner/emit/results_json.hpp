// The results file (results/<arch>/<kernel>.json): the contract other tools read. See
// DESIGN.md "Results" for the fields.
#pragma once

#include "emit/tool_json.hpp"
#include "emit/tuning_run.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

// The version of the results document's layout. Readers take this version and older, and
// refuse a newer one (read_results_file). 2: run-volatile facts (the date, compile times,
// cache hits) left the document for the run's side file; `tool` and `schema_version` came.
inline constexpr int results_schema_version = 2;

[[nodiscard]] nlohmann::ordered_json results_json(const TuningRun& run);

// A variant's predicted time (its record's predicted_time; check-model's points too).
[[nodiscard]] nlohmann::ordered_json predicted_time_json(const TimePrediction& time);

// A variant's warp work (its record's ptx_facts.warp_work), and back.
[[nodiscard]] nlohmann::ordered_json warp_work_json(const WarpWork& work);
[[nodiscard]] WarpWork warp_work_of_json(const nlohmann::ordered_json& record);

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

// DIR/<arch>/<results_file_name>, written atomically unless the file there already holds
// the same document (only `tool` may differ): then it is left as it is. Returns the path.
std::filesystem::path write_results(const std::vector<TuningRun>& runs, const std::filesystem::path& out_dir);

} // namespace autotune
