#include "strategy/space_knowledge.hpp"

#include "compile/compiled_variant.hpp"
#include "strategy/point_features.hpp"
#include "strategy/regression_forest.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

double number_at(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

// The variants of a document: a results file's "variants" (every problem's, for a file of several).
const json& variants_of(const json& document, const std::string& source)
{
    if (!document.is_object() || !document.contains("variants") || !document.at("variants").is_array())
        throw std::invalid_argument("'" + source + "' has no \"variants\" list");
    return document.at("variants");
}

// For each point (by its parameters), the first record of `variants` with the same values.
std::vector<const json*> join(const std::vector<json>& point_params, const std::vector<std::string>& names,
                              const json& variants)
{
    std::unordered_map<std::string, const json*> by_key;
    for (const json& v : variants)
        if (v.is_object() && v.contains("params") && v.at("params").is_object())
            by_key.emplace(parameter_key(v.at("params"), names), &v);
    std::vector<const json*> matched;
    for (const json& params : point_params) {
        const auto it = by_key.find(parameter_key(params, names));
        matched.push_back(it == by_key.end() ? nullptr : it->second);
    }
    return matched;
}

std::string no_point_matched(const std::string& source)
{
    return "'" + source + "' has no variant with the parameters of a point of the space";
}

double median_log(const std::vector<double>& times)
{
    std::vector<double> logs;
    for (const double t : times)
        if (std::isfinite(t) && t > 0)
            logs.push_back(std::log(t));
    if (logs.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const auto middle = logs.begin() + static_cast<std::ptrdiff_t>(logs.size() / 2);
    std::nth_element(logs.begin(), middle, logs.end());
    return *middle;
}

const std::vector<double>* fact_named(const SearchSpace& space, const std::string& name)
{
    for (const auto& f : space.facts)
        if (f.name == name)
            return &f.values;
    return nullptr;
}

// Once the space has both the model's predicted time and another GPU's times, its baseline
// (what the forest corrects, and where its guided picks look) is the two averaged in log
// time. Each is wrong in its own way: the model about what it does not model, another GPU
// (of another architecture most) about what differs between the two; on the held-out RTX
// 2080 Ti the RTX 3090's times alone led the forest to the RTX 3090's best shape
// (docs/search-benchmark.md). Equal weights: nothing says which to trust more. The
// prediction is first shifted to the other GPU's median; a point one of them lacks (failed
// to compile here, or failed there) takes the median for the missing one, so that it is
// neither favoured nor buried by an average it was spared. The guess, which the walking
// strategies start from, stays the other GPU's: a measured time is the surer single first
// point (the blend's fastest, a shape both rate highly, ran at 0.77 of the 2080 Ti's optimum).
void blend_baseline(SearchSpace& space)
{
    const auto* predicted = fact_named(space, "predicted_seconds");
    const auto* elsewhere = fact_named(space, "prior_seconds");
    if (!predicted || !elsewhere)
        return;
    const double centre = median_log(*elsewhere);
    const double shift = centre - median_log(*predicted);
    const auto log_of = [](double t) { return std::isfinite(t) && t > 0 ? std::log(t) : std::numeric_limits<double>::quiet_NaN(); };
    space.baseline.assign(elsewhere->size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t p = 0; p < elsewhere->size() && p < predicted->size(); ++p) {
        const double there = log_of((*elsewhere)[p]), here = log_of((*predicted)[p]) + shift;
        if (!std::isnan(there) || !std::isnan(here))
            space.baseline[p] = std::exp(0.5 * ((std::isnan(there) ? centre : there) + (std::isnan(here) ? centre : here)));
    }
}

} // namespace

bool kernel_named_by_file(const json& document)
{
    return document.is_object() && document.value("kernel_named_by_file", false);
}

void require_kernel(const json& other, const std::string& kernel, const std::string& source, bool kernel_is_a_file_name)
{
    if (kernel_is_a_file_name || kernel_named_by_file(other))
        return;
    const auto it = other.is_object() ? other.find("kernel") : other.end();
    const std::string named = it != other.end() && it->is_string() ? it->get<std::string>() : std::string();
    if (named != kernel)
        throw std::invalid_argument("'" + source + "' holds results of kernel '" + named + "', not '" + kernel + "'");
}

std::string parameter_key(const json& params, const std::vector<std::string>& names)
{
    std::string key;
    for (const auto& name : names) {
        const auto it = params.find(name);
        if (it == params.end())
            return {}; // never matches a complete record's key
        const auto integral = integral_value(*it);
        key += name + "=" + (integral ? std::to_string(*integral) : it->dump()) + ";";
    }
    return key;
}

CompiledFacts compiled_facts_of(const json& variant)
{
    CompiledFacts f;
    if (!variant.is_object() || is_compile_failure(variant.value("status", "")))
        return f;
    f.registers = number_at(variant, "registers");
    f.spilled_bytes = number_at(variant, "spill_stores") + number_at(variant, "spill_loads");
    f.shared_bytes = number_at(variant, "shared_static");
    if (const auto o = variant.find("occupancy"); o != variant.end() && o->is_object())
        f.occupancy = number_at(*o, "fraction");
    if (const auto t = variant.find("predicted_time"); t != variant.end() && t->is_object())
        f.predicted_seconds = number_at(*t, "seconds");
    return f;
}

void add_compiled_facts(SearchSpace& space, const std::vector<CompiledFacts>& facts)
{
    const auto column = [&](const char* name, double CompiledFacts::*member) {
        FactColumn c{name, {}};
        for (const auto& f : facts)
            c.values.push_back(f.*member);
        space.facts.push_back(std::move(c));
    };
    column("registers", &CompiledFacts::registers);
    column("spilled_bytes", &CompiledFacts::spilled_bytes);
    column("shared_bytes", &CompiledFacts::shared_bytes);
    column("occupancy", &CompiledFacts::occupancy);
    column("predicted_seconds", &CompiledFacts::predicted_seconds);
    if (space.guess.empty())
        space.guess = space.facts.back().values;
    blend_baseline(space);
}

std::size_t add_static_facts(SearchSpace& space, const std::vector<json>& point_params, const json& compiled,
                             const std::string& source)
{
    const auto matched = join(point_params, space.parameter_names, variants_of(compiled, source));
    std::vector<CompiledFacts> facts;
    std::size_t found = 0, known = 0;
    for (const json* v : matched) {
        facts.push_back(v ? compiled_facts_of(*v) : CompiledFacts{});
        found += v ? 1 : 0;
        const CompiledFacts& f = facts.back();
        known += !std::isnan(f.registers) || !std::isnan(f.predicted_seconds) ? 1 : 0;
    }
    if (found == 0)
        throw std::invalid_argument(no_point_matched(source));
    if (known == 0)
        throw std::invalid_argument("'" + source + "' holds no compiled facts (registers, predicted times) for the "
                                    "space's points: give a compile-only run of it (autotune run SPEC --compile-only)");
    add_compiled_facts(space, facts);
    return found;
}

std::size_t add_prior_times(SearchSpace& space, const std::vector<json>& point_params, const json& measured,
                            const std::string& source, MeasuredFigure figure)
{
    const auto matched = join(point_params, space.parameter_names, variants_of(measured, source));
    const double unknown = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> times;
    std::vector<std::size_t> known, missing;
    for (std::size_t p = 0; p < matched.size(); ++p) {
        const auto t = matched[p] ? measured_time(*matched[p], figure) : std::nullopt;
        times.push_back(t ? *t : unknown); // failed there: likely to fail here, and no guess
        if (t)
            known.push_back(p);
        else if (!matched[p])
            missing.push_back(p);
    }
    if (std::none_of(matched.begin(), matched.end(), [](const json* v) { return v != nullptr; }))
        throw std::invalid_argument(no_point_matched(source));
    if (known.empty())
        throw std::invalid_argument("'" + source + "' has no measured time for any point of the space");
    // The other GPU may have run only a sample of the space: its times, as a forest over the
    // parameters learns them, stand in for the points it did not run.
    if (!missing.empty() && known.size() >= 2) {
        const PointFeatures features(space, true);
        std::vector<double> targets;
        for (const std::size_t p : known)
            targets.push_back(std::log(times[p]));
        ForestSettings settings;
        settings.trees = 8;
        settings.min_leaf = 2;
        RandomSource random(1);
        RegressionForest forest;
        forest.fit(features, known, targets, settings, random);
        const auto predicted = forest.predict(features, missing);
        for (std::size_t i = 0; i < missing.size(); ++i)
            times[missing[i]] = std::exp(predicted[i].mean);
    }
    space.guess = times;
    space.facts.push_back({"prior_seconds", std::move(times)});
    blend_baseline(space);
    return known.size();
}

} // namespace autotune
