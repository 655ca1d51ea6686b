// Sample statistics and the stopping rule: exact values on hand-computed sets, the median's
// noise by the order-statistic interval, its 1/√n shrinkage, robustness to an outlier, the
// three stop decisions, and the throttled-clock filter.
#include "measure/sample_statistics.hpp"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

constexpr double z95 = 1.959963984540054;

// Samples 1.0 ms with 1 % normal noise, seeded so the test is reproducible.
std::vector<double> noisy_samples(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 engine(seed);
    std::normal_distribution<double> normal(1e-3, 1e-5);
    std::vector<double> samples(n);
    for (double& s : samples)
        s = normal(engine);
    return samples;
}

std::vector<double> one_to(int n)
{
    std::vector<double> values;
    for (int i = n; i >= 1; --i) // descending: summarize_samples must sort
        values.push_back(i);
    return values;
}

std::string invalid_argument_message(const std::vector<double>& samples)
{
    try {
        (void)summarize_samples(samples);
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    ADD_FAILURE() << "no std::invalid_argument";
    return {};
}

// Odd count: the median is the middle element; percentiles by linear interpolation at
// 0-based position (n − 1)·p: p10 at 0.4 → 1.4, p90 at 3.6 → 4.6.
TEST(SampleStatistics, OddCountExactValues)
{
    const std::vector<double> samples{5, 1, 4, 2, 3};
    const SampleSummary s = summarize_samples(samples);
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 5);
    EXPECT_DOUBLE_EQ(s.mean, 3);
    EXPECT_DOUBLE_EQ(s.relative_spread, (4.6 - 1.4) / 3);
}

// Even count: the median averages the two middle elements; p10 at 0.3 → 1.3, p90 at 2.7 → 3.7.
TEST(SampleStatistics, EvenCountExactValues)
{
    const std::vector<double> samples{4, 1, 3, 2};
    const SampleSummary s = summarize_samples(samples);
    EXPECT_EQ(s.count, 4u);
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 4);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    EXPECT_DOUBLE_EQ(s.relative_spread, (3.7 - 1.3) / 2.5);
}

// Percentiles interpolate between, not snap to, order statistics: with 11 samples 0..100
// step 10, p10 and p90 land exactly on 10 and 90; with values 0 and 10 only, p10 = 1, p90 = 9.
TEST(SampleStatistics, PercentilesInterpolateLinearly)
{
    std::vector<double> decades;
    for (int i = 0; i <= 10; ++i)
        decades.push_back(10.0 * i);
    EXPECT_DOUBLE_EQ(summarize_samples(decades).relative_spread, (90.0 - 10.0) / 50.0);

    const std::vector<double> pair{10, 0};
    const SampleSummary s = summarize_samples(pair);
    EXPECT_DOUBLE_EQ(s.median, 5);
    EXPECT_DOUBLE_EQ(s.relative_spread, (9.0 - 1.0) / 5.0);
}

TEST(SampleStatistics, SingleSample)
{
    const std::vector<double> samples{2e-3};
    const SampleSummary s = summarize_samples(samples);
    EXPECT_EQ(s.count, 1u);
    EXPECT_DOUBLE_EQ(s.median, 2e-3);
    EXPECT_DOUBLE_EQ(s.min, 2e-3);
    EXPECT_DOUBLE_EQ(s.max, 2e-3);
    EXPECT_DOUBLE_EQ(s.mean, 2e-3);
    EXPECT_DOUBLE_EQ(s.relative_spread, 0);
    EXPECT_DOUBLE_EQ(s.median_noise, 0);
}

// Ranks r = n/2 − 1.96·√n/2 and s = 1 + n/2 + 1.96·√n/2, rounded; se = (x_(s) − x_(r)) / (2·1.96).
TEST(SampleStatistics, MedianNoiseFromOrderStatisticsByHand)
{
    // n = 10: r = 5 − 3.099 = 1.90 → 2, s = 6 + 3.099 = 9.10 → 9; x = rank; median 5.5.
    EXPECT_NEAR(summarize_samples(one_to(10)).median_noise, (9.0 - 2.0) / (2 * z95) / 5.5, 1e-12);
    // n = 25: r = 12.5 − 4.90 = 7.60 → 8, s = 13.5 + 4.90 = 18.40 → 18; median 13.
    EXPECT_NEAR(summarize_samples(one_to(25)).median_noise, (18.0 - 8.0) / (2 * z95) / 13.0, 1e-12);
    // n = 2: r = 1 − 1.39 → 0, clamped to 1; s = 2 + 1.39 = 3.39 → 3, clamped to 2; median 2.
    const std::vector<double> pair{3, 1};
    EXPECT_NEAR(summarize_samples(pair).median_noise, (3.0 - 1.0) / (2 * z95) / 2.0, 1e-12);
    // Identical samples: no noise at all.
    const std::vector<double> flat(50, 1e-3);
    EXPECT_DOUBLE_EQ(summarize_samples(flat).median_noise, 0);
}

