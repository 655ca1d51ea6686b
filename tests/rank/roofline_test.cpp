// The seeds' numbers as test vectors for the roofline.
#include "rank/roofline.hpp"

#include "rank/ptx_memory_ops.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

Ceilings ceilings(double gflops, double gbs, double mhz = 1000)
{
    return Ceilings{gflops, gbs, mhz, "test"};
}

TEST(Roofline, A100RidgeIs208FlopsPerByte)
{
    // 312e12 flop/s bf16 over 1.5e12 B/s (Transformer Inference Arithmetic, via the seeds).
    const ProblemRoofline r = roofline_for(1, 1, ceilings(312e3, 1.5e3));
    EXPECT_NEAR(r.ridge, 208.0, 1e-9);
}

TEST(Roofline, GemmIntensityFromTheSeeds)
{
    const auto gemm = [](double m, double n, double k) {
        return roofline_for(2 * m * n * k, 4 * (m * k + k * n + m * n), ceilings(67e3, 3.35e3));
    };
    EXPECT_NEAR(gemm(1024, 1024, 1024).intensity, 170.67, 0.01);
    EXPECT_NEAR(gemm(1024, 1024, 32).intensity, 15.06, 0.01);
    // On an H100 (ridge ≈ 20 for fp32) the first is compute-bound, the second memory-bound.
    EXPECT_TRUE(gemm(1024, 1024, 1024).compute_bound);
    EXPECT_FALSE(gemm(1024, 1024, 32).compute_bound);
    EXPECT_NEAR(gemm(1024, 1024, 32).attainable_gflops, 3.35e3 * 15.06, 50);
}

TEST(Roofline, CriticalBatchSizes)
{
    EXPECT_NEAR(critical_batch_size(1.97e14, 8.2e11), 240.2, 0.1);           // TPU v5e
    EXPECT_NEAR(critical_batch_size(989.4e12, 3.35e12), 295.3, 0.1);         // H100, bf16 dense
    EXPECT_NEAR(critical_batch_size(1.97e14, 8.2e11, 8, 16), 120.1, 0.1);    // int8 weights halve it
    EXPECT_NEAR(critical_batch_size(3.94e14, 8.2e11, 8, 8), 480.5, 0.1);     // int8 × int8 compute
}

TEST(Roofline, FractionIsTimeBoundOverTimeAndWorksWithoutFlops)
{
    const ProblemRoofline copy = roofline_for(0, 8e9, ceilings(60e3, 4e3)); // 8 GB at 4 TB/s: 2 ms
    EXPECT_DOUBLE_EQ(copy.intensity, 0);
    EXPECT_FALSE(copy.compute_bound);
    EXPECT_NEAR(copy.time_bound_seconds, 2e-3, 1e-12);
    EXPECT_NEAR(roofline_fraction(copy, 2.5e-3), 0.8, 1e-12);
    const ProblemRoofline gemm = roofline_for(2e12, 1e9, ceilings(50e3, 4e3)); // 40 ms of compute
    EXPECT_NEAR(roofline_fraction(gemm, 80e-3), 0.5, 1e-12);
}

TEST(Roofline, TheComputeRoofMovesWithTheClockAndBandwidthDoesNot)
{
    const Ceilings half = at_clock(ceilings(60e3, 4e3, 2000), 1000);
    EXPECT_DOUBLE_EQ(half.compute_gflops, 30e3);
    EXPECT_DOUBLE_EQ(half.bandwidth_gbs, 4e3);
    EXPECT_DOUBLE_EQ(half.clock_mhz, 1000);
}

