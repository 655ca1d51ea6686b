// A T1 file's Constant fill of an input, on a real GPU: every element the kernel reads is
// the FillValue. The kernel traps on any other value, so a random fill (or none) fails
// the variant instead of passing unnoticed. Skipped, with the reason, without a device.
#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "gpu/gpu_test.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

const char* const constant_in_kernel = R"cu(
extern "C" __global__ void constant_in(float* out, const float* in, int n)
{
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) {
        if (in[i] != 1.5f)
            __trap();
        out[i] = in[i];
    }
}
)cu";

const char* const constant_in_t1 = R"json({
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "[64, 128]"}]},
  "KernelSpecification": {
    "KernelName": "constant_in", "KernelFile": "constant_in.cu", "LocalSize": {"X": "block_size_x"},
    "ProblemSize": [100000],
    "Arguments": [
      {"Name": "out", "Type": "float", "AccessType": "WriteOnly", "Size": "ProblemSize[0]"},
      {"Name": "in", "Type": "float", "AccessType": "ReadOnly", "FillType": "Constant", "FillValue": 1.5,
       "Size": "ProblemSize[0]"},
      {"Name": "n", "Type": "int32", "MemoryType": "Scalar", "FillValue": "ProblemSize[0]"}
    ]
  }
})json";

class ConstantFillOnGpu : public test::GpuTest {};

} // namespace

TEST_F(ConstantFillOnGpu, EveryElementOfTheInputIsTheFillValue)
{
    std::ofstream(dir_.path() / "constant_in.cu") << constant_in_kernel;
    std::ofstream(dir_.path() / "constant_in.json") << constant_in_t1;
    const KernelSpec spec = load_spec(dir_.path() / "constant_in.json");
    const Problem problem = resolve_problems(spec, {}).front();
    const auto variants = enumerate_space(spec, problem, SpaceSelection::default_space).variants;
    const ArchTarget arch = first_arch();
    const auto compiled = compile_variants(spec, problem, variants, arch, CompileSettings{});
    const auto predictions = predict_variants(find_arch_spec(arch.number()), variants, compiled);
    MeasureSettings settings = measure_settings(std::chrono::seconds(60));
    settings.timing.max_seconds = 0.2;
    const auto results = measure_variants(spec, problem, variants, compiled, predictions, settings);
    ASSERT_EQ(results.size(), 2u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        SCOPED_TRACE(variants[i].key());
        ASSERT_TRUE(results[i].has_value());
        EXPECT_EQ(results[i]->status, "ok") << results[i]->error; // a trap would be a fault
    }
}
