// Pruning before any GPU time, on real compiled variants: identical machine code run the
// same way is grouped, what cannot launch is dropped, and nothing else is.
#include "strategy/prune_variants.hpp"

#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"
#include "support/variants.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using autotune::test::variant_with;

namespace {

struct Compiled {
    KernelSpec spec;
    Problem problem;
    std::vector<Variant> variants;
    std::vector<CompiledVariant> compiled;
    std::vector<PredictionOutcome> predictions;

    Compiled(const char* kernel, std::vector<Variant> chosen, const Problem& p, const KernelSpec& s)
        : spec(s), problem(p), variants(std::move(chosen))
    {
        compiled = compile_variants(spec, problem, variants, parse_arch("sm_90"), CompileSettings{});
        predictions = predict_variants(find_arch_spec(90), variants, compiled);
        (void)kernel;
    }
};

TEST(PruneVariants, IdenticalMachineCodeRunTheSameWayIsGroupedAndAnotherGridIsNot)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    // 1024-thread launch bounds do not bind a 32-register kernel: the same code as no bound.
    // ITEMS changes only the grid: the same code, another run.
    Compiled c("copy",
               {variant_with(space, {{"BLOCK", 256}, {"VEC", 4}, {"ITEMS", 1}, {"MAX_THREADS", 0}, {"MAXRREGCOUNT", 0}}),
                variant_with(space, {{"BLOCK", 256}, {"VEC", 4}, {"ITEMS", 1}, {"MAX_THREADS", 1024}, {"MIN_BLOCKS", 0}, {"MAXRREGCOUNT", 0}}),
                variant_with(space, {{"BLOCK", 256}, {"VEC", 4}, {"ITEMS", 4}, {"MAX_THREADS", 0}, {"MAXRREGCOUNT", 0}})},
               problem, spec);
    ASSERT_EQ(c.compiled[0].sass_sha256, c.compiled[1].sass_sha256);
    ASSERT_EQ(c.compiled[0].sass_sha256, c.compiled[2].sass_sha256);
    ASSERT_NE(c.compiled[0].cubin_sha256, c.compiled[1].cubin_sha256); // the metadata differs, the code does not
    const PruneReport report = prune_variants(c.spec, c.problem, c.variants, c.compiled, c.predictions);
    EXPECT_FALSE(report.decisions[0].duplicate_of.has_value());
    EXPECT_EQ(report.decisions[1].duplicate_of, 0u);
    EXPECT_FALSE(report.decisions[2].duplicate_of.has_value()) << "another grid is another run";
    EXPECT_EQ(report.removals[2].removed, 1u);
}

TEST(PruneVariants, WhatCannotLaunchIsDropped)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    auto gemm = [&](std::int64_t bm, std::int64_t tm, std::int64_t tn, std::int64_t max_threads, std::int64_t min_blocks) {
        return variant_with(space, {{"BM", bm}, {"BN", 128}, {"BK", 16}, {"TM", tm}, {"TN", tn}, {"VEC", 4},
                                    {"MAX_THREADS", max_threads}, {"MIN_BLOCKS", min_blocks}, {"MAXRREGCOUNT", 0}});
    };
    // 1024 threads of an 8×4 tile need over 64 registers each: more than the register
    // file; 4 blocks of 1024 threads never fit an SM; 256 threads of an 8×8 tile are fine.
    Compiled c("gemm", {gemm(256, 8, 4, 0, 0), gemm(128, 4, 4, 1024, 4), gemm(128, 8, 8, 0, 0)}, problem, spec);
    ASSERT_GT(c.compiled[0].resources.registers * 1024, 65536);
    const PruneReport report = prune_variants(c.spec, c.problem, c.variants, c.compiled, c.predictions);
    EXPECT_TRUE(report.decisions[0].pruned);
    EXPECT_THAT(report.decisions[0].reason, ::testing::HasSubstr("no block fits"));
    EXPECT_TRUE(report.decisions[1].pruned);
    EXPECT_THAT(report.decisions[1].reason, ::testing::HasSubstr("__launch_bounds__(1024, 4)"));
    EXPECT_FALSE(report.decisions[2].pruned);
    EXPECT_EQ(report.removals[0].removed, 1u);
    EXPECT_EQ(report.removals[1].removed, 1u);
}

} // namespace
