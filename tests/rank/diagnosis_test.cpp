// Diagnosis on hand-made variants: each shortfall gets its sentence, in the seeds'
// order (cheapest ceiling first).
#include "rank/diagnosis.hpp"
#include "rank/performance_model.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

// A healthy variant on an H100-like device: 256 threads, 8 blocks per SM, plenty of grid.
VariantFacts healthy(bool compute_bound)
{
    VariantFacts f;
    f.occupancy.blocks_per_sm = 8;
    f.occupancy.active_warps = 64;
    f.occupancy.max_warps = 64;
    f.threads_per_block = 256;
    f.grid_blocks = 132 * 8 * 10;
    f.sms = 132;
    f.memory_ops.vector_loads = 4;
    f.memory_ops.vector_stores = 1;
    f.vectors_possible = true;
    f.ceilings = Ceilings{60e3, 3e3, 1980, "test"};
    f.problem = compute_bound ? roofline_for(2e12, 1e8, f.ceilings) : roofline_for(0, 8e9, f.ceilings);
    return f;
}

TEST(Diagnosis, AHealthyVariantHasNone)
{
    EXPECT_THAT(diagnose(healthy(true)), ::testing::IsEmpty());
    EXPECT_DOUBLE_EQ(model_factors(healthy(false), 0.5).fraction(), 1.0);
}

// BAT's CUDA GEMM has its StoreResults call commented out: NVRTC removes the whole
// product, and every variant is four registers of nothing. That comes first.
TEST(Diagnosis, AVariantThatStoresNothingIsSaidFirst)
{
    VariantFacts f = healthy(true);
    f.memory_ops.vector_stores = 0;
    f.threads_per_block = 64;
    const auto d = diagnose(f);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_THAT(d[0], HasSubstr("stores nothing to global memory"));
    EXPECT_THAT(d[1], HasSubstr("blocks of 64 threads"));
    f.memory_ops.other_writes = 1; // an atomic, a generic store: it writes
    EXPECT_THAT(diagnose(f), ::testing::Not(::testing::Contains(HasSubstr("stores nothing"))));
}

TEST(Diagnosis, SpillsComeFirst)
{
    VariantFacts f = healthy(true);
    f.resources.spill_stores = 96;
    f.resources.spill_loads = 64;
    f.occupancy.active_warps = 8; // also low occupancy: listed after the spills
    const auto d = diagnose(f);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_THAT(d[0], HasSubstr("spills: 96 bytes stored and 64 loaded"));
    EXPECT_THAT(d[1], HasSubstr("occupancy below the latency-hiding floor: 2.0 warps per scheduler"));
    EXPECT_LT(model_factors(f, 0.5).spills, 0.2);
}

TEST(Diagnosis, SmallBlocksAndLowOccupancy)
{
    VariantFacts f = healthy(true);
    f.threads_per_block = 64;
    f.occupancy.active_warps = 12;
    const auto d = diagnose(f);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_THAT(d[0], HasSubstr("3.0 warps per scheduler"));
    EXPECT_THAT(d[1], HasSubstr("blocks of 64 threads"));
    EXPECT_DOUBLE_EQ(model_factors(f, 1.0).occupancy, 0.75);
}

TEST(Diagnosis, ScalarLoadsWhereOtherVariantsUseVectors)
{
    VariantFacts f = healthy(false);
    f.memory_ops = {12, 0, 3, 0};
    EXPECT_THAT(diagnose(f), ::testing::ElementsAre(HasSubstr("scalar global memory access: 12 loads and 3 stores")));
    f.vectors_possible = false; // no variant of this kernel vectorises: nothing to blame
    EXPECT_THAT(diagnose(f), ::testing::IsEmpty());
}

TEST(Diagnosis, UnderFilledGrid)
{
    VariantFacts f = healthy(true);
    f.grid_blocks = 100;
    EXPECT_THAT(diagnose(f), ::testing::ElementsAre(HasSubstr("under-filled grid: 100 blocks for 132 SMs")));
    EXPECT_LT(model_factors(f, 1.0).waves, 0.1);
}

TEST(Diagnosis, MeasuredShortfallsAgainstTheRoofThatApplies)
{
    VariantFacts memory = healthy(false);   // 8 GB at 3 TB/s: 2.67 ms on the roof
    memory.seconds = 4e-3;                  // 2000 GB/s: 67%
    EXPECT_THAT(diagnose(memory), ::testing::ElementsAre(HasSubstr("memory-bound at 67% of bandwidth")));
    memory.seconds = 3e-3;                  // 89%: fine
    EXPECT_THAT(diagnose(memory), ::testing::IsEmpty());

    VariantFacts compute = healthy(true);   // 2 TFLOP at 60 TFLOP/s: 33 ms on the roof
    compute.seconds = 0.1;                  // 20 TFLOP/s: 33%
    EXPECT_THAT(diagnose(compute), ::testing::ElementsAre(HasSubstr("compute-bound at 33% of peak")));
    compute.seconds = 0.05;                 // 67%: fine
    EXPECT_THAT(diagnose(compute), ::testing::IsEmpty());
}

TEST(PerformanceModel, ArithmeticShareCountsFloatingPointMathOnly)
{
    const char* ptx = R"(
.visible .entry k(
{
	.reg .f32 	%f<9>;
$L__BB0_1:
	ld.shared.f32 	%f1, [%r1];
	fma.rn.f32 	%f2, %f1, %f1, %f2;
	fma.rn.f32 	%f3, %f1, %f1, %f3;
	add.s32 	%r1, %r1, 4;
	@%p1 bra 	$L__BB0_1;
	ret;
}
)";
    // ld.shared, fma, fma, add.s32, bra: two of five are floating-point math.
    EXPECT_NEAR(arithmetic_share(ptx), 0.4, 1e-12);
}

TEST(ArithmeticShare, ATensorCoreMmaCountsAsTheIssueSlotsItKeepsThePipeBusy)
{
    const char* ptx = R"(
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 	{%r1, %r2, %r3, %r4}, [%r5];
	mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 	{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r6, %r7}, {%f1, %f2, %f3, %f4};
	add.s32 	%r5, %r5, 64;
	@%p1 bra 	$L__BB0_1;
)";
    // ldmatrix, add.s32, bra: 3 slots; the m16n8k16 mma: 16·8·16 / 512 = 4 slots of math.
    EXPECT_NEAR(arithmetic_share(ptx), 4.0 / 7.0, 1e-12);
}

} // namespace
