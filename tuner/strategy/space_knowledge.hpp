// What is known of a space's points before they are measured, from other runs of the same
// space: a compile-only run's compiled facts (`--static`) and another GPU's measurements
// (`--prior`). Each is joined to the points by their parameter values and becomes the
// space's facts (features for the strategies that model it) and its guess (the order of
// the first measurements).
#pragma once

#include "strategy/replay.hpp"
#include "strategy/search_space.hpp"

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// What the compiler and the model say of one variant; NaN where it is not known (a variant
// that did not compile has no facts).
struct CompiledFacts {
    double registers = std::numeric_limits<double>::quiet_NaN();
    double spilled_bytes = std::numeric_limits<double>::quiet_NaN(); // spill stores + loads
    double shared_bytes = std::numeric_limits<double>::quiet_NaN();  // static shared memory
    double occupancy = std::numeric_limits<double>::quiet_NaN();     // predicted, a fraction
    double predicted_seconds = std::numeric_limits<double>::quiet_NaN(); // the time model's
};

// The facts of one variant record of a results document (registers, spill_stores,
// spill_loads, shared_static, occupancy.fraction, predicted_time.seconds).
[[nodiscard]] CompiledFacts compiled_facts_of(const nlohmann::ordered_json& variant);

// Adds the facts as columns of `space` (one per fact, points in order) and, when the space
// has no guess yet, the predicted time as its guess. With another GPU's times as well
// (either order), the space's baseline is the two averaged in log time (space_knowledge.cpp says why).
void add_compiled_facts(SearchSpace& space, const std::vector<CompiledFacts>& facts);

// Joins a compile-only results document of the same space to the points (`point_params`[p]
// are point p's parameters) and adds its facts (add_compiled_facts); points it lacks get none. Returns how many points it
// matched; throws std::invalid_argument naming `source` when it matches none, or when what it
// matches holds no compiled fact (a measured file, an imported Kernel Tuner cache).
std::size_t add_static_facts(SearchSpace& space, const std::vector<nlohmann::ordered_json>& point_params,
                             const nlohmann::ordered_json& compiled, const std::string& source);

// Joins another GPU's measured results of the same space to `space` by parameters: their
// times (the figure chosen, as for replay) become a fact and the space's guess (and, with
// compiled facts, blended with the predicted time its baseline). A point that
// failed there has none; one it did not run (its space was a sample, or smaller) gets the
// time a forest fitted on its times predicts. Returns how many points had a time there;
// throws std::invalid_argument naming `source` when it matches no point or none had a time.
std::size_t add_prior_times(SearchSpace& space, const std::vector<nlohmann::ordered_json>& point_params,
                            const nlohmann::ordered_json& measured, const std::string& source,
                            MeasuredFigure figure = MeasuredFigure::objective);

// Throws std::invalid_argument naming `source` when `other` holds results of another kernel
// than `kernel` (its "kernel" field): another kernel's times or facts say nothing of this
// space, even where its parameters happen to share names and values. Where either name is
// a file's (an import of a T4 document or of a cache without kernel_name:
// kernel_named_by_file; `kernel_is_a_file_name` for this side), names say nothing, and the
// join of the parameters decides (no_point_matched).
void require_kernel(const nlohmann::ordered_json& other, const std::string& kernel, const std::string& source,
                    bool kernel_is_a_file_name = false);

// Whether a results document's kernel is named after its file (kernel_named_by_file).
[[nodiscard]] bool kernel_named_by_file(const nlohmann::ordered_json& document);

// The key that joins records of one space: each of `names` with its value (an integral
// number as an integer, so 4 and 4.0 match; anything else as JSON).
[[nodiscard]] std::string parameter_key(const nlohmann::ordered_json& params, const std::vector<std::string>& names);

} // namespace autotune
