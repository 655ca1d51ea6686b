// --lazy-compile driven from C++: the copy kernel's space searched on a "GPU" that is a
// scripted worker. Only the variants the search proposes are compiled; each is measured
// once; without a GPU the predictions need, and get, every variant compiled.
#include "spec/load_spec.hpp"
#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"
#include "support/tune_setup.hpp"
#include "tune/lazy_search.hpp"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <set>

using namespace autotune;

namespace {

class LazyCompile : public ::testing::Test {
protected:
    void SetUp() override
    {
        // Faster for a higher variant index.
        std::ofstream(dir.path() / "worker.sh") << test::answering_worker("1.0 / (1000 + $v)");
        setup = test::predicting_setup(spec, "sm_80", dir.path() / "cache");
        setup.search.strategy = "random";
        setup.search.budget.max_evaluations = 4;
        setup.lazy_compile = true;
    }
    void give_a_gpu() { test::give_scripted_gpu(setup, dir.path()); }
    std::size_t jobs_asked() const
    {
        const std::string log = test::read_file(dir.path() / "asked.txt");
        return static_cast<std::size_t>(std::count(log.begin(), log.end(), '\n'));
    }

    test::TempDir dir;
    KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    Problem problem = resolve_problem(spec, {});
    TuneSetup setup;
};

} // namespace

TEST_F(LazyCompile, WithAGpuOnlyTheSearchsProposalsAreCompiledAndEachIsMeasured)
{
    give_a_gpu();
    const std::size_t space = checked_space(setup, problem).variants.size();
    ASSERT_GT(space, 8u);
    const TuningRun run = tune_problem(setup, problem);

    ASSERT_TRUE(run.search.has_value());
    EXPECT_TRUE(run.search->compiled_lazily);
    EXPECT_EQ(run.search->candidates, space);
    EXPECT_EQ(run.search->evaluations, 4u);
    // The run holds what was compiled: the four proposals (the launch-bound sweep is off,
    // the consumer build is nvcc's and separate), in enumeration order, each measured.
    ASSERT_EQ(run.variants.size(), 4u);
    ASSERT_EQ(run.compiled.size(), 4u);
    ASSERT_EQ(run.measurements.size(), 4u);
    EXPECT_TRUE(std::is_sorted(run.variants.begin(), run.variants.end(),
                               [](const Variant& a, const Variant& b) { return a.index < b.index; }));
    std::set<std::size_t> measured;
    for (std::size_t i = 0; i < run.variants.size(); ++i) {
        EXPECT_EQ(run.compiled[i].status, CompileStatus::ok) << run.compiled[i].error;
        ASSERT_TRUE(run.measurements[i].has_value()) << "variant " << run.variants[i].index;
        EXPECT_EQ(run.measurements[i]->status, "ok");
        if (!run.pruning.decisions[i].duplicate_of)
            measured.insert(run.variants[i].index);
    }
    // One job per distinct run of the four, and the consumer builds' re-measurements
    // (at most consumer_builds_checked = 3) on top.
    EXPECT_GE(jobs_asked(), measured.size());
    EXPECT_LE(jobs_asked(), measured.size() + 3);
    ASSERT_TRUE(run.ranking.has_value());
}

TEST_F(LazyCompile, TheWholeSpacePathCompilesEveryVariantForTheSameBudget)
{
    give_a_gpu();
    const TuningRun lazy = tune_problem(setup, problem);
    setup.lazy_compile = false;
    std::filesystem::remove(dir.path() / "journal.jsonl"); // measure again, not resume
    const TuningRun whole = tune_problem(setup, problem);
    ASSERT_TRUE(whole.search.has_value());
    EXPECT_FALSE(whole.search->compiled_lazily);
    const std::size_t space = checked_space(setup, problem).variants.size();
    EXPECT_EQ(whole.variants.size(), space);
    EXPECT_EQ(lazy.variants.size(), 4u);
    EXPECT_EQ(lazy.search->evaluations, whole.search->evaluations);
    std::size_t whole_measured = 0;
    for (const auto& m : whole.measurements)
        whole_measured += m.has_value() ? 1 : 0;
    EXPECT_GE(whole_measured, 1u);
    EXPECT_LT(whole_measured, space); // the budget held there too
}

TEST_F(LazyCompile, WithoutAGpuEveryVariantIsCompiledForItsPrediction)
{
    const TuningRun run = tune_problem(setup, problem);
    EXPECT_FALSE(run.search.has_value());
    EXPECT_EQ(run.variants.size(), checked_space(setup, problem).variants.size());
    for (const auto& c : run.compiled)
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
}

TEST_F(LazyCompile, TheModelStrategyWithoutAPriorIsRefusedBeforeAnythingIsCompiled)
{
    give_a_gpu();
    setup.search.strategy = "model";
    EXPECT_THROW((void)tune_problem(setup, problem), std::invalid_argument);
    EXPECT_EQ(jobs_asked(), 0u);
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "cache") && !std::filesystem::is_empty(dir.path() / "cache"));
    setup.search.strategy = "exhaustive";
    EXPECT_THROW((void)tune_problem(setup, problem), std::invalid_argument);
    setup.search.strategy = "forest";
    EXPECT_NO_THROW(check_lazy_search(setup.search));
}

// Each proposal is compiled when the search makes it, one at a time: in a compile worker
// (the limits name one), the same worker serves them all, NVRTC loaded once per search.
TEST_F(LazyCompile, OneCompileWorkerServesEveryProposal)
{
    give_a_gpu();
    setup.compile.limits.worker_argv = {test::autotune_binary().string(), "compile-worker"};
    setup.compile.cache_dir.reset(); // every proposal compiles
    const std::vector<Variant> space = checked_space(setup, problem).variants;
    VariantMeasurer measurer(spec, problem, setup.measure);
    const LazySearchOutcome out = search_compiling_lazily(setup, problem, space, measurer);
    EXPECT_EQ(out.evaluations, 4u);
    for (const auto& c : out.compiled)
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
    EXPECT_EQ(out.compile_workers_started, 1);
}
