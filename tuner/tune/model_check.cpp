#include "tune/model_check.hpp"

#include "compile/compiled_variant.hpp"
#include "measure/sample_statistics.hpp"
#include "rank/rank_problem.hpp"
#include "space/variant_from_values.hpp"
#include "strategy/random_source.hpp"
#include "strategy/replay.hpp"
#include "util/plain_value_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <numeric>

namespace autotune {
namespace {

constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

// ceil(percent % of n), at least 1, in integers (0.05 × 100 is not always 5 in doubles).
std::size_t picks_for(std::size_t percent, std::size_t n) { return std::max<std::size_t>(1, (percent * n + 99) / 100); }

// The scores of an order of the points that ran, given as tie groups of their times, with
// the series the order ranks them by (for spearman; none: no spearman).
OrderScores scores_of(const std::vector<std::vector<double>>& groups, std::size_t ran, double optimum,
                      const std::optional<std::pair<std::vector<double>, std::vector<double>>>& series)
{
    OrderScores s;
    if (ran == 0)
        return s;
    s.top1_fraction = expected_best_fraction(groups, 1, optimum);
    s.best_in_top_1pct = expected_best_fraction(groups, picks_for(1, ran), optimum);
    s.best_in_top_5pct = expected_best_fraction(groups, picks_for(5, ran), optimum);
    if (series)
        s.spearman = spearman_correlation(series->first, series->second);
    return s;
}

} // namespace

MeasuredJoin join_measured(const KernelSpec& spec, const Problem& problem, const MeasuredFile& file,
                           const std::string& file_path)
{
    std::vector<std::string> spec_names;
    for (const auto& p : spec.parameters)
        spec_names.push_back(p.name);
    MeasuredJoin join;
    // A parameter only one side has joins where it cannot change the configuration: one
    // the file holds at a single value (a setting it recorded), one the spec fixes to a
    // single value (a limit written as a parameter). Anything else is a different space.
    for (const auto& name : file.parameters) {
        if (std::find(spec_names.begin(), spec_names.end(), name) != spec_names.end())
            continue;
        const bool one_value = std::all_of(file.configurations.begin(), file.configurations.end(), [&](const auto& c) {
            return c.params.at(name) == file.configurations.front().params.at(name);
        });
        if (!one_value || file.configurations.empty())
            throw ModelCheckError(fmt::format("'{}' has a parameter {} that the spec of {} does not (the spec's: {})",
                                              file_path, name, spec.name, fmt::join(spec_names, ", ")));
        join.notes.push_back(fmt::format("'{}' holds {} = {} in every configuration, and the spec of {} has no such "
                                         "parameter: joined without it",
                                         file_path, name, file.configurations.front().params.at(name).dump(), spec.name));
    }
    for (const auto& p : spec.parameters) {
        if (std::find(file.parameters.begin(), file.parameters.end(), p.name) != file.parameters.end())
            continue;
        if (p.values.size() != 1)
            throw ModelCheckError(fmt::format("the spec of {} has a parameter {} that '{}' does not (the file's: {})",
                                              spec.name, p.name, file_path, fmt::join(file.parameters, ", ")));
        join.notes.push_back(fmt::format("'{}' has no parameter {}: every configuration is joined at the spec's one "
                                         "value, {}",
                                         file_path, p.name, p.values.front()));
    }
    for (const auto& c : file.configurations) {
        NamedValues values;
        bool inside = true;
        for (const auto& p : spec.parameters) {
            if (!c.params.contains(p.name)) { // the spec's one value (checked above)
                values.emplace_back(p.name, p.values.front());
                continue;
            }
            const auto value = integral_value(c.params.at(p.name));
            if (!value)
                throw ModelCheckError(fmt::format("'{}': {} = {} is not an integer", file_path, p.name,
                                                  c.params.at(p.name).dump()));
            inside = inside && std::find(p.values.begin(), p.values.end(), *value) != p.values.end();
            values.emplace_back(p.name, *value);
        }
        if (!inside) {
            ++join.outside_space;
            continue;
        }
        join.points.push_back(c);
        try {
            join.variants.push_back(variant_from_values(spec, problem, values));
            join.point_variant.push_back(join.variants.size() - 1);
            join.point_rejection.emplace_back();
        } catch (const std::invalid_argument& e) {
            join.point_variant.push_back(none);
            join.point_rejection.push_back(fmt::format("not in the spec's space: {}", e.what()));
        }
    }
    return join;
}

std::vector<std::size_t> sample_positions(std::size_t count, std::size_t n, std::uint64_t seed)
{
    std::vector<std::size_t> positions(count);
    std::iota(positions.begin(), positions.end(), 0);
    if (n >= count)
        return positions;
    RandomSource random(seed);
    random.shuffle(positions);
    positions.resize(n);
    std::sort(positions.begin(), positions.end());
    return positions;
}

std::vector<CheckedPoint> checked_points(const MeasuredJoin& join, const TuningRun& run)
{
    std::vector<CheckedPoint> points;
    for (std::size_t p = 0; p < join.points.size(); ++p) {
        CheckedPoint c;
        c.measured = join.points[p].seconds;
        const std::size_t i = join.point_variant[p];
        if (i == none) {
            c.predicted_failure = join.point_rejection[p];
            points.push_back(std::move(c));
            continue;
        }
        const CompiledVariant& compiled = run.compiled[i];
        const PredictionOutcome& predicted = run.predictions[i];
        const RankedVariant* ranked = run.ranking ? &run.ranking->variants[i] : nullptr;
        c.threads = static_cast<int>(join.variants[i].block.volume());
        if (compiled.status == CompileStatus::ok)
            c.registers = compiled.resources.registers;
        if (predicted.prediction) {
            c.occupancy = predicted.prediction->occupancy.fraction;
            c.resident_warps = predicted.prediction->occupancy.active_warps;
        }
        if (ranked && ranked->predicted)
            c.predicted_rank = ranked->predicted_rank;
        if (ranked && ranked->predicted_time) {
            c.predicted_seconds = ranked->predicted_time->seconds;
            // A kernel with barriers is bound phase by phase: each phase's bound says more than "phases".
            const TimePrediction& time = *ranked->predicted_time;
            c.predicted_bound = time.bound == "phases" && !time.phase_bounds.empty()
                                    ? fmt::format("phases ({})", fmt::join(time.phase_bounds, ", "))
                                    : time.bound;
            c.predicted_instructions = ranked->predicted_time->warp_instructions;
            c.predicted_dram_bytes = ranked->predicted_time->dram_bytes;
        }
        c.counted_instructions = join.points[p].counted_instructions;
        c.counted_dram_bytes = join.points[p].counted_dram_bytes;
        for (const auto& [name, value] : join.points[p].params.items())
            c.parameters.emplace_back(name, plain_value_text(value));
        if (compiled.status != CompileStatus::ok)
            // A compile stopped at a limit fails as surely as one with an error: each says which.
            c.predicted_failure = fmt::format("{}: {}", to_string(compiled.status), compiled.error);
        else if (run.pruning.decisions[i].pruned)
            c.predicted_failure = run.pruning.decisions[i].reason;
        else if (!predicted.prediction || c.predicted_rank == 0)
            c.predicted_failure = predicted.error.empty() ? "no prediction" : predicted.error;
        points.push_back(std::move(c));
    }
    return points;
}

double expected_best_fraction(const std::vector<std::vector<double>>& groups, std::size_t picks, double optimum)
{
    double best = std::numeric_limits<double>::infinity(); // of the whole groups picked so far
    for (const auto& group : groups) {
        if (picks == 0)
            break;
        if (picks >= group.size()) {
            for (const double t : group)
                best = std::min(best, t);
            picks -= group.size();
            continue;
        }
        // r = picks of the g times of this group, uniformly: the best of them is the j-th
        // fastest with P_j = C(g-j, r-1) / C(g, r); P_1 = r/g, P_{j+1} = P_j (g-j-r+1)/(g-j).
        std::vector<double> sorted = group;
        std::sort(sorted.begin(), sorted.end());
        const double g = static_cast<double>(sorted.size()), r = static_cast<double>(picks);
        double expected = 0, p = r / g;
        for (std::size_t j = 1; j + picks <= sorted.size() + 1; ++j) {
            expected += p * optimum / std::min(best, sorted[j - 1]);
            p *= (g - static_cast<double>(j) - r + 1) / (g - static_cast<double>(j));
        }
        return expected;
    }
    return std::isinf(best) ? 0.0 : optimum / best;
}

namespace {

// The median and quartiles of `ratios`; none when there are none.
std::optional<TimeScale> time_scale(std::vector<double> ratios)
{
    if (ratios.empty())
        return std::nullopt;
    std::sort(ratios.begin(), ratios.end());
    return TimeScale{.median = percentile(ratios, 0.5),
                     .lower_quartile = percentile(ratios, 0.25),
                     .upper_quartile = percentile(ratios, 0.75),
                     .points = ratios.size()};
}

} // namespace

ModelCheck score_model(const std::vector<CheckedPoint>& points)
{
    ModelCheck m;
    m.points = points.size();
    std::vector<std::size_t> ran;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const CheckedPoint& c = points[p];
        const bool failed = !c.measured, predicted_fail = !c.predicted_failure.empty();
        m.measured_failures += failed;
        m.predicted_failures += predicted_fail;
        m.failures_agree += failed && predicted_fail;
        if (failed && !predicted_fail) {
            ++m.failures_only_measured;
            m.unpredicted.push_back(p);
        }
        if (!failed && predicted_fail) {
            ++m.failures_only_predicted;
            m.misses.push_back(p);
        }
        if (!failed)
            ran.push_back(p);
    }
    m.ran = ran.size();
    if (ran.empty())
        return m;
    double optimum = std::numeric_limits<double>::infinity();
    for (const std::size_t p : ran)
        optimum = std::min(optimum, *points[p].measured);

