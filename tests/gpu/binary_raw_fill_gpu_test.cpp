// A T1 file's BinaryRaw fill of an input, on a real GPU: every element the kernel reads is
// the file's. The kernel traps on any other value, so a random fill (or none) fails the
// variant instead of passing unnoticed. The arguments have no Name, as in KTT's tutorial.
// Skipped, with the reason, without a device.
#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "gpu/gpu_test.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <vector>

using namespace autotune;

namespace {

const char* const file_in_kernel = R"cu(
extern "C" __global__ void file_in(float* out, const float* in, int n)
{
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) {
        if (in[i] != 0.5f * static_cast<float>(i % 1000))
            __trap();
        out[i] = in[i];
    }
}
)cu";

const char* const file_in_t1 = R"json({
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "[64, 128]"}]},
  "KernelSpecification": {
    "KernelName": "file_in", "KernelFile": "file_in.cu", "LocalSize": {"X": "block_size_x"},
    "ProblemSize": [100000],
    "Arguments": [
      {"Type": "float", "AccessType": "WriteOnly", "MemoryType": "Vector", "Size": "ProblemSize[0]"},
      {"Type": "float", "AccessType": "ReadOnly", "MemoryType": "Vector", "FillType": "BinaryRaw",
       "DataSource": "in.bin", "Size": "ProblemSize[0]"},
      {"Type": "int32", "MemoryType": "Scalar", "FillValue": "ProblemSize[0]"}
    ]
  }
})json";

class BinaryRawFillOnGpu : public test::GpuTest {};

} // namespace

TEST_F(BinaryRawFillOnGpu, EveryElementOfTheInputIsTheFiles)
{
    std::ofstream(dir_.path() / "file_in.cu") << file_in_kernel;
    std::ofstream(dir_.path() / "file_in.json") << file_in_t1;
    std::vector<float> values(100000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = 0.5f * static_cast<float>(i % 1000);
    std::ofstream(dir_.path() / "in.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    const KernelSpec spec = load_spec(dir_.path() / "file_in.json");
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