// Median noise of n noisy samples, averaged over 20 seeds: one set's estimate scatters by
// tens of percent (it rests on two order statistics), and std::normal_distribution's
// output differs between standard libraries, so a single draw would test the seed.
double average_noise(std::size_t n)
{
    double sum = 0;
    for (std::uint64_t seed = 0; seed < 20; ++seed)
        sum += summarize_samples(noisy_samples(n, seed)).median_noise;
    return sum / 20;
}

// For normal samples the median's standard error is √(π/2)·σ/√n ≈ 1.2533·σ/√n: with 1 %
// sigma, 0.125 % at n = 100. The estimate must land near it and shrink as 1/√n.
TEST(SampleStatistics, MedianNoiseShrinksAsOneOverRootN)
{
    const double at_100 = average_noise(100);
    EXPECT_GT(at_100, 0.001);
    EXPECT_LT(at_100, 0.002);

    const double expected_scaled = std::sqrt(std::acos(-1.0) / 2) * 0.01; // noise·√n
    for (const std::size_t n : {100u, 400u, 1600u, 6400u})
        EXPECT_NEAR(average_noise(n) * std::sqrt(static_cast<double>(n)), expected_scaled, 0.2 * expected_scaled)
            << "n = " << n;
    // Sixteen times the samples, a quarter of the noise.
    const double ratio = at_100 / average_noise(1600);
    EXPECT_GT(ratio, 3.2);
    EXPECT_LT(ratio, 4.8);
}

// One preempted launch 1000× longer than the rest: the mean is ruined, the median and its
// noise hardly move.
TEST(SampleStatistics, OutlierBarelyMovesMedianAndNoise)
{
    std::vector<double> samples = noisy_samples(51, 3);
    const SampleSummary clean = summarize_samples(samples);
    samples.push_back(1.0); // 1 s among 1 ms samples
    const SampleSummary spoiled = summarize_samples(samples);

    EXPECT_NEAR(spoiled.median, clean.median, 0.005 * clean.median);
    EXPECT_NEAR(spoiled.median_noise, clean.median_noise, 0.5 * clean.median_noise);
    EXPECT_LT(spoiled.median_noise, 0.005);
    EXPECT_GT(spoiled.mean, 10 * clean.mean);
    EXPECT_DOUBLE_EQ(spoiled.max, 1.0);
}

