// Ranking on hand-made measurement sets: by fraction of the roof, ties by spread and
// registers, a wrong result never wins, and the model's quality is reported.
#include "rank/rank_problem.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

struct Set {
    KernelSpec spec;
    Problem problem;
    std::vector<Variant> variants;
    std::vector<CompiledVariant> compiled;
    std::vector<PredictionOutcome> predictions;
    std::vector<std::optional<VariantMeasurement>> measurements;

    Set()
    {
        spec.problem = {{"N", 1 << 20}};
        spec.cost = {"2 * N", "8 * N", Precision::fp32};
        problem.values = {{"N", 1 << 20}};
    }
    // One variant: registers, the model's occupancy, and a measurement (status, median, spread).
    void add(int registers, int active_warps, std::optional<double> seconds, std::string status = "ok",
             double spread = 0.01)
    {
        Variant v;
        v.index = variants.size();
        v.block = {256, 1, 1};
        v.grid = {1200, 1, 1}; // whole waves for 1 to 4 blocks per SM on 100 SMs
        variants.push_back(v);
        CompiledVariant c;
        c.status = CompileStatus::ok;
        c.resources.registers = registers;
        compiled.push_back(c);
        PredictionOutcome p;
        p.prediction = VariantPrediction{};
        p.prediction->occupancy.active_warps = active_warps;
        p.prediction->occupancy.blocks_per_sm = std::max(1, active_warps / 4);
        predictions.push_back(p);
        if (!seconds) {
            measurements.emplace_back();
            return;
        }
        VariantMeasurement m;
        m.status = status;
        Measurement x;
        x.verified = status == "ok";
        x.time.median = *seconds;
        x.time.relative_spread = spread;
        x.sm_clock_mhz = 1000;
        m.measurement = x;
        measurements.emplace_back(m);
    }
    ProblemRanking rank()
    {
        RankInputs in;
        in.spec = &spec;
        in.problem = &problem;
        in.variants = &variants;
        in.compiled = &compiled;
        in.predictions = &predictions;
        in.measurements = &measurements;
        in.ceilings = Ceilings{10e3, 1e3, 1000, "test"};
        in.sms = 100;
        return rank_problem(in);
    }
};

TEST(RankProblem, FastestVerifiedVariantWinsAndAWrongResultNeverDoes)
{
    Set s;
    s.add(32, 64, 20e-6);
    s.add(32, 64, 5e-6, "wrong_result"); // fastest, but wrong
    s.add(32, 64, 10e-6);
    s.add(32, 64, std::nullopt);         // not measured
    const ProblemRanking r = s.rank();
    EXPECT_TRUE(r.measured);
    ASSERT_TRUE(r.winner.has_value());
    EXPECT_EQ(*r.winner, 2u);
    EXPECT_EQ(r.variants[2].rank, 1u);
    EXPECT_EQ(r.variants[0].rank, 2u);
    EXPECT_EQ(r.variants[1].rank, 0u);
    EXPECT_EQ(r.variants[3].rank, 0u);
    // 8 MiB at 1 TB/s is 8.4 µs on the roof: 10 µs is 84%.
    EXPECT_NEAR(*r.variants[2].roofline_fraction, 8.0 * (1 << 20) / 1e12 / 10e-6, 1e-9);
    EXPECT_NEAR(*r.variants[2].gbps, 8.0 * (1 << 20) / 10e-6 / 1e9, 1e-9);
}

TEST(RankProblem, TiesGoToTheLowerSpreadThenFewerRegisters)
{
    Set s;
    s.add(64, 64, 10e-6, "ok", 0.05);
    s.add(64, 64, 10e-6, "ok", 0.01);
    s.add(40, 64, 10e-6, "ok", 0.01);
    EXPECT_EQ(*s.rank().winner, 2u);
}

TEST(RankProblem, WithoutMeasurementsTheModelRanksAndSaysSo)
{
    Set s;
    s.add(32, 8, std::nullopt);  // 2 warps per scheduler: half the model's occupancy factor
    s.add(32, 16, std::nullopt);
    const ProblemRanking r = s.rank();
    EXPECT_FALSE(r.measured);
    EXPECT_EQ(*r.winner, 1u);
    EXPECT_DOUBLE_EQ(r.variants[0].predicted_fraction * 2, r.variants[1].predicted_fraction);
    EXPECT_FALSE(r.spearman.has_value());
    EXPECT_FALSE(r.variants[1].roofline_fraction.has_value());
}

TEST(RankProblem, ReportsHowWellTheModelRankedTheMeasurements)
{
    Set s; // the model prefers more warps; the measurements agree exactly
    s.add(32, 4, 40e-6);
    s.add(32, 8, 30e-6);
    s.add(32, 12, 20e-6);
    s.add(32, 16, 10e-6);
    ProblemRanking r = s.rank();
    ASSERT_TRUE(r.spearman.has_value());
    EXPECT_NEAR(*r.spearman, 1.0, 1e-12);
    EXPECT_EQ(r.measured_winner_predicted_rank, 1u);

    Set reversed; // the model prefers more warps; the measurements say the opposite
    reversed.add(32, 4, 10e-6);
    reversed.add(32, 8, 20e-6);
    reversed.add(32, 12, 30e-6);
    reversed.add(32, 16, 40e-6);
    r = reversed.rank();
    EXPECT_NEAR(*r.spearman, -1.0, 1e-12);
    EXPECT_EQ(r.measured_winner_predicted_rank, 4u);
}

