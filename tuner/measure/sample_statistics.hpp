// Statistics of timing samples and the rule that decides when a variant has been timed
// enough: the relative standard error of the median below a threshold, with a minimum
// sample count and minimum time, or a per-variant time limit.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace autotune {

struct SampleSummary {
    std::size_t count = 0;
    double median = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    // (90th percentile − 10th percentile) / median: how wide the bulk of the samples is.
    double relative_spread = 0;
    // Estimated standard error of the median, relative to the median (distribution-free,
    // from the order statistics around the median): the noise of the reported number.
    double median_noise = 0;
};

// Percentile p ∈ [0, 1] of ascending, non-empty `sorted`, interpolated between the two
// nearest order statistics (Hyndman & Fan type 7, numpy's default); p = 0.5: the median.
[[nodiscard]] double percentile(std::span<const double> sorted, double p);

// Throws std::invalid_argument for an empty set or a non-finite or negative sample.
[[nodiscard]] SampleSummary summarize_samples(std::span<const double> samples);

struct StoppingRule {
    double max_median_noise = 0.01; // 1 %
    std::size_t min_samples = 10;
    double min_seconds = 0.05;      // measured kernel time, summed over samples
    double max_seconds = 5.0;       // wall time spent on the variant (warm-up and flushes included)
};

enum class StopDecision { keep_going, converged, time_limit };

// `elapsed_seconds` is the wall time spent on the variant so far.
[[nodiscard]] StopDecision should_stop(const StoppingRule& rule, std::span<const double> samples_seconds,
                                       double elapsed_seconds);

// Which samples were taken at a clock below `fraction` of the highest clock seen in the
// same run (a throttled SM): true = discard. clocks_mhz[i] belongs to sample i.
[[nodiscard]] std::vector<bool> throttled_samples(std::span<const double> clocks_mhz, double fraction = 0.95);

} // namespace autotune
