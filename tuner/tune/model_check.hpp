// Checking the model against measurements nobody here made (autotune check-model): the
// configurations of a measured file are joined to the spec's variants by their parameter
// values, run through the pipeline up to the model's ranking (tune_problem.hpp), and the
// ranking is scored against the measured times — beside two baselines, a random pick and
// "highest predicted occupancy first" — and the predicted failures against the measured.
//
// Conventions: the ranking scores are over the points that ran (a measured time). The
// model's order is the rank stage's (RankedVariant::predicted_rank, so a better model
// scores better here with no change); points it predicts to fail that nevertheless ran
// come after every predicted one, in no order among themselves (a tie group). Tie groups
// count exactly: a pick among ties is uniformly random and its expectation is computed
// exactly, not sampled (the random baseline is the whole set as one group).
#pragma once

#include "emit/measured_file.hpp"
#include "emit/tuning_run.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

// A measured file that does not fit the spec: a parameter missing on one side that the other
// varies, a value that is not an integer. The message is one line naming the parameter.
class ModelCheckError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The measured configurations as the spec's variants. A configuration with a value not
// among the spec's values is outside its space and left out (counted); one the spec's
// rules reject stays, predicted to fail ("not in the spec's space: ...").
struct MeasuredJoin {
    std::vector<Variant> variants;              // to compile and predict, one per joined point
    std::vector<std::size_t> point_variant;     // [point] → index into variants, or npos: rejected by a rule
    std::vector<std::string> point_rejection;   // [point] → the rule, when rejected
    std::vector<MeasuredConfiguration> points;  // the joined configurations
    std::size_t outside_space = 0;              // values not among the spec's
    std::vector<std::string> notes;             // parameters joined although one side lacks them
};

// Throws ModelCheckError when the parameter names differ (beyond a parameter one side
// holds at a single value, noted) or a value is not an integer.
[[nodiscard]] MeasuredJoin join_measured(const KernelSpec& spec, const Problem& problem, const MeasuredFile& file,
                                         const std::string& file_path);

// The positions (ascending) of a seeded sample of n of `count` configurations; all of
// them when n >= count. The same seed gives the same sample on every platform.
[[nodiscard]] std::vector<std::size_t> sample_positions(std::size_t count, std::size_t n, std::uint64_t seed);

// One joined point as the scores see it.
struct CheckedPoint {
    std::optional<double> measured;            // seconds; none: a measured failure
    std::string predicted_failure;             // why the pipeline predicts it fails; empty: predicted to run
    std::size_t predicted_rank = 0;            // 1-based in the model's order; 0: none
    std::optional<double> occupancy;           // predicted occupancy fraction, where predicted
    std::optional<int> resident_warps;         // per SM, where predicted (occupancy's active warps)
    std::optional<int> registers;              // where it compiled
    int threads = 0;                           // per block; 0: not joined to a variant
    std::optional<double> predicted_seconds;   // the model's time, where it predicted one
    std::string predicted_bound;               // the term that bounds that time ("issue", "phases (latency, shared)")
    std::optional<double> counted_instructions;   // warp instructions a profiler counted, where the file has them
    std::optional<double> predicted_instructions; // the model's, where it predicted a time
    std::optional<double> counted_dram_bytes;     // DRAM bytes a profiler counted, where the file has them
    std::optional<double> predicted_dram_bytes;   // the bytes the model's dram term charges
    // Its tuning parameters as the measured file records them (name, value as JSON text).
    std::vector<std::pair<std::string, std::string>> parameters;
};

// The points of a join after the pipeline ran on its variants (predict_problem): a compile
// error, a variant the pruning removes (launchability) or one without a prediction is a
// predicted failure.
[[nodiscard]] std::vector<CheckedPoint> checked_points(const MeasuredJoin& join, const TuningRun& run);

struct OrderScores {
    std::optional<double> spearman;            // predicted order vs measured time; none: under 3 points
    std::optional<double> top1_fraction;       // optimum / time of the first pick
    std::optional<double> best_in_top_1pct;    // optimum / best time among the first ceil(1% × ran) picks
    std::optional<double> best_in_top_5pct;
};

// How far the predicted times are from the measured ones, apart from their order: the
// median and quartiles of measured / predicted over the points that ran, predicted to run
// with a time. A GPU clocked below the device table's boost gives an even factor where the SMs
// bound every point, which leaves every ranking score as it is; a wide spread is what the
// ranking scores pay for.
struct TimeScale {
    double median = 0, lower_quartile = 0, upper_quartile = 0;
    std::size_t points = 0;
};

struct ModelCheck {
    std::size_t points = 0;
    std::size_t ran = 0;
    std::size_t measured_failures = 0;
    std::size_t predicted_failures = 0;
    std::size_t failures_agree = 0;            // failed and predicted to
    std::size_t failures_only_measured = 0;
    std::size_t failures_only_predicted = 0;   // ran, though predicted to fail
    OrderScores model;
    OrderScores random;                        // expected values; spearman 0
    OrderScores occupancy_first;               // highest predicted occupancy first, ties as a group
    std::optional<TimeScale> measured_over_predicted; // none: no point ran with a predicted time
    // The same for warp instructions, counted (a profiler's, where the measured file records
    // them: KTT's T4) over predicted: the issue term's count checked apart from the time.
    std::optional<TimeScale> instructions_counted_over_predicted;
    // And DRAM bytes (the dram term's traffic, checked apart from the bandwidth).
    std::optional<TimeScale> dram_bytes_counted_over_predicted;
    // measured_over_predicted of the points each term bounds: where the model is off, by what
    // it says limits the time.
    std::map<std::string, TimeScale> measured_over_predicted_by_bound;
    // ... and of the points with as many resident warps per scheduler ("1-2", "3-4", "5-8",
    // "9+"; an SM has 4): how well the model's latency hiding holds as warps get few.
    std::map<std::string, TimeScale> measured_over_predicted_by_warps_per_scheduler;
    // ... and by each tuning parameter's value (parameter → value → scale; parameters with
    // one value left out): which choice the model misjudges, e.g. a per-thread tile whose
    // shared part (once a loop trip, whatever the tile) is mispredicted.
    std::map<std::string, std::map<std::string, TimeScale>> measured_over_predicted_by_parameter;
    std::vector<std::size_t> misses;           // the failures_only_predicted points
    std::vector<std::size_t> unpredicted;      // the failures_only_measured points
};

[[nodiscard]] ModelCheck score_model(const std::vector<CheckedPoint>& points);

// The parameter whose values sort measured / predicted the most: the largest ratio of its
// values' highest median to their lowest, over the values of at least `min_points` points
// each (at least two such values). None when no parameter has two.
struct ParameterSpread {
    std::string parameter;
    double spread = 1; // highest median / lowest
};
[[nodiscard]] std::optional<ParameterSpread> widest_parameter_spread(const ModelCheck& check, std::size_t min_points);

// The expected optimum / best time of the first `picks` of an order given as tie groups of
// measured times (best first; a pick within a group uniformly random). optimum: the
// fastest time of all. Exact: within the group the picks end in, the best of r picks is
// its j-th fastest with probability C(g-j, r-1) / C(g, r).
[[nodiscard]] double expected_best_fraction(const std::vector<std::vector<double>>& groups, std::size_t picks,
                                            double optimum);

} // namespace autotune
