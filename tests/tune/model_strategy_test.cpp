// The model strategy on a GPU run measures what the model ranked first: the ranking's
// predicted order (time, then its tie rule), the same order `predicted_rank` reports.
// The copy kernel's variants are memory-bound and tie on predicted time and on the roof
// fraction, so only the tie rule tells them apart.
#include "spec/load_spec.hpp"
#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"
#include "support/tune_setup.hpp"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>

using namespace autotune;

TEST(ModelStrategy, MeasuresTheVariantsThePredictedRankPutsFirst)
{
    test::TempDir dir;
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    std::ofstream(dir.path() / "worker.sh") << test::answering_worker("1.0 / (1000 + $v)");
    TuneSetup setup = test::predicting_setup(spec, "sm_80", dir.path() / "cache");
    setup.search.strategy = "model";
    setup.search.budget.max_evaluations = 3;
    test::give_scripted_gpu(setup, dir.path());

    const TuningRun run = tune_problem(setup, problem);
    ASSERT_TRUE(run.ranking.has_value());
    ASSERT_TRUE(run.search.has_value());
    ASSERT_EQ(run.search->evaluations, 3u);
    // Of the candidates (not pruned, not standing in for another), every one measured
    // comes before every one not measured in the predicted order.
    std::size_t last_measured = 0, first_unmeasured = std::numeric_limits<std::size_t>::max();
    std::size_t measured = 0;
    bool roof_fractions_tie = false;
    for (std::size_t i = 0; i < run.variants.size(); ++i) {
        const auto& decision = run.pruning.decisions[i];
        if (decision.pruned || decision.duplicate_of)
            continue;
        const std::size_t rank = run.ranking->variants[i].predicted_rank;
        ASSERT_GT(rank, 0u) << "variant " << run.variants[i].index;
        if (run.measurements[i]) {
            ++measured;
            last_measured = std::max(last_measured, rank);
        }
        else
            first_unmeasured = std::min(first_unmeasured, rank);
        for (std::size_t j = 0; j < i; ++j)
            roof_fractions_tie |= run.ranking->variants[j].predicted_fraction == run.ranking->variants[i].predicted_fraction;
    }
    EXPECT_EQ(measured, 3u);
    EXPECT_LT(last_measured, first_unmeasured);
    EXPECT_TRUE(roof_fractions_tie); // else the roof fraction's order would do as well
}
