#include "strategy/improvement_pick.hpp"

#include "strategy/capped_times.hpp"
#include "strategy/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace autotune {
namespace {

// Chosen with the cadence (docs/search-benchmark.md): one length scale for the unit cube,
// so a point one whole parameter range away keeps about half the correlation; noise for
// the rounding only (replayed times repeat exactly; a GPU's repeat within a percent or two,
// which standardised targets make a few thousandths); a margin of 1 % of the spread.
constexpr double length_scale = 1.0;
constexpr double noise = 1e-3;
constexpr double margin = 0.01;

// Trace indices to fit on: all of them, or the fastest max_points / 2 measured and the most
// recent of the rest (failed ones included) up to max_points. The exact process costs the
// cube of its size; the fast points say where the optimum is, the recent ones where the
// search stands.
std::vector<std::size_t> fitted_entries(const SearchTrace& trace, std::size_t max_points)
{
    std::vector<std::size_t> all(trace.evaluated.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    if (all.size() <= max_points)
        return all;
    std::vector<std::size_t> timed;
    for (const std::size_t i : all)
        if (trace.times[i])
            timed.push_back(i);
    const std::size_t fast = std::min(timed.size(), max_points / 2);
    std::partial_sort(timed.begin(), timed.begin() + static_cast<std::ptrdiff_t>(fast), timed.end(),
                      [&](std::size_t a, std::size_t b) { return *trace.times[a] < *trace.times[b]; });
    std::vector<bool> chosen(all.size(), false);
    for (std::size_t i = 0; i < fast; ++i)
        chosen[timed[i]] = true;
    std::size_t count = fast;
    for (std::size_t i = all.size(); i-- > 0 && count < max_points;)
        if (!chosen[i]) {
            chosen[i] = true;
            ++count;
        }
    std::vector<std::size_t> out;
    for (const std::size_t i : all)
        if (chosen[i])
            out.push_back(i);
    return out;
}

} // namespace

std::optional<std::size_t> most_expected_improvement(const SearchRun& run, const SpaceGeometry& geometry,
                                                     const std::vector<std::size_t>& candidates, std::size_t max_points)
{
    const SearchTrace& trace = run.trace();
    std::vector<std::vector<double>> inputs;
    std::vector<double> targets;
    std::vector<std::size_t> failed;
    for (const std::size_t i : fitted_entries(trace, std::max<std::size_t>(max_points, 2)))
        if (trace.times[i]) {
            inputs.push_back(geometry.unit_position(trace.evaluated[i]));
            targets.push_back(std::log(std::max(*trace.times[i], 1e-300)));
        } else
            failed.push_back(trace.evaluated[i]);
    if (targets.size() < 2 || candidates.empty())
        return std::nullopt;
    cap_at_median(targets);
    const double cap = *std::max_element(targets.begin(), targets.end());
    for (const std::size_t p : failed) {
        inputs.push_back(geometry.unit_position(p));
        targets.push_back(cap);
    }

    const double mean = std::accumulate(targets.begin(), targets.end(), 0.0) / static_cast<double>(targets.size());
    double spread = 0;
    for (const double t : targets)
        spread += (t - mean) * (t - mean);
    spread = std::sqrt(spread / static_cast<double>(targets.size()));
    if (!(spread > 0))
        spread = 1;
    for (double& t : targets)
        t = (t - mean) / spread;
    const double best = *std::min_element(targets.begin(), targets.end());

    const GaussianProcess process(std::move(inputs), targets, length_scale, noise);
    std::optional<std::size_t> pick;
    double most = -1;
    for (const std::size_t p : candidates)
        if (const double gain = expected_improvement(process.predict(geometry.unit_position(p)), best, margin);
            gain > most) {
            most = gain;
            pick = p;
        }
    return pick;
}

} // namespace autotune
