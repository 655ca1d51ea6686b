// Users' kernels as they are written in the wild, compiled through NVRTC (no GPU needed):
// parameters as macros (Kernel Tuner's convention, including the block_size_*, grid_size_*
// and kernel_tuner macros it defines), extern "C" and C++-mangled __global__ functions,
// 2-D and 3-D blocks and grids, and problem sizes baked in as macros.
#include "compile/compile_variants.hpp"

#include "compile/compile_request.hpp"
#include "space/enumerate_space.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

namespace {

// The arguments and cost every spec below shares: one float output, one float input.
const char* const common_arguments = R"toml(
[[arguments]]
name = "out"
buffer = "float"
size = "N"
access = "output"

[[arguments]]
name = "in"
buffer = "float"
size = "N"

[cost]
flops = "N"
bytes = "8 * N"
)toml";

class UserKernel : public ::testing::Test {
protected:
    // Writes the kernel and its spec (`spec_head` plus the shared arguments and cost).
    KernelSpec write(const std::string& kernel, const std::string& spec_head)
    {
        std::ofstream(dir.path() / "kernel.cu") << kernel;
        std::ofstream(dir.path() / "kernel.toml") << spec_head << common_arguments;
        return load_spec(dir.path() / "kernel.toml");
    }
    // Every variant of the default space, compiled for `arch`.
    std::vector<CompiledVariant> compile_all(const KernelSpec& spec, const std::string& arch = "sm_90")
    {
        const Problem problem = resolve_problem(spec, {});
        space = enumerate_space(spec, problem, SpaceSelection::default_space);
        return compile_variants(spec, problem, space.variants, parse_arch(arch), CompileSettings{});
    }
    static std::vector<std::string> options_of(const CompiledVariant& c) { return c.options; }

    test::TempDir dir;
    Space space;
};

TEST_F(UserKernel, KernelTunerStyleMacrosExternCAndATwoDimensionalGrid)
{
    const KernelSpec spec = write(R"cu(
extern "C" __global__ void stencil(float* out, const float* in)
{
    const int x = blockIdx.x * block_size_x * tile_size_x + threadIdx.x;
    const int y = blockIdx.y * block_size_y + threadIdx.y;
#pragma unroll
    for (int t = 0; t < tile_size_x; t++)
        out[y * WIDTH + x + t * block_size_x] = 2.0f * in[y * WIDTH + x + t * block_size_x];
}
)cu",
                                  R"toml(name = "stencil"
[kernel]
template = "kernel.cu"
function = "stencil"
parameters_as = "preprocessor_definitions"
defines = { WIDTH = "W" }
[parameters]
block_size_x = [32, 64]
block_size_y = [2, 4]
tile_size_x = [1, 2]
[problem]
W = 1024
H = 256
N = 262144
[launch]
grid = ["W / (block_size_x * tile_size_x)", "H / block_size_y"]
block = ["block_size_x", "block_size_y"]
)toml");
    const auto compiled = compile_all(spec);
    ASSERT_EQ(compiled.size(), 8u);
    for (std::size_t i = 0; i < compiled.size(); ++i) {
        EXPECT_EQ(compiled[i].status, CompileStatus::ok) << compiled[i].error;
        EXPECT_EQ(compiled[i].lowered_name, "stencil"); // extern "C": the name as written
    }
    // block_size_x=64, block_size_y=4, tile_size_x=2: a 2-D grid dividing the problem.
    const Variant& last = space.variants.back();
    EXPECT_EQ(last.grid.x, 1024 / 128);
    EXPECT_EQ(last.grid.y, 256 / 4);
    const auto options = options_of(compiled.back());
    for (const char* option : {"-Dblock_size_x=64", "-Dblock_size_y=4", "-Dtile_size_x=2", "-DWIDTH=1024",
                               "-Dblock_size_z=1", "-Dgrid_size_x=8", "-Dgrid_size_y=64", "-Dgrid_size_z=1",
                               "-Dkernel_tuner=1"})
        EXPECT_THAT(options, Contains(std::string(option)));
    // A parameter named block_size_x is defined once, with its own value.
    EXPECT_EQ(std::count_if(options.begin(), options.end(),
                            [](const std::string& o) { return o.rfind("-Dblock_size_x=", 0) == 0; }),
              1);
}

