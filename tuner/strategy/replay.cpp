#include "strategy/replay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

std::invalid_argument bad(const std::string& source, const std::string& why)
{
    return std::invalid_argument("'" + source + "' cannot be replayed: " + why);
}

} // namespace

std::optional<std::int64_t> integral_value(const json& value)
{
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9e15)
            return static_cast<std::int64_t>(d);
    }
    return std::nullopt;
}

ReplaySpace replay_space(const json& results, const std::string& source, MeasuredFigure figure)
{
    if (!results.is_object() || !results.contains("variants") || !results.at("variants").is_array())
        throw bad(source, "no \"variants\" list");
    const json& variants = results.at("variants");
    if (variants.empty())
        throw bad(source, "no variants");
    const json& first = variants.front();
    if (!first.is_object() || !first.contains("params") || !first.at("params").is_object())
        throw bad(source, "a variant without \"params\"");
    ReplaySpace r;
    for (const auto& [name, value] : first.at("params").items())
        r.space.parameter_names.push_back(name);
    const std::size_t n = r.space.parameter_names.size();

    // Each parameter's values: integers as they are, anything else numbered by its
    // position among the parameter's distinct values sorted ascending.
    std::vector<std::vector<json>> raw(n);
    std::vector<bool> all_integral(n, true);
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const json& v = variants[i];
        if (!v.is_object() || !v.contains("params") || !v.at("params").is_object())
            throw bad(source, "variant " + std::to_string(i) + " has no \"params\"");
        const json& params = v.at("params");
        if (params.size() != n)
            throw bad(source, "variant " + std::to_string(i) + " has other parameters than the first");
        for (std::size_t k = 0; k < n; ++k) {
            const auto it = params.find(r.space.parameter_names[k]);
            if (it == params.end())
                throw bad(source, "variant " + std::to_string(i) + " has no " + r.space.parameter_names[k]);
            raw[k].push_back(*it);
            all_integral[k] = all_integral[k] && integral_value(*it).has_value();
        }
        r.indices.push_back(v.contains("index") && v.at("index").is_number_integer() ? v.at("index").get<std::int64_t>()
                                                                                     : static_cast<std::int64_t>(i));
        r.params.push_back(params);
        r.medians.push_back(measured_time(v, figure));
    }
    r.space.points.assign(variants.size(), std::vector<std::int64_t>(n));
    r.space.parameter_values.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        auto& values = r.space.parameter_values[k];
        if (all_integral[k]) {
            for (std::size_t i = 0; i < variants.size(); ++i)
                r.space.points[i][k] = *integral_value(raw[k][i]);
            for (const auto& point : r.space.points)
                values.push_back(point[k]);
            std::sort(values.begin(), values.end());
            values.erase(std::unique(values.begin(), values.end()), values.end());
        } else {
            std::vector<json> distinct = raw[k];
            std::sort(distinct.begin(), distinct.end());
            distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
            for (std::size_t v = 0; v < distinct.size(); ++v)
                values.push_back(static_cast<std::int64_t>(v));
            for (std::size_t i = 0; i < variants.size(); ++i)
                r.space.points[i][k] =
                    std::lower_bound(distinct.begin(), distinct.end(), raw[k][i]) - distinct.begin();
        }
    }

    // The model's order, where the file has it for every ok variant: its predicted rank
    // (by time, with the ranking's tie rule), else, in files that carry no rank, the
    // predicted fraction of the roof.
    const auto scores_from = [&](const char* key, double sign) -> std::optional<std::vector<double>> {
        std::vector<double> scores;
        for (const json& v : variants) {
            const auto it = v.find(key);
            if (it != v.end() && it->is_number())
                scores.push_back(sign * it->get<double>());
            else if (v.contains("status") && v.at("status") != "ok")
                scores.push_back(-std::numeric_limits<double>::infinity());
            else
                return std::nullopt;
        }
        if (std::none_of(scores.begin(), scores.end(), [](double p) { return std::isfinite(p); }))
            return std::nullopt;
        return scores;
    };
    if (auto by_rank = scores_from("predicted_rank", -1.0))
        r.space.predicted_score = std::move(*by_rank);
    else if (auto by_fraction = scores_from("predicted_fraction", 1.0))
        r.space.predicted_score = std::move(*by_fraction);

    bool any = false;
    for (const auto& m : r.medians)
        if (m) {
            r.optimum = any ? std::min(r.optimum, *m) : *m;
            any = true;
        }
    if (!any)
        throw bad(source, "no variant has a measured time");
    return r;
}

std::size_t replay_budget(const std::string& text, std::size_t points)
{
    if (text.empty())
        throw std::invalid_argument("--budget '': give N evaluations or P% of the space");
    const Budget budget = parse_budget(text);
    if (budget.max_seconds < std::numeric_limits<double>::infinity())
        throw std::invalid_argument("--budget '" + text + "': a replay spends no GPU time; give N evaluations or P% of the space");
    return budget.evaluations_for(points);
}

ReplayOutcome replay(const ReplaySpace& space, const std::string& strategy, const Budget& budget, std::uint64_t seed)
{
    const Evaluate evaluate = [&](std::size_t point) { return space.medians.at(point); };
    ReplayOutcome o;
    o.trace = run_strategy(strategy, space.space, evaluate, budget, seed);
    o.evaluations = o.trace.evaluated.size();
    for (const auto& t : o.trace.times)
        o.failed += t ? 0 : 1;
    if (o.trace.best) {
        o.best = o.trace.best;
        o.best_time = space.medians[*o.trace.best];
        o.fraction_of_optimum = *o.best_time > 0 ? space.optimum / *o.best_time : 1.0;
    }
    return o;
}

} // namespace autotune
