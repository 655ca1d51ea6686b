// The ceilings a run ranks against: the GPU's measured ones (with its driver's L2) over the
// datasheet's, the datasheet's with the table's L2, none without either.
#include "arch/device_spec.hpp"
#include "rank/measured_ceilings.hpp"
#include "support/test_support.hpp"
#include "tune/ranking_ceilings.hpp"

#include <gtest/gtest.h>

using namespace autotune;

namespace {

GpuDevice h200()
{
    GpuDevice d;
    d.name = "NVIDIA H200";
    d.compute_capability = 90;
    d.sms = 132;
    d.l2_bytes = 62914560; // what the driver reports: 60 MiB
    return d;
}

TEST(RankingCeilings, MeasuredOnesCarryTheL2TheDriverReports)
{
    const test::TempDir dir;
    MeasuredCeilings measured;
    measured.device = "NVIDIA H200";
    measured.compute_capability = 90;
    measured.clock_mhz = 1755;
    measured.bandwidth_gbs = 4200;
    measured.compute_gflops["fp32"] = 51000;
    write_measured_ceilings(dir.path(), measured);
    const GpuDevice device = h200();
    const DeviceSpec& datasheet = find_device_spec("h100-sxm");

    const auto c = ranking_ceilings(Precision::fp32, dir.path(), &device, &datasheet);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->bandwidth_gbs, 4200);
    EXPECT_EQ(c->compute_gflops, 51000);
    EXPECT_EQ(c->source.rfind("measured: ", 0), 0u) << c->source;
    EXPECT_EQ(c->l2_bytes, 62914560); // not 0 ("unknown"), nor the datasheet device's

    // A precision the roofline did not measure falls back to the datasheet, its L2 with it.
    const auto bf16 = ranking_ceilings(Precision::bf16_tensor, dir.path(), &device, &datasheet);
    ASSERT_TRUE(bf16.has_value());
    EXPECT_EQ(bf16->source, "datasheet: h100-sxm");
    EXPECT_EQ(bf16->l2_bytes, static_cast<double>(datasheet.l2_bytes));
}

TEST(RankingCeilings, WithoutMeasuredOnesTheDatasheetsOrNone)
{
    const test::TempDir dir; // no devices file
    const GpuDevice device = h200();
    const DeviceSpec& datasheet = find_device_spec("h100-sxm");
    const auto c = ranking_ceilings(Precision::fp32, dir.path(), &device, &datasheet);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->source, "datasheet: h100-sxm");
    EXPECT_EQ(c->l2_bytes, static_cast<double>(datasheet.l2_bytes));
    EXPECT_FALSE(ranking_ceilings(Precision::fp32, dir.path(), nullptr, nullptr).has_value());
}

} // namespace
