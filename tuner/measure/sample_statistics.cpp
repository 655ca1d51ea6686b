#include "measure/sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace autotune {

namespace {

// Two-sided 95 % quantile of the standard normal distribution.
constexpr double z95 = 1.959963984540054;

// The 1-based order statistic of rank `rank` rounded to the nearest integer and clamped to
// [1, n]: small sets reach past their ends.
double order_statistic(std::span<const double> sorted, double rank)
{
    const double clamped = std::clamp(std::round(rank), 1.0, static_cast<double>(sorted.size()));
    return sorted[static_cast<std::size_t>(clamped) - 1];
}

// Standard error of the median, distribution-free. The number of samples below the true
// median is Binomial(n, 1/2); its normal approximation gives the ~95 % confidence interval
// of the median as the order statistics of ranks
//     r = n/2 − z·√n/2   and   s = 1 + n/2 + z·√n/2   (z = 1.96, rounded to nearest),
// (Campbell & Gardner, "Calculating confidence intervals for some non-parametric analyses",
// BMJ 296:1454, 1988; Conover, Practical Nonparametric Statistics, the quantile test). That
// interval spans about ±z standard errors, so se ≈ (x_(s) − x_(r)) / (2·z). Unlike the
// standard deviation it ignores the tails, so a few preempted launches do not inflate it.
// One sample gives r = s = 1 and se = 0: the stopping rule's min_samples must guard that.
double median_standard_error(std::span<const double> sorted)
{
    const double n = static_cast<double>(sorted.size());
    const double half_width = z95 * std::sqrt(n) / 2;
    const double lower = order_statistic(sorted, n / 2 - half_width);
    const double upper = order_statistic(sorted, 1 + n / 2 + half_width);
    return (upper - lower) / (2 * z95);
}

// x / median, where a zero median (a kernel too short for the timer) makes any spread
// infinitely noisy rather than NaN, so that it never passes a threshold.
double relative_to(double x, double median)
{
    if (median > 0)
        return x / median;
    return x == 0 ? 0 : std::numeric_limits<double>::infinity();
}

} // namespace

// At 0-based position h = (n − 1)·p: x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]).
double percentile(std::span<const double> sorted, double p)
{
    const double h = static_cast<double>(sorted.size() - 1) * p;
    const auto below = static_cast<std::size_t>(h);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

SampleSummary summarize_samples(std::span<const double> samples)
{
    if (samples.empty())
        throw std::invalid_argument("summarize_samples: no samples");
    for (std::size_t i = 0; i < samples.size(); ++i)
        if (!std::isfinite(samples[i]) || samples[i] < 0)
            throw std::invalid_argument(fmt::format(
                "summarize_samples: sample {} is {}; samples must be finite and non-negative", i, samples[i]));

    std::vector<double> sorted(samples.begin(), samples.end());
    std::ranges::sort(sorted);

    SampleSummary summary;
    summary.count = sorted.size();
    summary.median = percentile(sorted, 0.5);
    summary.min = sorted.front();
    summary.max = sorted.back();
    summary.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    summary.relative_spread = relative_to(percentile(sorted, 0.9) - percentile(sorted, 0.1), summary.median);
    summary.median_noise = relative_to(median_standard_error(sorted), summary.median);
    return summary;
}

StopDecision should_stop(const StoppingRule& rule, std::span<const double> samples_seconds, double elapsed_seconds)
{
    // The time limit wins over everything, as nvbench's timeout does: a variant too slow
    // or too noisy to converge must not stall the whole run.
    if (elapsed_seconds >= rule.max_seconds)
        return StopDecision::time_limit;
    if (samples_seconds.empty() || samples_seconds.size() < rule.min_samples)
        return StopDecision::keep_going;
    // Minimum measured time, as nvbench's min-time: many samples of a very short kernel can
    // look converged while the GPU has not yet reached its steady clocks.
    if (std::accumulate(samples_seconds.begin(), samples_seconds.end(), 0.0) < rule.min_seconds)
        return StopDecision::keep_going;
    return summarize_samples(samples_seconds).median_noise <= rule.max_median_noise ? StopDecision::converged
                                                                                    : StopDecision::keep_going;
}

std::vector<bool> throttled_samples(std::span<const double> clocks_mhz, double fraction)
{
    // Zero, negative or non-finite clocks are failed readings: never trusted, and kept out
    // of the maximum so that one bogus reading cannot mark every sample throttled.
    const auto valid = [](double clock) { return std::isfinite(clock) && clock > 0; };
    double highest = 0;
    for (const double clock : clocks_mhz)
        if (valid(clock))
            highest = std::max(highest, clock);

    std::vector<bool> throttled;
    throttled.reserve(clocks_mhz.size());
    for (const double clock : clocks_mhz)
        throttled.push_back(!valid(clock) || clock < fraction * highest);
    return throttled;
}

} // namespace autotune