TEST_F(UserKernel, PlainAndNamespacedGlobalFunctionsGetTheirMangledNames)
{
    const std::string spec_tail = R"toml(
parameters_as = "preprocessor_definitions"
[parameters]
BLOCK = [128, 256]
[problem]
N = 65536
[launch]
grid = ["N / BLOCK"]
block = ["BLOCK"]
)toml";
    const KernelSpec plain = write("__global__ void scale(float* out, const float* in)\n"
                                   "{ const int i = blockIdx.x * BLOCK + threadIdx.x; out[i] = 2.0f * in[i]; }\n",
                                   "name = \"plain\"\n[kernel]\ntemplate = \"kernel.cu\"\nfunction = \"scale\"" + spec_tail);
    for (const auto& c : compile_all(plain)) {
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        EXPECT_EQ(c.lowered_name, "_Z5scalePfPKf");
    }
    const KernelSpec namespaced = write("namespace mine {\n__global__ void scale(float* out, const float* in)\n"
                                        "{ const int i = blockIdx.x * BLOCK + threadIdx.x; out[i] = 2.0f * in[i]; }\n}\n",
                                        "name = \"namespaced\"\n[kernel]\ntemplate = \"kernel.cu\"\n"
                                        "function = \"mine::scale\"" + spec_tail);
    for (const auto& c : compile_all(namespaced)) {
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        EXPECT_EQ(c.lowered_name, "_ZN4mine5scaleEPfPKf");
    }
    const KernelSpec in_block = write("extern \"C\" {\n__global__ void scale(float* out, const float* in)\n"
                                      "{ const int i = blockIdx.x * BLOCK + threadIdx.x; out[i] = 2.0f * in[i]; }\n}\n",
                                      "name = \"in_block\"\n[kernel]\ntemplate = \"kernel.cu\"\nfunction = \"scale\"" +
                                          spec_tail);
    for (const auto& c : compile_all(in_block)) {
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        EXPECT_EQ(c.lowered_name, "scale");
    }
}

TEST_F(UserKernel, ThreeDimensionalBlocksAndProblemSizesBakedInAsMacros)
{
    // The kernel refuses to compile unless the tuner defines the problem's sizes.
    const KernelSpec spec = write(R"cu(
#if !defined(NX) || !defined(NY) || !defined(NZ)
#error "the problem sizes NX, NY, NZ must be defined"
#endif
__global__ void box(float* out, const float* in)
{
    const int x = blockIdx.x * block_size_x + threadIdx.x;
    const int y = blockIdx.y * block_size_y + threadIdx.y;
    const int z = blockIdx.z * block_size_z + threadIdx.z;
    out[(z * NY + y) * NX + x] = 2.0f * in[(z * NY + y) * NX + x];
}
)cu",
                                  R"toml(name = "box"
[kernel]
template = "kernel.cu"
function = "box"
parameters_as = "preprocessor_definitions"
defines = ["NX", "NY", "NZ"]
[parameters]
block_size_x = [8, 32]
block_size_y = [2, 4]
block_size_z = [1, 2]
[problem]
NX = 64
NY = 32
NZ = 16
N = 32768
[launch]
grid = ["NX / block_size_x", "NY / block_size_y", "NZ / block_size_z"]
block = ["block_size_x", "block_size_y", "block_size_z"]
)toml");
    const auto compiled = compile_all(spec);
    ASSERT_EQ(compiled.size(), 8u);
    for (const auto& c : compiled) {
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        EXPECT_THAT(c.options, Contains(std::string("-DNX=64")));
        EXPECT_THAT(c.options, Contains(std::string("-DNZ=16")));
    }
    EXPECT_EQ(space.variants.back().block, (Dim3{32, 4, 2}));
    EXPECT_EQ(space.variants.back().grid, (Dim3{2, 8, 8}));

    // Without the defines the kernel's own #error says what is missing.
    std::string text = test::read_file(dir.path() / "kernel.toml");
    text.erase(text.find("defines = "), std::string("defines = [\"NX\", \"NY\", \"NZ\"]\n").size());
    std::ofstream(dir.path() / "kernel.toml") << text;
    const auto undefined = compile_all(load_spec(dir.path() / "kernel.toml"));
    EXPECT_EQ(undefined.front().status, CompileStatus::compile_error);
    EXPECT_THAT(undefined.front().error, HasSubstr("NX, NY, NZ must be defined"));
}

