// The shape of a results document (DESIGN.md "Results", docs/results.md), checked once
// when a file is read: every field a reader takes with at() or get() is there and of its
// kind, every status is one autotune writes, every variant index appears once per problem,
// each winner names a variant, and a measured time is a time. After the check the readers
// (report, header, merge, compare, replay, export, fidelity, check-model) can take the
// document as given; before it, a user's edit surfaces as one line naming the file and the
// JSON path of the first problem:
//   gemm.json: problems[1].variants[3].registers: expected an integer or null, got a string
#pragma once

#include "util/json_shape.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// Who wrote a document: a tuning run (or `autotune merge` of its shards), or `autotune
// import kt-cache` (it carries `imported_from`; its variants have parameters, a status and
// a measurement, nothing compiled or predicted).
enum class ResultsOrigin { tuning_run, imported };

// Which of the two wrote `document` (one whose shape was checked).
[[nodiscard]] ResultsOrigin results_origin(const nlohmann::ordered_json& document);

// The statuses a variant record may have.
[[nodiscard]] const std::vector<std::string>& variant_statuses();

// Throws JsonShapeError ("PATH: JSONPATH: what") for the first thing in `document` that is
// not what autotune writes, a schema_version newer than this build reads included.
ResultsOrigin check_results_shape(const nlohmann::ordered_json& document, const std::string& path);

} // namespace autotune
