// A results file holds every problem a run tuned (DESIGN.md: one file per kernel and
// architecture). The first problem's record is the document itself — a one-problem file
// is exactly a one-problem run's document — and each further problem's record rides in
// its `problems` entry with its own variants, space, pruning and search. A *view* is the
// document as if that problem had been tuned alone; every reader works on views.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// The fields that belong to one problem rather than to the run.
[[nodiscard]] const std::vector<const char*>& per_problem_fields();

// One document from the views of the problems of one run, in order (at least one).
[[nodiscard]] nlohmann::ordered_json combine_problem_views(const std::vector<nlohmann::ordered_json>& views);

// Each problem of a results document as a one-problem document, in the file's order.
// Throws std::invalid_argument when a further problem's record lacks its variants.
[[nodiscard]] std::vector<nlohmann::ordered_json> problem_views(const nlohmann::ordered_json& document);

// "M=1024,N=1024": a view's problem as one line.
[[nodiscard]] std::string problem_view_text(const nlohmann::ordered_json& view);

// The view of the problem `wanted` ("M=1024,..."; every variable it sets has that value);
// with `wanted` empty, the only problem. Throws std::invalid_argument naming `path` and the
// file's problems when none matches or several could; ProblemError for a malformed `wanted`.
[[nodiscard]] nlohmann::ordered_json chosen_problem_view(const nlohmann::ordered_json& document,
                                                         const std::string& wanted, const std::string& path);

} // namespace autotune