TEST_F(UserKernel, KernelTunerMacrosFollowTheLaunchWhenTheBlockIsNotAParameter)
{
    // Kernel Tuner defines block_size_x from the launch and kernel_tuner itself; a kernel
    // that falls back to its own block size outside the tuner must see the launch's.
    const KernelSpec spec = write(R"cu(
#ifndef kernel_tuner
#define block_size_x 256
#endif
#if block_size_x != THREADS
#error "block_size_x is not the launch's block"
#endif
#if grid_size_x * block_size_x * ITEMS < TOTAL
#error "grid_size_x does not cover the problem"
#endif
extern "C" __global__ void add(float* out, const float* in)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
    for (int k = 0; k < ITEMS; ++k, i += grid_size_x * block_size_x)
        out[i] = in[i] + 1.0f;
}
)cu",
                                  R"toml(name = "add"
[kernel]
template = "kernel.cu"
function = "add"
parameters_as = "preprocessor_definitions"
defines = { TOTAL = "N" }
[parameters]
THREADS = [128, 256]
ITEMS = [1, 4]
[problem]
N = 1048576
[launch]
grid = ["ceil_div(N, THREADS * ITEMS)"]
block = ["THREADS"]
)toml");
    const auto compiled = compile_all(spec);
    ASSERT_EQ(compiled.size(), 4u);
    for (const auto& c : compiled)
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
}

TEST_F(UserKernel, TemplateKernelsGetTheSpecsDefinesButNotKernelTunersMacros)
{
    const KernelSpec spec = write(R"cu(
#ifdef kernel_tuner
#error "kernel_tuner is Kernel Tuner's macro, for kernels whose parameters are macros"
#endif
template <int BLOCK>
__global__ void scale(float* out, const float* in)
{
    static_assert(SIZE == 65536, "SIZE is the problem's N");
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    out[i] = 2.0f * in[i];
}
)cu",
                                  R"toml(name = "templated"
[kernel]
template = "kernel.cu"
function = "scale"
template_arguments = ["BLOCK"]
defines = { SIZE = "N" }
[parameters]
BLOCK = [128, 256]
[problem]
N = 65536
[launch]
grid = ["N / BLOCK"]
block = ["BLOCK"]
)toml");
    for (const auto& c : compile_all(spec)) {
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        EXPECT_THAT(c.options, Contains(std::string("-DSIZE=65536")));
        EXPECT_THAT(c.options, Not(Contains(HasSubstr("block_size_x"))));
    }
}

TEST_F(UserKernel, ADefineThatIsNotAnIntegerIsNamed)
{
    const KernelSpec spec = write("extern \"C\" __global__ void k(float* out, const float* in) {}\n",
                                  R"toml(name = "k"
[kernel]
template = "kernel.cu"
function = "k"
parameters_as = "preprocessor_definitions"
defines = { HALF = "N / BLOCK / 3" }
[parameters]
BLOCK = [128]
[problem]
N = 1024
[launch]
grid = ["N / BLOCK"]
block = ["BLOCK"]
)toml");
    const Problem problem = resolve_problem(spec, {});
    const Space s = enumerate_space(spec, problem, SpaceSelection::full);
    EXPECT_THAT([&] { (void)make_compile_request(spec, problem, s.variants.front(), parse_arch("sm_90")); },
                ::testing::ThrowsMessage<SpecError>(HasSubstr("defines.HALF: 'N / BLOCK / 3'")));
}

