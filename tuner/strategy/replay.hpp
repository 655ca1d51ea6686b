// Replaying a search on a recorded space: a results file (one of ours, or an imported
// Kernel Tuner cache) becomes a SearchSpace whose answers are the recorded medians, so
// that strategies can be compared offline on real measurements.
#pragma once

#include "strategy/measured_time.hpp"
#include "strategy/search_space.hpp"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct ReplaySpace {
    SearchSpace space;                        // one point per variant, in the file's order
    std::vector<std::int64_t> indices;        // each point's variant index
    std::vector<nlohmann::ordered_json> params; // each point's parameters as recorded
    std::vector<std::optional<double>> medians; // measured median (s); nullopt: failed or unmeasured
    double optimum = 0;                       // the fastest measured median
};

// An integral JSON number (an integer, or a float with no fraction) as int64, else nullopt.
[[nodiscard]] std::optional<std::int64_t> integral_value(const nlohmann::ordered_json& value);

// The space of a results document: the parameters are those of the first variant, each
// one's values the distinct recorded values sorted ascending (non-integer values are
// numbered by their sorted position); the prior is the variants' predicted_fraction where
// every ok variant has one (others rank last), else empty. Throws std::invalid_argument
// naming `source` when the document has no variants, a variant lacks a parameter, or
// nothing was measured.
[[nodiscard]] ReplaySpace replay_space(const nlohmann::ordered_json& results, const std::string& source,
                                       MeasuredFigure figure = MeasuredFigure::objective);

// "N" evaluations or "P%" of `points` (rounded up, at least 1). Throws
// std::invalid_argument for anything else.
[[nodiscard]] std::size_t replay_budget(const std::string& text, std::size_t points);

struct ReplayOutcome {
    SearchTrace trace;
    std::optional<double> best_time;     // fastest median found
    std::optional<std::size_t> best;     // its point
    std::size_t evaluations = 0;
    std::size_t failed = 0;              // evaluations that gave no time
    double fraction_of_optimum = 0;      // optimum / best_time; 0 when nothing was found
};

[[nodiscard]] ReplayOutcome replay(const ReplaySpace& space, const std::string& strategy, const Budget& budget,
                                   std::uint64_t seed);

} // namespace autotune