    // The model: predicted ones by their rank, one by one; the predicted failures last, tied.
    std::vector<std::size_t> by_rank, unranked;
    for (const std::size_t p : ran)
        (points[p].predicted_failure.empty() ? by_rank : unranked).push_back(p);
    std::sort(by_rank.begin(), by_rank.end(),
              [&](auto a, auto b) { return points[a].predicted_rank < points[b].predicted_rank; });
    std::vector<std::vector<double>> model_groups;
    std::pair<std::vector<double>, std::vector<double>> model_series, occupancy_series;
    for (const std::size_t p : by_rank) {
        model_groups.push_back({*points[p].measured});
        model_series.first.push_back(static_cast<double>(points[p].predicted_rank));
        model_series.second.push_back(*points[p].measured);
        occupancy_series.first.push_back(-points[p].occupancy.value_or(0));
        occupancy_series.second.push_back(*points[p].measured);
    }
    std::vector<double> last;
    for (const std::size_t p : unranked)
        last.push_back(*points[p].measured);
    if (!last.empty())
        model_groups.push_back(last);
    m.model = scores_of(model_groups, ran.size(), optimum, model_series);

    // Highest predicted occupancy first: a group per occupancy, the predicted failures last.
    std::vector<std::size_t> by_occupancy = by_rank;
    std::sort(by_occupancy.begin(), by_occupancy.end(),
              [&](auto a, auto b) { return points[a].occupancy.value_or(0) > points[b].occupancy.value_or(0); });
    std::vector<std::vector<double>> occupancy_groups;
    for (std::size_t k = 0; k < by_occupancy.size(); ++k) {
        const std::size_t p = by_occupancy[k];
        if (k == 0 || points[p].occupancy.value_or(0) != points[by_occupancy[k - 1]].occupancy.value_or(0))
            occupancy_groups.emplace_back();
        occupancy_groups.back().push_back(*points[p].measured);
    }
    if (!last.empty())
        occupancy_groups.push_back(last);
    m.occupancy_first = scores_of(occupancy_groups, ran.size(), optimum, occupancy_series);

