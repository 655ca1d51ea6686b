// --lazy-compile on a real GPU: the copy kernel searched with a budget of 4, compiling only
// what the search measures, each proposal verified and timed. Skipped, with the reason,
// where there is no device; scripts/gpu-check runs it.
#include "gpu/gpu_test.hpp"
#include "spec/load_spec.hpp"
#include "support/tune_setup.hpp"
#include "tune/tune_problem.hpp"

#include <gtest/gtest.h>

using namespace autotune;

namespace {

class LazyCompileOnGpu : public test::GpuTest {};

TEST_F(LazyCompileOnGpu, TheSearchCompilesAndMeasuresOnlyItsProposals)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    TuneSetup setup = test::predicting_setup(spec, first_arch().name(), dir_.path() / "cache");
    setup.device = gpus_[0];
    setup.measure = measure_settings(std::chrono::seconds(60));
    setup.search.strategy = "forest";
    setup.search.budget.max_evaluations = 4;
    setup.lazy_compile = true;
    const TuningRun run = tune_problem(setup, problem);
    ASSERT_TRUE(run.search.has_value());
    EXPECT_TRUE(run.search->compiled_lazily);
    EXPECT_EQ(run.variants.size(), 4u);
    for (std::size_t i = 0; i < run.variants.size(); ++i) {
        SCOPED_TRACE(run.variants[i].key());
        ASSERT_TRUE(run.measurements[i].has_value());
        EXPECT_EQ(run.measurements[i]->status, "ok") << run.measurements[i]->error;
        ASSERT_TRUE(run.measurements[i]->measurement.has_value());
        EXPECT_TRUE(run.measurements[i]->measurement->verified);
    }
}

} // namespace