TEST(Roofline, DatasheetCeilingsComeFromTheDeviceTable)
{
    const auto h100 = datasheet_ceilings(find_device_spec("h100-sxm"), Precision::fp32);
    ASSERT_TRUE(h100.has_value());
    EXPECT_NEAR(h100->compute_gflops, 66.9e3, 1);
    EXPECT_DOUBLE_EQ(h100->bandwidth_gbs, 3350);
    EXPECT_EQ(h100->source, "datasheet: h100-sxm");
    const auto tensor = datasheet_ceilings(find_device_spec("h100-sxm"), Precision::bf16_tensor);
    ASSERT_TRUE(tensor.has_value());
    EXPECT_GT(tensor->compute_gflops, 10 * h100->compute_gflops);
}

TEST(Roofline, BadInputIsRefused)
{
    EXPECT_THROW((void)roofline_for(1, 0, ceilings(1, 1)), std::invalid_argument);
    EXPECT_THROW((void)roofline_for(-1, 1, ceilings(1, 1)), std::invalid_argument);
    EXPECT_THROW((void)roofline_for(1, 1, ceilings(0, 1)), std::invalid_argument);
}

TEST(PtxMemoryOps, CountsScalarAndVectorGlobalAccesses)
{
    const char* ptx = R"(
	ld.global.nc.v4.u32 	{%r1, %r2, %r3, %r4}, [%rd5];
	ld.global.nc.u32 	%r9, [%rd7];
	ld.global.f32 	%f1, [%rd8];
	st.global.v2.f32 	[%rd9], {%f1, %f2};
	st.global.u32 	[%rd3], %r9;
	ld.shared.f32 	%f3, [%r4];
)";
    const GlobalMemoryOps ops = count_global_memory_ops(ptx);
    EXPECT_EQ(ops.vector_loads, 1u);
    EXPECT_EQ(ops.scalar_loads, 2u);
    EXPECT_EQ(ops.vector_stores, 1u);
    EXPECT_EQ(ops.scalar_stores, 1u);
    EXPECT_EQ(ops.other_writes, 0u);
    EXPECT_TRUE(ops.writes_global());
}

// Writes besides st.global, and what only looks like one: a kernel whose code has none
// never writes its outputs.
TEST(PtxMemoryOps, OtherWritesAreGenericStoresGlobalAtomicsAndBulkCopiesOut)
{
    const auto writes = [](const char* ptx) { return count_global_memory_ops(ptx).other_writes; };
    EXPECT_EQ(writes("\tst.u32 \t[%rd4], %r2;\n"), 1u);                  // a generic address
    EXPECT_EQ(writes("\t@%p1 st.v2.f32 \t[%rd4], {%f1, %f2};\n"), 1u);
    EXPECT_EQ(writes("\tatom.global.add.u32 \t%r1, [%rd2], 1;\n"), 1u);
    EXPECT_EQ(writes("\tred.add.f32 \t[%rd2], %f1;\n"), 1u);
    EXPECT_EQ(writes("\tst.relaxed.gpu.global.u32 \t[%rd2], %r1;\n"), 1u);
    EXPECT_EQ(writes("\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group \t[%rd1, {%r1, %r2}], [%r3];\n"), 1u);
    EXPECT_EQ(writes("\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 \t[%rd1], [%r3], 64;\n"), 1u);
    // Not writes of global memory:
    EXPECT_EQ(writes("\tst.shared.f32 \t[%r4], %f1;\n"
                     "\tst.local.u32 \t[%rd9], %r1;\n"
                     "\tst.param.b32 \t[param0], %r1;\n"
                     "\tst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 \t[%r1], %r2, [%r3];\n"
                     "\tatom.shared.add.u32 \t%r1, [%r2], 1;\n"
                     "\tstmatrix.sync.aligned.m8n8.x4.shared.b16 \t[%r1], {%r2, %r3, %r4, %r5};\n"
                     "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \t[%r1], [%rd1, {%r2, %r3}], [%r4];\n"
                     "\tst.global.f32 \t[%rd1], %f1;\n"), // counted as a store, not again here
              0u);
    const GlobalMemoryOps none = count_global_memory_ops("\tld.global.f32 \t%f1, [%rd1];\n\tret;\n");
    EXPECT_FALSE(none.writes_global());
}

} // namespace
