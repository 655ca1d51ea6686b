// Predictions for compiled variants: occupancy from the real resources, and the flags.
#include "predict/variant_prediction.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

Variant variant_with_block(int threads, RegisterPolicy policy = {})
{
    Variant v;
    v.block = {threads, 1, 1};
    v.register_policy = policy;
    return v;
}

TEST(VariantPrediction, OccupancyComesFromTheCompiledResources)
{
    ResourceUsage r;
    r.registers = 64;
    r.shared_static = 4096;
    r.barriers = 1;
    const VariantPrediction p = predict_variant(find_arch_spec(90), variant_with_block(256), r);
    EXPECT_EQ(p.occupancy.blocks_per_sm, 4);
    EXPECT_EQ(p.occupancy.limiter, OccupancyLimiter::registers);
    EXPECT_FALSE(p.launch_bound.has_value());
    EXPECT_TRUE(p.flags.empty());
}

TEST(VariantPrediction, FlagsSpillsUnderACap)
{
    ResourceUsage r;
    r.registers = 32;
    r.spill_stores = 8;
    r.spill_loads = 12;
    r.register_cap = 32;
    r.register_cap_source = "maxrregcount";
    const VariantPrediction p = predict_variant(find_arch_spec(90), variant_with_block(128, {0, 0, 0, 32}), r);
    ASSERT_EQ(p.flags.size(), 1u);
    EXPECT_THAT(p.flags[0], HasSubstr("spills 8 bytes stored, 12 loaded under a register cap of 32"));
}

TEST(VariantPrediction, FlagsMinBlocksThatCanNeverBeResident)
{
    ResourceUsage r;
    r.registers = 40;
    r.register_cap = 64; // ptxas fell back to one block of 1024 threads
    r.register_cap_source = "launch_bounds";
    r.min_blocks_ignored = true;
    const VariantPrediction p = predict_variant(find_arch_spec(90), variant_with_block(1024, {1024, 4, 0, 0}), r);
    ASSERT_TRUE(p.launch_bound.has_value());
    EXPECT_FALSE(p.launch_bound->min_blocks_resident);
    EXPECT_EQ(p.launch_bound->register_cap, 64);
    ASSERT_EQ(p.flags.size(), 1u);
    EXPECT_THAT(p.flags[0], HasSubstr("can never be resident on an sm_90 SM"));
}

TEST(VariantPrediction, FlagsAPtxasCapOtherThanTheComputedOne)
{
    ResourceUsage r;
    r.registers = 60;
    r.register_cap = 120;
    r.register_cap_source = "launch_bounds";
    const VariantPrediction p = predict_variant(find_arch_spec(90), variant_with_block(256, {256, 2, 0, 0}), r);
    ASSERT_EQ(p.flags.size(), 1u);
    EXPECT_THAT(p.flags[0], HasSubstr("ptxas capped registers at 120, the launch bounds give 128"));
}

TEST(VariantPrediction, AVariantThatCannotRunIsAnOutcomeNotACrash)
{
    CompiledVariant ok;
    ok.status = CompileStatus::ok;
    ok.resources.registers = 255;
    CompiledVariant failed;
    const auto outcomes = predict_variants(find_arch_spec(90), {variant_with_block(1024), variant_with_block(64)},
                                           {ok, failed});
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_FALSE(outcomes[0].prediction.has_value());
    EXPECT_THAT(outcomes[0].error, HasSubstr("no block fits"));
    EXPECT_FALSE(outcomes[1].prediction.has_value());
    EXPECT_TRUE(outcomes[1].error.empty());
}

} // namespace
