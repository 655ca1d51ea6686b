// The search stage's view of a space: the valid points (one value per parameter), the
// parameters' value lists (for neighbourhoods), and optionally what is known of each point
// before it is measured: a predicted score (the model's predicted fraction of the roof), facts
// (what the compiler says: registers, spills, occupancy, shared memory, the predicted time;
// or another GPU's measured time) and a guessed time that orders the first measurements.
// Strategies see nothing else: the same code searches a live GPU, a recorded results file
// (replay) or an imported Kernel Tuner cache.
#pragma once

#include "strategy/budget.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

// One fact of every point, known before measuring it: values[p] belongs to point p (NaN: unknown).
struct FactColumn {
    std::string name;
    std::vector<double> values;
};

struct SearchSpace {
    std::vector<std::string> parameter_names;
    std::vector<std::vector<std::int64_t>> parameter_values; // each parameter's values, in the spec's order
    std::vector<std::vector<std::int64_t>> points;           // the valid points; points[p][k] is a value of parameter k
    std::vector<double> predicted_score;                     // empty, or one per point: the model's score, higher is better
    std::vector<FactColumn> facts;                           // features beyond the parameters
    std::vector<double> guess; // empty, or one per point: a time guessed before measuring (lower is
                               // better; NaN: no guess), from another GPU's measurement or the model
    std::vector<double> baseline; // empty (the guess), or one per point: the time a strategy that
                                  // models the measurements corrects, where it is not the guess
                                  // (both another GPU's times and the model's: the two blended)
};

// Evaluates one point: its time in seconds (lower is better), or nullopt when the
// configuration failed (a failure costs an evaluation and yields nothing).
using Evaluate = std::function<std::optional<double>(std::size_t point)>;

struct SearchTrace {
    std::vector<std::size_t> evaluated;          // points, in the order they were evaluated; no repeats
    std::vector<std::optional<double>> times;    // times[i] belongs to evaluated[i]
    std::optional<std::size_t> best;             // the fastest point found
};

// Runs the named strategy; throws std::invalid_argument for an unknown name (naming the
// known ones) or an empty space. Never evaluates a point twice or one outside the space,
// never exceeds the budget, and the same seed gives the same trace for the same answers.
[[nodiscard]] SearchTrace run_strategy(const std::string& name, const SearchSpace& space, const Evaluate& evaluate,
                                       const Budget& budget, std::uint64_t seed);

// "exhaustive", "random", "model", and the metaheuristics.
[[nodiscard]] std::vector<std::string> strategy_names();

} // namespace autotune
