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

#include <fmt/format.h>
#include <fstream>
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

namespace {

// A space whose parameter sets the GPU's clock (Kernel Tuner's nvml_gr_clock) would be timed
// at the GPU's own clock and labelled with another: with a GPU, the run is refused in one
// line naming the file and the parameter, before anything is compiled or written.
TEST_F(OnGpu, ASpaceThatSetsTheGpusClockIsNotMeasured)
{
    const auto dir = dir_.path();
    std::ofstream(dir / "k.cu") << "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] = 1; }\n";
    std::ofstream(dir / "k.json") << R"json({
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "[32]"},
                                              {"Name": "nvml_gr_clock", "Type": "int", "Values": "[1000]"}]},
  "KernelSpecification": {"KernelName": "k", "KernelFile": "k.cu", "LocalSize": {"X": "block_size_x"}, "ProblemSize": [1024],
                          "Arguments": [{"Name": "o", "Type": "float", "AccessType": "WriteOnly", "Size": "ProblemSize[0]"}]}
})json";
    const auto r = test::run_autotune(fmt::format("run {} --arch {} --quiet --out {}", (dir / "k.json").string(),
                                                  first_arch().name(), (dir / "out").string()),
                                      dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, fmt::format("autotune: {}: tuning parameter nvml_gr_clock sets the GPU's graphics clock before "
                                 "each configuration runs (Kernel Tuner's NVML observer), which autotune does not do: "
                                 "measured, every configuration would run at the GPU's own (compiling and predicting "
                                 "work: --compile-only)\n",
                                 (dir / "k.json").string()));
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

} // namespace