    // Random: every point that ran in one group.
    std::vector<double> all;
    for (const std::size_t p : ran)
        all.push_back(*points[p].measured);
    m.random = scores_of({all}, ran.size(), optimum, std::nullopt);
    m.random.spearman = 0.0;

    // Of the points the model ranks: a predicted failure's time predicts nothing.
    const auto scale = [&](auto counted, auto predicted) -> std::optional<TimeScale> {
        std::vector<double> ratios;
        for (const std::size_t p : by_rank)
            if (const auto c = counted(points[p]), q = predicted(points[p]); c && q && *q > 0)
                ratios.push_back(*c / *q);
        return time_scale(std::move(ratios));
    };
    m.measured_over_predicted = scale([](const CheckedPoint& c) { return c.measured; },
                                      [](const CheckedPoint& c) { return c.predicted_seconds; });
    m.instructions_counted_over_predicted = scale([](const CheckedPoint& c) { return c.counted_instructions; },
                                                  [](const CheckedPoint& c) { return c.predicted_instructions; });
    m.dram_bytes_counted_over_predicted = scale([](const CheckedPoint& c) { return c.counted_dram_bytes; },
                                                [](const CheckedPoint& c) { return c.predicted_dram_bytes; });
    // One pass: each point's ratio goes to its group's list (no group: left out).
    const auto by_group = [&](auto group) {
        std::map<std::string, std::vector<double>> ratios;
        for (const std::size_t p : by_rank)
            if (const CheckedPoint& c = points[p]; c.measured && c.predicted_seconds && *c.predicted_seconds > 0)
                if (const std::string name = group(c); !name.empty())
                    ratios[name].push_back(*c.measured / *c.predicted_seconds);
        std::map<std::string, TimeScale> out;
        for (auto& [name, list] : ratios)
            if (const auto s = time_scale(std::move(list)))
                out.emplace(name, *s);
        return out;
    };
    m.measured_over_predicted_by_bound = by_group([](const CheckedPoint& c) { return c.predicted_bound; });
    m.measured_over_predicted_by_warps_per_scheduler = by_group([](const CheckedPoint& c) {
        if (!c.resident_warps || *c.resident_warps <= 0)
            return std::string();
        const int per_scheduler = (*c.resident_warps + 3) / 4; // 4 schedulers an SM, sm_70 on
        return std::string(per_scheduler <= 2 ? "1-2" : per_scheduler <= 4 ? "3-4" : per_scheduler <= 8 ? "5-8" : "9+");
    });
    // By each parameter's value: one pass over the points (a parameter may have as many
    // values as points).
    std::map<std::string, std::map<std::string, std::vector<double>>> ratios_by_parameter;
    for (const std::size_t p : by_rank)
        if (const CheckedPoint& c = points[p]; c.measured && c.predicted_seconds && *c.predicted_seconds > 0)
            for (const auto& [name, value] : c.parameters)
                ratios_by_parameter[name][value].push_back(*c.measured / *c.predicted_seconds);
    for (auto& [name, by_value] : ratios_by_parameter) {
        if (by_value.size() < 2)
            continue; // one value: nothing it sorts
        auto& scales = m.measured_over_predicted_by_parameter[name];
        for (auto& [value, ratios] : by_value)
            scales.emplace(value, *time_scale(std::move(ratios)));
    }
    return m;
}

std::optional<ParameterSpread> widest_parameter_spread(const ModelCheck& check, std::size_t min_points)
{
    std::optional<ParameterSpread> widest;
    for (const auto& [parameter, by_value] : check.measured_over_predicted_by_parameter) {
        double low = std::numeric_limits<double>::infinity(), high = 0;
        std::size_t values = 0;
        for (const auto& [value, scale] : by_value)
            if (scale.points >= min_points && scale.median > 0) {
                low = std::min(low, scale.median);
                high = std::max(high, scale.median);
                ++values;
            }
        if (values >= 2 && (!widest || high / low > widest->spread))
            widest = ParameterSpread{.parameter = parameter, .spread = high / low};
    }
    return widest;
}

} // namespace autotune