// Kernel Tuner's convolution with large tiles declares more static shared memory than sm_86
// allows (48 KiB): a compile error, which says how much and what the limit is.
TEST_F(UserKernel, StaticSharedMemoryOverTheArchitecturesLimitIsACompileErrorSayingHowMuch)
{
    const KernelSpec spec = write(R"cu(
extern "C" __global__ void stage(float* out, const float* in)
{
    __shared__ float tile[ELEMENTS];
    for (int i = threadIdx.x; i < ELEMENTS; i += blockDim.x)
        tile[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = tile[ELEMENTS - 1 - threadIdx.x];
}
)cu",
                                  R"toml(name = "stage"
[kernel]
template = "kernel.cu"
function = "stage"
parameters_as = "preprocessor_definitions"
[parameters]
ELEMENTS = [12287, 12288, 12289] # under, at and 4 bytes over 48 KiB
[problem]
N = 12289
[launch]
grid = ["1"]
block = ["128"]
)toml");
    const auto compiled = compile_all(spec, "sm_86");
    ASSERT_EQ(compiled.size(), 3u);
    EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error;
    EXPECT_EQ(compiled[0].resources.shared_static, 12287 * 4);
    EXPECT_EQ(compiled[1].status, CompileStatus::ok) << compiled[1].error;
    EXPECT_EQ(compiled[1].resources.shared_static, 49152);
    EXPECT_EQ(compiled[2].status, CompileStatus::compile_error);
    EXPECT_EQ(compiled[2].error, "entry function 'stage' uses 49156 bytes of static shared memory, over sm_86's limit "
                                 "of 49152 (ptxas: too much shared data)");
    EXPECT_EQ(compiled[2].log.find('\0'), std::string::npos); // NVRTC's log parts are joined without NULs
}

// A kernel whose parameters the spec's arguments do not fit (a precision macro the spec
// cannot see picks double for some variants) is a compile error for those variants, naming
// the parameter: it cannot be launched as the spec says. The variants it fits compile.
TEST_F(UserKernel, AVariantWhoseParametersTheArgumentsDoNotFitIsACompileErrorNamingTheParameter)
{
    std::ofstream(dir.path() / "kernel.cu") << R"cu(
#if WIDE
typedef double real;
#else
typedef float real;
#endif
extern "C" __global__ void scale(float* out, const float* in)
{
    out[threadIdx.x] = in[threadIdx.x];
}
extern "C" __global__ void scale_by(float* out, const float* in, real factor)
{
    out[threadIdx.x] = factor * in[threadIdx.x];
}
)cu";
    // The shared arguments (out, in) first, then the scalar, as the kernel takes them.
    std::ofstream(dir.path() / "kernel.toml") << R"toml(name = "scale_by"
[kernel]
template = "kernel.cu"
function = "scale_by"
parameters_as = "preprocessor_definitions"
[parameters]
WIDE = [0, 1]
[problem]
N = 128
[launch]
grid = ["1"]
block = ["128"]
)toml" << common_arguments << R"toml(
[[arguments]]
name = "factor"
scalar = "float"
value = "2"
)toml";
    const auto compiled = compile_all(load_spec(dir.path() / "kernel.toml"), "sm_86");
    ASSERT_EQ(compiled.size(), 2u);
    EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error;
    EXPECT_EQ(compiled[1].status, CompileStatus::compile_error);
    EXPECT_EQ(compiled[1].error, "the kernel's parameters do not match the spec's arguments: the kernel's parameter 3 "
                                 "is 8 bytes (.f64), and the spec's argument factor (float) gives 4 bytes (.f32)");
}

} // namespace