TEST(RankProblem, SpearmanHandlesTiesAndRefusesDegenerateInput)
{
    EXPECT_NEAR(*spearman_correlation({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0, 1e-12);
    EXPECT_NEAR(*spearman_correlation({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486833, 1e-6);
    EXPECT_FALSE(spearman_correlation({1, 2}, {1, 2}).has_value());
    EXPECT_FALSE(spearman_correlation({1, 1, 1}, {1, 2, 3}).has_value());
}

} // namespace

namespace {

// A variant the time model ranks: 256 threads, 4 blocks per SM, whole waves on 100 SMs.
RankFacts timed_facts(int registers, double integer_per_warp)
{
    RankFacts f;
    f.predicted = true;
    f.resources.registers = registers;
    f.threads_per_block = 256;
    f.grid_blocks = 1200;
    f.occupancy.active_warps = 32;
    f.occupancy.blocks_per_sm = 4;
    WarpWork w;
    w.issue = integer_per_warp;
    w.integer = integer_per_warp;
    w.latency_cycles = 100;
    f.warp_work = w;
    return f;
}

TEST(RankProblem, PredictedTimesThatTieGoToTheVariantThatAsksLessOfEveryOtherUnit)
{
    // Both wait for the same 8 MiB at 1 TB/s (8.4 µs); the SM-side terms are far below
    // that, and the second variant's are smaller although it uses more registers.
    const std::vector<RankFacts> facts{timed_facts(32, 40), timed_facts(64, 20)};
    const ProblemRanking r = rank_facts(facts, 2.0 * (1 << 20), 8.0 * (1 << 20), Ceilings{10e3, 1e3, 1000, "test"},
                                        100, 86);
    ASSERT_TRUE(r.variants[0].predicted_time.has_value());
    ASSERT_TRUE(r.variants[1].predicted_time.has_value());
    EXPECT_EQ(r.variants[0].predicted_time->bound, "dram");
    EXPECT_DOUBLE_EQ(r.variants[0].predicted_time->seconds, r.variants[1].predicted_time->seconds);
    EXPECT_EQ(r.variants[1].predicted_rank, 1u);
    EXPECT_EQ(r.variants[0].predicted_rank, 2u);
}

TEST(RankProblem, TheTieRuleWeighsTheUnitsNotThePhasesMadeOfThem)
{
    // Both wait for the same bytes. The first asks less of every unit (20 integer slots a
    // warp against 30), in two phases split by a barrier; its "phases" term (the parts'
    // bounds added) is not another unit's demand and must not count against it.
    RankFacts phased = timed_facts(32, 20);
    WarpCounts half;
    half.issue = 10;
    half.integer = 10;
    half.latency_cycles = 50;
    phased.warp_work->phases = {half, half};
    const std::vector<RankFacts> facts{timed_facts(32, 30), phased};
    const ProblemRanking r = rank_facts(facts, 2.0 * (1 << 20), 8.0 * (1 << 20), Ceilings{10e3, 1e3, 1000, "test"},
                                        100, 86);
    ASSERT_TRUE(r.variants[1].predicted_time.has_value());
    EXPECT_EQ(r.variants[1].predicted_time->bound, "dram");
    EXPECT_EQ(r.variants[1].predicted_time->phase_bounds, (std::vector<std::string>{"integer", "integer"}));
    EXPECT_DOUBLE_EQ(r.variants[0].predicted_time->seconds, r.variants[1].predicted_time->seconds);
    EXPECT_EQ(r.variants[1].predicted_rank, 1u);
    EXPECT_EQ(r.variants[0].predicted_rank, 2u);
}

TEST(RankProblem, DynamicSharedMemoryLeavesLessL1ForLocalMemory)
{
    // 4 blocks of 256 threads with a 96-byte stack each: 96 KB of frames. Beside no shared
    // memory they fit sm_86's 128 KB L1; beside 4 x 24 KB of dynamic shared memory only 32
    // KB is left, and the local loads that miss wait for L2: the same variant is slower.
    auto with_stack = [](std::int64_t dynamic_shared) {
        RankFacts f = timed_facts(32, 40);
        f.resources.stack_frame = 96;
        f.dynamic_shared_bytes = dynamic_shared;
        f.warp_work->local_loads = 200;
        f.warp_work->local_wavefronts = 200;
        return f;
    };
    const std::vector<RankFacts> facts{with_stack(0), with_stack(24 * 1024)};
    const ProblemRanking r = rank_facts(facts, 2.0 * (1 << 20), 8.0 * (1 << 20), Ceilings{10e3, 1e3, 1000, "test"},
                                        100, 86);
    ASSERT_TRUE(r.variants[0].predicted_time.has_value());
    ASSERT_TRUE(r.variants[1].predicted_time.has_value());
    const auto latency = [](const TimePrediction& p) {
        for (const TimeTerm& t : p.terms)
            if (t.name == "latency")
                return t.seconds;
        return 0.0;
    };
    EXPECT_GT(latency(*r.variants[1].predicted_time), latency(*r.variants[0].predicted_time));
}

} // namespace