TEST(SampleStatistics, ZeroMedianIsNotNaN)
{
    const std::vector<double> zeros(5, 0.0);
    const SampleSummary s = summarize_samples(zeros);
    EXPECT_DOUBLE_EQ(s.median, 0);
    EXPECT_DOUBLE_EQ(s.relative_spread, 0);
    EXPECT_DOUBLE_EQ(s.median_noise, 0);

    // A spread around a zero median is unboundedly noisy, so it never converges.
    const std::vector<double> mostly_zero{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    EXPECT_TRUE(std::isinf(summarize_samples(mostly_zero).median_noise));
}

TEST(SampleStatistics, RejectsInvalidSamplesNamingIndexAndValue)
{
    EXPECT_THROW((void)summarize_samples({}), std::invalid_argument);

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::string for_nan = invalid_argument_message({1e-3, 2e-3, nan});
    EXPECT_THAT(for_nan, HasSubstr("sample 2"));
    EXPECT_THAT(for_nan, HasSubstr("nan"));
    const std::string for_inf = invalid_argument_message({inf, 1e-3});
    EXPECT_THAT(for_inf, HasSubstr("sample 0"));
    EXPECT_THAT(for_inf, HasSubstr("inf"));
    const std::string for_negative = invalid_argument_message({1e-3, -0.25, 1e-3});
    EXPECT_THAT(for_negative, HasSubstr("sample 1"));
    EXPECT_THAT(for_negative, HasSubstr("-0.25"));
}

TEST(StoppingRule, TimeLimitEvenWithFewSamples)
{
    const StoppingRule rule; // max_seconds 5
    const std::vector<double> two{1e-3, 1e-3};
    EXPECT_EQ(should_stop(rule, two, 5.0), StopDecision::time_limit);
    EXPECT_EQ(should_stop(rule, two, 7.5), StopDecision::time_limit);
    EXPECT_EQ(should_stop(rule, {}, 5.0), StopDecision::time_limit);
    EXPECT_EQ(should_stop(rule, two, 4.99), StopDecision::keep_going);
}

TEST(StoppingRule, ConvergesOnceCountTimeAndNoiseAllSuffice)
{
    const StoppingRule rule; // 1 % noise, 10 samples, 0.05 s
    const std::vector<double> samples = noisy_samples(100, 4); // 0.1 s, ~0.13 % noise
    EXPECT_EQ(should_stop(rule, samples, 0.5), StopDecision::converged);

    // Exactly min_samples is enough.
    const std::vector<double> ten(10, 0.01);
    EXPECT_EQ(should_stop(rule, ten, 0.5), StopDecision::converged);

    // The noise threshold is inclusive: noise exactly at it converges.
    StoppingRule exact = rule;
    exact.max_median_noise = 0;
    EXPECT_EQ(should_stop(exact, ten, 0.5), StopDecision::converged);
    exact.max_median_noise = summarize_samples(samples).median_noise;
    EXPECT_EQ(should_stop(exact, samples, 0.5), StopDecision::converged);
}

TEST(StoppingRule, KeepsGoingBelowMinimumSamples)
{
    const StoppingRule rule;
    const std::vector<double> nine(9, 0.01); // 0.09 s, zero noise, but one short
    EXPECT_EQ(should_stop(rule, nine, 0.5), StopDecision::keep_going);
    EXPECT_EQ(should_stop(rule, {}, 0.5), StopDecision::keep_going);
}

TEST(StoppingRule, KeepsGoingBelowMinimumTime)
{
    const StoppingRule rule;                   // min_seconds 0.05
    const std::vector<double> ten(10, 1e-6);   // 10 µs of kernel time, zero noise
    EXPECT_EQ(should_stop(rule, ten, 0.01), StopDecision::keep_going);
}

TEST(StoppingRule, KeepsGoingWhileNoisy)
{
    const StoppingRule rule;
    // 1..20 ms: median 10.5 ms, ranks 6 and 16 → se = 10 ms / 3.92, noise ≈ 24 %.
    std::vector<double> noisy;
    for (int i = 1; i <= 20; ++i)
        noisy.push_back(1e-3 * i);
    EXPECT_EQ(should_stop(rule, noisy, 1.0), StopDecision::keep_going);

    StoppingRule lax = rule;
    lax.max_median_noise = 0.5;
    EXPECT_EQ(should_stop(lax, noisy, 1.0), StopDecision::converged);
}

TEST(ThrottledSamples, BelowFractionOfHighestClock)
{
    // 0.95 × 1980 = 1881: 1881 is kept, 1880 is throttled.
    const std::vector<double> clocks{1980, 1881, 1880, 1500, 1980};
    EXPECT_EQ(throttled_samples(clocks), (std::vector<bool>{false, false, true, true, false}));
    EXPECT_EQ(throttled_samples(clocks, 0.75), (std::vector<bool>{false, false, false, false, false}));
    EXPECT_EQ(throttled_samples(clocks, 0.76), (std::vector<bool>{false, false, false, true, false}));
}

TEST(ThrottledSamples, EmptyInputGivesEmptyOutput)
{
    EXPECT_TRUE(throttled_samples({}).empty());
}

TEST(ThrottledSamples, FailedReadingsAreThrottledAndIgnoredForTheMaximum)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> clocks{1800, 0, -1, nan, inf, 1790};
    EXPECT_EQ(throttled_samples(clocks), (std::vector<bool>{false, true, true, true, true, false}));

    const std::vector<double> all_failed{0, -3};
    EXPECT_EQ(throttled_samples(all_failed), (std::vector<bool>{true, true}));
}

} // namespace
