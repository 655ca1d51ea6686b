// The measure stage on a real GPU: verification, timing, fault isolation, and the
// driver's view against the compile and predict stages. Skipped, with the reason, where
// there is no driver or no device; scripts/gpu-check runs them.
#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "gpu/gpu_test.hpp"
#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

class OnGpu : public test::GpuTest {
protected:
    // Compiles, predicts and measures `variants` of a spec on the first device.
    std::vector<std::optional<VariantMeasurement>> measure(const std::filesystem::path& spec_path,
                                                           std::size_t first, std::size_t count,
                                                           std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        spec_ = load_spec(spec_path);
        problem_ = resolve_problem(spec_, {});
        const Space space = enumerate_space(spec_, problem_, SpaceSelection::default_space);
        variants_.assign(space.variants.begin() + first,
                         space.variants.begin() + std::min(space.variants.size(), first + count));
        const ArchTarget arch = first_arch();
        compiled_ = compile_variants(spec_, problem_, variants_, arch, CompileSettings{});
        predictions_ = predict_variants(find_arch_spec(arch.number()), variants_, compiled_);
        return measure_variants(spec_, problem_, variants_, compiled_, predictions_, measure_settings(timeout));
    }

    KernelSpec spec_;
    Problem problem_;
    std::vector<Variant> variants_;
    std::vector<CompiledVariant> compiled_;
    std::vector<PredictionOutcome> predictions_;
};

TEST_F(OnGpu, DevicesHaveSaneAttributes)
{
    for (const auto& gpu : gpus_) {
        EXPECT_FALSE(gpu.name.empty());
        EXPECT_GE(gpu.compute_capability, 70);
        EXPECT_GT(gpu.sms, 0);
        EXPECT_GT(gpu.l2_bytes, 0);
        EXPECT_GT(gpu.peak_bandwidth_gbs(), 100.0);
    }
}

TEST_F(OnGpu, CopyVariantsVerifyAndTimeWithTheDriverAgreeing)
{
    const auto results = measure(test::source_dir() / "kernels" / "copy.toml", 0, 6);
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants_[i].key());
        ASSERT_TRUE(results[i].has_value());
        EXPECT_EQ(results[i]->status, "ok") << results[i]->error;
        ASSERT_TRUE(results[i]->measurement.has_value());
        const Measurement& m = *results[i]->measurement;
        EXPECT_TRUE(m.verified);
        EXPECT_GE(m.time.count, 10u);
        EXPECT_GT(m.time.median, 0.0);
        EXPECT_GT(m.sm_clock_mhz, 100.0);
        EXPECT_THAT(results[i]->disagreements, ::testing::IsEmpty());
    }
}

TEST_F(OnGpu, GemmRegistersAndOccupancyMatchTheDriver)
{
    const auto results = measure(test::source_dir() / "kernels" / "gemm.toml", 0, 12);
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants_[i].key());
        ASSERT_TRUE(results[i].has_value());
        EXPECT_EQ(results[i]->status, "ok") << results[i]->error;
        ASSERT_TRUE(results[i]->driver.has_value());
        EXPECT_EQ(results[i]->driver->registers, compiled_[i].resources.registers);
        EXPECT_EQ(results[i]->driver->blocks_per_sm, predictions_[i].prediction->occupancy.blocks_per_sm);
    }
}

TEST_F(OnGpu, WrongFaultingAndHangingVariantsAreIsolatedAndTheRunGoesOn)
{
    const auto results = measure(test::data_dir() / "faulty" / "faulty.toml", 0, 5, std::chrono::seconds(10));
    ASSERT_EQ(results.size(), 5u);
    EXPECT_EQ(results[0]->status, "ok") << results[0]->error;
    EXPECT_EQ(results[1]->status, "wrong_result");
    EXPECT_THAT(results[1]->error, HasSubstr("never written"));
    EXPECT_EQ(results[2]->status, "fault");
    EXPECT_THAT(results[2]->error, HasSubstr("ILLEGAL_ADDRESS"));
    EXPECT_EQ(results[3]->status, "fault");
    EXPECT_THAT(results[3]->error, HasSubstr("no reply"));
    EXPECT_EQ(results[4]->status, "ok") << results[4]->error; // a fresh worker took over
}

} // namespace
