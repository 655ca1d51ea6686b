// A reference variant on a real GPU: run first on the seeded inputs, its outputs are what
// every other variant is compared with (every element); a wrong variant fails against it,
// and a reference that leaves its output unwritten is dropped, said once, and the run goes
// on. Skipped, with the reason, where there is no driver or no device.
#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "space/enumerate_space.hpp"
#include "space/reference_variant.hpp"
#include "spec/load_spec.hpp"
#include "gpu/gpu_test.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

// WRONG = 1 adds a little to every element; SKIP = 1 writes nothing.
const char* const kernel = R"cu(
extern "C" __global__ void twice(float* out, const float* in, int n)
{
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n && !SKIP)
        out[i] = 2.0f * in[i] + (WRONG ? 1e-3f : 0.0f);
}
)cu";

const char* const spec_text = R"toml(name = "twice"
[kernel]
template = "twice.cu"
function = "twice"
parameters_as = "preprocessor_definitions"
[parameters]
block_size_x = [64, 128]
WRONG = [0, 1]
SKIP = [0, 1]
[problem]
N = 100000
[[arguments]]
name = "out"
buffer = "float"
size = "N"
access = "output"
[[arguments]]
name = "in"
buffer = "float"
size = "N"
[[arguments]]
name = "n"
scalar = "int"
value = "N"
[launch]
grid = ["ceil_div(N, block_size_x)"]
block = ["block_size_x"]
[cost]
flops = "N"
bytes = "8 * N"
[reference]
)toml";

class ReferenceVariantOnGpu : public test::GpuTest {
protected:
    // Loads `spec_path`, compiles its default space and its reference variant for the
    // first device, and measures every variant with the reference variant's outputs.
    std::vector<std::optional<VariantMeasurement>> measure(const std::filesystem::path& spec_path,
                                                           const std::vector<std::string>& problem = {})
    {
        spec_ = load_spec(spec_path);
        problem_ = resolve_problems(spec_, problem).front();
        variants_ = enumerate_space(spec_, problem_, SpaceSelection::default_space).variants;
        const ArchTarget arch = first_arch();
        compiled_ = compile_variants(spec_, problem_, variants_, arch, CompileSettings{});
        const auto predictions = predict_variants(find_arch_spec(arch.number()), variants_, compiled_);
        MeasureSettings settings = measure_settings(std::chrono::seconds(60));
        settings.timing.max_seconds = 0.2;
        const Variant reference = *reference_variant(spec_, problem_);
        settings.reference_variant =
            ReferenceVariantBuild{reference, compile_variants(spec_, problem_, {reference}, arch, CompileSettings{}).front()};
        settings.notice = [this](const std::string& line) { notices_.push_back(line); };
        return measure_variants(spec_, problem_, variants_, compiled_, predictions, settings);
    }
    std::filesystem::path write_spec(const std::string& reference)
    {
        std::ofstream(dir_.path() / "twice.cu") << kernel;
        std::ofstream(dir_.path() / "twice.toml") << spec_text << reference << "\n";
        return dir_.path() / "twice.toml";
    }
    std::int64_t value(std::size_t i, const std::string& name) const { return variants_[i].value(name); }

    KernelSpec spec_;
    Problem problem_;
    std::vector<Variant> variants_;
    std::vector<CompiledVariant> compiled_;
    std::vector<std::string> notices_;
};

TEST_F(ReferenceVariantOnGpu, EveryElementIsComparedWithTheReferenceVariantsOutput)
{
    const auto results = measure(write_spec("variant = { block_size_x = 64, WRONG = 0, SKIP = 0 }"));
    EXPECT_TRUE(notices_.empty()) << notices_.front();
    ASSERT_EQ(results.size(), 8u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants_[i].key());
        ASSERT_TRUE(results[i].has_value());
        if (value(i, "SKIP") == 1) {
            EXPECT_EQ(results[i]->status, "wrong_result");
            EXPECT_THAT(results[i]->error, HasSubstr("never written"));
        } else if (value(i, "WRONG") == 1) {
            EXPECT_EQ(results[i]->status, "wrong_result"); // off by 1e-3 from the reference's values
            EXPECT_THAT(results[i]->error, HasSubstr("outside tolerance"));
        } else {
            ASSERT_EQ(results[i]->status, "ok") << results[i]->error;
            EXPECT_TRUE(results[i]->measurement->verified);
            EXPECT_EQ(results[i]->measurement->verified_elements, 100000u); // every element
        }
    }
}

TEST_F(ReferenceVariantOnGpu, AReferenceThatWritesNothingIsDroppedOnceAndTheRunGoesOnUnverified)
{
    const auto results = measure(write_spec("variant = { block_size_x = 64, WRONG = 0, SKIP = 1 }"));
    ASSERT_EQ(notices_.size(), 1u);
    EXPECT_THAT(notices_[0], HasSubstr("failed when run"));
    EXPECT_THAT(notices_[0], HasSubstr("never written"));
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants_[i].key());
        ASSERT_TRUE(results[i].has_value());
        if (value(i, "SKIP") == 1) {
            EXPECT_EQ(results[i]->status, "wrong_result"); // still scanned for unwritten elements
        } else {
            ASSERT_EQ(results[i]->status, "ok") << results[i]->error; // WRONG = 1 too: nothing to compare with
            EXPECT_EQ(results[i]->measurement->verified_elements, 0u);
        }
    }
}

TEST_F(ReferenceVariantOnGpu, TheExampleKernelVerifiesAgainstItsReferenceVariant)
{
    const auto results = measure(test::source_dir() / "examples" / "blur.toml", {"image_width=256,image_height=128"});
    ASSERT_FALSE(results.empty());
    EXPECT_TRUE(notices_.empty()) << notices_.front();
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants_[i].key());
        ASSERT_TRUE(results[i].has_value()) << compiled_[i].error;
        ASSERT_EQ(results[i]->status, "ok") << results[i]->error;
        EXPECT_EQ(results[i]->measurement->verified_elements, 256u * 128u);
    }
}

} // namespace
