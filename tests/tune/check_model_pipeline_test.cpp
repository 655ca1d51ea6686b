// check-model's part of the pipeline driven from C++, without the command line: the copy
// kernel's variants compiled and predicted (predict_problem), joined to measurements whose
// times follow the model's own order (every score 1) or its reverse (known by hand).
#include "compile/compiled_variant.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"
#include "support/tune_setup.hpp"
#include "tune/model_check.hpp"

#include <gtest/gtest.h>

using namespace autotune;
using json = nlohmann::ordered_json;

namespace {

class CheckModelPipeline : public ::testing::Test {
protected:
    void SetUp() override
    {
        setup = test::predicting_setup(spec, "sm_80", dir.path() / "cache");
        for (const int block : {128, 256, 512})
            for (const int vec : {1, 4})
                file.configurations.push_back({json{{"BLOCK", block}, {"VEC", vec}, {"ITEMS", 1}, {"MAX_THREADS", 0},
                                                    {"MIN_BLOCKS", 0}, {"MAXRREGCOUNT", 0}},
                                               1e-3, ""});
        file.parameters = {"BLOCK", "VEC", "ITEMS", "MAX_THREADS", "MIN_BLOCKS", "MAXRREGCOUNT"};
    }

    test::TempDir dir;
    KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    Problem problem = resolve_problem(spec, {});
    TuneSetup setup;
    MeasuredFile file;
};

} // namespace

TEST_F(CheckModelPipeline, TimesInTheModelsOrderScoreOneAndTheReverseScoresByHand)
{
    const MeasuredJoin join = join_measured(spec, problem, file, "hand-made");
    ASSERT_EQ(join.variants.size(), 6u);
    std::vector<std::string> phases;
    setup.progress.phase = [&phases](const std::string& label) { phases.push_back(label); };
    const TuningRun run = predict_problem(setup, problem, join.variants);
    EXPECT_EQ(phases.size(), 1u); // compiling
    EXPECT_TRUE(run.measurements.empty() || !run.measurements.front());
    std::vector<CheckedPoint> points = checked_points(join, run);
    ASSERT_EQ(points.size(), 6u);
    for (const auto& p : points) {
        EXPECT_EQ(p.predicted_failure, "");
        EXPECT_GE(p.predicted_rank, 1u);
        EXPECT_LE(p.predicted_rank, 6u);
        EXPECT_TRUE(p.registers && p.occupancy);
        ASSERT_TRUE(p.predicted_seconds);
        EXPECT_GT(*p.predicted_seconds, 0.0);
    }

    for (auto& p : points)
        p.measured = static_cast<double>(p.predicted_rank) * 1e-3;
    const ModelCheck perfect = score_model(points);
    ASSERT_TRUE(perfect.measured_over_predicted);
    EXPECT_EQ(perfect.measured_over_predicted->points, 6u);
    EXPECT_GT(perfect.measured_over_predicted->median, 0.0);
    EXPECT_DOUBLE_EQ(*perfect.model.spearman, 1.0);
    EXPECT_DOUBLE_EQ(*perfect.model.top1_fraction, 1.0);
    EXPECT_DOUBLE_EQ(*perfect.model.best_in_top_5pct, 1.0);
    // Random over 1..6 ms: the mean of 1/k.
    EXPECT_NEAR(*perfect.random.top1_fraction, (1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 6, 1e-12);

    for (auto& p : points)
        p.measured = static_cast<double>(7 - p.predicted_rank) * 1e-3;
    const ModelCheck reversed = score_model(points);
    EXPECT_DOUBLE_EQ(*reversed.model.spearman, -1.0);
    EXPECT_DOUBLE_EQ(*reversed.model.top1_fraction, 1.0 / 6.0);
    EXPECT_DOUBLE_EQ(*reversed.model.best_in_top_1pct, 1.0 / 6.0);
}

TEST_F(CheckModelPipeline, ACompileStoppedAtALimitIsAPredictedFailureNamedByItsStatus)
{
    const MeasuredJoin join = join_measured(spec, problem, file, "hand-made");
    TuningRun run = predict_problem(setup, problem, join.variants);
    run.compiled[0].status = CompileStatus::compile_timeout;
    run.compiled[0].error = "the compile did not finish within 300 s (--compile-timeout)";
    run.compiled[1].status = CompileStatus::compile_out_of_memory;
    run.compiled[1].error = "out of memory (limit 4 GiB per compile): catastrophic error: out of memory";
    std::vector<CheckedPoint> points = checked_points(join, run);
    EXPECT_EQ(points[0].predicted_failure, "compile_timeout: the compile did not finish within 300 s (--compile-timeout)");
    EXPECT_EQ(points[1].predicted_failure.rfind("compile_out_of_memory: ", 0), 0u) << points[1].predicted_failure;
    points[0].measured.reset(); // Kernel Tuner could not compile it either
    const ModelCheck check = score_model(points);
    EXPECT_EQ(check.predicted_failures, 2u);
    EXPECT_EQ(check.failures_agree, 1u);
    EXPECT_EQ(check.failures_only_predicted, 1u);
}
