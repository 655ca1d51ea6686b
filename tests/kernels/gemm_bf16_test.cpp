// The built-in gemm_bf16 (kernels/gemm_bf16.toml, templates/gemm_bf16.cuh): its space
// covers large and decode-time (skinny) M, and a sample of its variants compiles with
// NVRTC for sm_80, sm_90 and sm_100 into tensor-core code — HMMA fed by LDSM (ldmatrix)
// from shared memory filled by LDGSTS (cp.async) — without spilling. No GPU needed.
#include "compile/compile_variants.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/sass.hpp"
#include "support/test_support.hpp"
#include "support/variants.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

KernelSpec gemm_bf16_spec() { return load_spec(test::source_dir() / "kernels" / "gemm_bf16.toml"); }

Problem problem_with_m(const KernelSpec& spec, std::int64_t m)
{
    return resolve_problem(spec, {{"M", m}});
}

} // namespace

TEST(GemmBf16Space, EveryDefaultVariantTilesTheProblemItLaunches)
{
    const KernelSpec spec = gemm_bf16_spec();
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    ASSERT_FALSE(space.variants.empty());
    for (const Variant& v : space.variants) {
        SCOPED_TRACE(v.key());
        const std::int64_t bm = v.value("BM"), bn = v.value("BN"), bk = v.value("BK");
        const std::int64_t warps = (bm / v.value("WM")) * (bn / v.value("WN"));
        EXPECT_EQ(4096 % bn, 0);
        EXPECT_EQ(4096 % bk, 0);
        EXPECT_EQ(v.value("WM") % 16, 0);
        EXPECT_EQ(v.value("WN") % 16, 0);
        EXPECT_EQ(v.block, (Dim3{32 * warps, 1, 1}));
        EXPECT_EQ(v.grid, (Dim3{4096 / bn, 4096 / bm, 1}));
        // The stages of the A and B slices, each row BK bf16, padded by 16 bytes unless swizzled.
        const std::int64_t row_bytes = 2 * bk + (v.value("SWIZZLE") == 1 ? 0 : 16);
        EXPECT_EQ(v.dynamic_shared_bytes, v.value("STAGES") * (bm + bn) * row_bytes);
    }
}

TEST(GemmBf16Space, AnyMRunsWithSmallRowTilesAndARaggedLastTile)
{
    // Decode-time shapes: M is predicated in the kernel, so no M is excluded, the grid
    // rounds up, and 16- and 32-row tiles stay in the default space.
    const KernelSpec spec = gemm_bf16_spec();
    for (const std::int64_t m : {1, 7, 16, 32, 64, 100, 128, 256}) {
        SCOPED_TRACE("M=" + std::to_string(m));
        const Space space = enumerate_space(spec, problem_with_m(spec, m), SpaceSelection::default_space);
        ASSERT_FALSE(space.variants.empty());
        bool bm16 = false, bm32 = false;
        for (const Variant& v : space.variants) {
            const std::int64_t bm = v.value("BM");
            bm16 = bm16 || bm == 16;
            bm32 = bm32 || bm == 32;
            EXPECT_EQ(v.grid.y, (m + bm - 1) / bm) << v.key();
        }
        EXPECT_TRUE(bm16);
        EXPECT_TRUE(bm32);
    }
}

TEST(GemmBf16Space, NAndKMustBeWholeTiles)
{
    const KernelSpec spec = gemm_bf16_spec();
    // N = 4160 = 65·64: 128- and 256-column tiles do not divide it; K = 4128 = 129·32: 64 does not.
    const Space space = enumerate_space(spec, resolve_problem(spec, {{"N", 4160}, {"K", 4128}}), SpaceSelection::full);
    ASSERT_FALSE(space.variants.empty());
    for (const Variant& v : space.variants) {
        EXPECT_EQ(4160 % v.value("BN"), 0) << v.key();
        EXPECT_EQ(v.value("BK"), 32) << v.key();
    }
}

class GemmBf16Compile : public ::testing::TestWithParam<const char*> {
protected:
    static void SetUpTestSuite()
    {
        spec_ = new KernelSpec(gemm_bf16_spec());
        problem_ = new Problem(resolve_problem(*spec_, {}));
        space_ = new Space(enumerate_space(*spec_, *problem_, SpaceSelection::full));
    }
    static void TearDownTestSuite()
    {
        delete space_;
        delete problem_;
        delete spec_;
    }
    static const Variant& variant(std::int64_t bm, std::int64_t bn, std::int64_t bk, std::int64_t wm, std::int64_t wn,
                                  std::int64_t stages, std::int64_t swizzle)
    {
        return test::variant_with(*space_, {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"WM", wm}, {"WN", wn}, {"STAGES", stages},
                                            {"SWIZZLE", swizzle}, {"MAX_THREADS", 0}, {"MIN_BLOCKS", 0}});
    }
    static inline KernelSpec* spec_ = nullptr;
    static inline Problem* problem_ = nullptr;
    static inline Space* space_ = nullptr;
};

// A sample spread over the space: the default-like 128×128×32 tile of four 64×64 warps
// (128 accumulators a thread, the most the space allows), eight 32×64 warps on 128×128
// with BK 64 and four stages (96 KB of shared memory), a skinny-M 16×128 tile, and the
// padded layout with two stages.
TEST_P(GemmBf16Compile, ASampleCompilesToTensorCoreCodeWithoutSpills)
{
    const std::vector<Variant> sample{variant(128, 128, 32, 64, 64, 3, 1), variant(128, 128, 64, 32, 64, 4, 1),
                                      variant(16, 128, 64, 16, 32, 4, 1), variant(64, 64, 32, 32, 32, 2, 0)};
    CompileSettings settings;
    settings.project_root = test::source_dir();
    const auto compiled = compile_variants(*spec_, *problem_, sample, parse_arch(GetParam()), settings);
    ASSERT_EQ(compiled.size(), sample.size());
    const std::string tool = test::cuobjdump();
    for (std::size_t i = 0; i < sample.size(); ++i) {
        SCOPED_TRACE(sample[i].key());
        const CompiledVariant& c = compiled[i];
        ASSERT_EQ(c.status, CompileStatus::ok) << c.error << "\n" << c.log;
        EXPECT_EQ(c.resources.spill_stores, 0);
        EXPECT_EQ(c.resources.spill_loads, 0);
        EXPECT_EQ(c.resources.stack_frame, 0);
        EXPECT_EQ(c.resources.shared_static, 0); // all of it is dynamic, sized by the launch
        // The pointer type is cuda_bf16.h's, so a consumer's nvcc build links the same symbol.
        EXPECT_THAT(c.lowered_name, HasSubstr("PK13__nv_bfloat16"));
        if (tool.empty())
            continue;
        const std::string sass = test::sass_of(c.cubin);
        EXPECT_THAT(sass, HasSubstr("HMMA.16816.F32.BF16")); // mma.sync.m16n8k16 bf16 → f32
        EXPECT_THAT(sass, HasSubstr("LDSM.16.M88.4"));       // ldmatrix.x4
        EXPECT_THAT(sass, HasSubstr("LDGSTS.E.BYPASS.128")); // cp.async.cg, 16 bytes
    }
    if (tool.empty())
        GTEST_SKIP() << "cuobjdump is neither configured (AUTOTUNE_CUOBJDUMP) nor in " << test::cuda_bin_dir()
                     << ": compiled without spills, machine code not inspected";
}

INSTANTIATE_TEST_SUITE_P(Architectures, GemmBf16Compile, ::testing::Values("sm_80", "sm_90", "sm_100"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });
