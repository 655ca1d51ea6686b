// The compile stage on real kernels, through NVRTC (no GPU needed): registers, spills
// and the register cap as ptxas really applied it.
#include "compile/compile_variants.hpp"

#include "compile/nvrtc_compiler.hpp"
#include "support/test_support.hpp"
#include "support/variants.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using autotune::test::variant_with;
using ::testing::HasSubstr;

namespace {

class GemmCompile : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        spec_ = new KernelSpec(load_spec(autotune::test::source_dir() / "kernels" / "gemm.toml"));
        problem_ = new Problem(resolve_problem(*spec_, {}));
        space_ = new Space(enumerate_space(*spec_, *problem_, SpaceSelection::full));
    }
    static void TearDownTestSuite()
    {
        delete space_;
        delete problem_;
        delete spec_;
    }
    static CompiledVariant compile(const Variant& v, const std::string& arch = "sm_90")
    {
        CompileSettings settings;
        settings.project_root = autotune::test::source_dir();
        return compile_variant(make_compile_request(*spec_, *problem_, v, parse_arch(arch)), v.register_policy, settings);
    }
    static const Variant& gemm(std::int64_t bm, std::int64_t bn, std::int64_t tm, std::int64_t tn, std::int64_t max_threads,
                               std::int64_t min_blocks, std::int64_t maxrregcount)
    {
        return variant_with(*space_, {{"BM", bm}, {"BN", bn}, {"BK", 8}, {"TM", tm}, {"TN", tn}, {"VEC", 4},
                                      {"MAX_THREADS", max_threads}, {"MIN_BLOCKS", min_blocks},
                                      {"MAXRREGCOUNT", maxrregcount}});
    }
    static inline KernelSpec* spec_ = nullptr;
    static inline Problem* problem_ = nullptr;
    static inline Space* space_ = nullptr;
};

TEST_F(GemmCompile, ALowRegisterCapLowersRegistersAndForcesSpills)
{
    const CompiledVariant free = compile(gemm(128, 128, 8, 8, 0, 0, 0));
    const CompiledVariant capped = compile(gemm(128, 128, 8, 8, 0, 0, 32));
    ASSERT_EQ(free.status, CompileStatus::ok) << free.error;
    ASSERT_EQ(capped.status, CompileStatus::ok) << capped.error;
    EXPECT_GT(free.resources.registers, 64); // an 8×8 register tile needs far more than 32
    EXPECT_EQ(free.resources.spill_stores, 0);
    EXPECT_EQ(free.resources.register_cap_source, "none");
    EXPECT_LE(capped.resources.registers, 32);
    EXPECT_GT(capped.resources.spill_stores, 0);
    EXPECT_GT(capped.resources.spill_loads, 0);
    EXPECT_GT(capped.resources.stack_frame, 0);
    EXPECT_EQ(capped.resources.register_cap, 32);
    EXPECT_EQ(capped.resources.register_cap_source, "maxrregcount");
    EXPECT_NE(capped.sass_sha256, free.sass_sha256);
    EXPECT_THAT(capped.options, ::testing::Contains("--maxrregcount=32"));
}

TEST_F(GemmCompile, LaunchBoundsOverridingMaxrregcountRecordTheOverridingCap)
{
    // 256 threads × 2 blocks on an SM of 65536 registers: at most 128 per thread, and
    // ptxas replaces the file-level 64 with that.
    const CompiledVariant v = compile(gemm(64, 64, 4, 4, 256, 2, 64));
    ASSERT_EQ(v.status, CompileStatus::ok) << v.error;
    EXPECT_EQ(v.resources.maxrregcount_overridden, 64);
    EXPECT_EQ(v.resources.register_cap, 128);
    EXPECT_EQ(v.resources.register_cap_source, "launch_bounds");
    EXPECT_EQ(v.resources.launch_bound_max_threads, 256);
    EXPECT_LE(v.resources.registers, 128);
}

TEST_F(GemmCompile, MinBlocksThatCannotBeResidentAreFlagged)
{
    // 4 blocks of 1024 threads never fit an SM of 2048 threads: ptxas drops .minnctapersm.
    const CompiledVariant v = compile(gemm(128, 128, 4, 4, 1024, 4, 0));
    ASSERT_EQ(v.status, CompileStatus::ok) << v.error;
    EXPECT_TRUE(v.resources.min_blocks_ignored);
    const CompiledVariant fits = compile(gemm(128, 128, 4, 4, 1024, 2, 0));
    EXPECT_FALSE(fits.resources.min_blocks_ignored);
    EXPECT_EQ(fits.resources.register_cap, 32); // 65536 / (1024 × 2)
}

TEST_F(GemmCompile, ResultsCarryWhatReproducesTheCompile)
{
    const CompiledVariant v = compile(gemm(64, 64, 4, 4, 256, 0, 0));
    ASSERT_EQ(v.status, CompileStatus::ok) << v.error;
    EXPECT_EQ(v.template_path, "templates/gemm.cuh");
    EXPECT_EQ(v.name_expression, "autotune_kernels::gemm<64,64,8,4,4,4,256,0,0,0,0,0>");
    EXPECT_EQ(v.lowered_name, "_ZN16autotune_kernels4gemmILi64ELi64ELi8ELi4ELi4ELi4ELi256ELi0ELi0ELi0ELi0ELi0EEEvPKfS2_Pfiii");
    EXPECT_THAT(v.options, ::testing::ElementsAre("--gpu-architecture=sm_90", "--ptxas-options=-v", "-Itemplates"));
    EXPECT_EQ(v.resources.shared_static, 4 * 8 * (64 + 64));
    EXPECT_EQ(v.resources.barriers, 1);
    EXPECT_EQ(v.cubin_sha256.size(), 64u);
}

TEST_F(GemmCompile, NvvmSeesTheRegisterCapSoOnePtxCannotServeSeveralCaps)
{
    // Why the compile stage has no "one NVVM run, ptxas per cap" shortcut: with this
    // toolkit --maxrregcount changes the PTX itself, so reusing the uncapped PTX would
    // not give the code a capped build (or a consumer's nvcc -maxrregcount) gets.
    const CompiledVariant free = compile(gemm(64, 64, 4, 4, 0, 0, 0));
    const CompiledVariant capped = compile(gemm(64, 64, 4, 4, 0, 0, 64));
    ASSERT_EQ(free.status, CompileStatus::ok);
    ASSERT_EQ(capped.status, CompileStatus::ok);
    EXPECT_NE(free.ptx, capped.ptx);
}

TEST(CopyCompile, VectorWidthShowsInThePtxAndTheTailPathExists)
{
    const KernelSpec spec = load_spec(autotune::test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {{"N", 1000003}}); // not a multiple of 2 or 4
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    CompileSettings settings;
    auto ptx_for = [&](std::int64_t vec) {
        const Variant& v = variant_with(space, {{"VEC", vec}, {"MAX_THREADS", 0}, {"MAXRREGCOUNT", 0}});
        const CompiledVariant c = compile_variant(make_compile_request(spec, problem, v, parse_arch("sm_90")),
                                                  v.register_policy, settings);
        EXPECT_EQ(c.status, CompileStatus::ok) << c.error;
        return c.ptx;
    };
    const std::string vec4 = ptx_for(4);
    const std::string vec2 = ptx_for(2);
    const std::string vec1 = ptx_for(1);
    EXPECT_THAT(vec4, HasSubstr("ld.global.nc.v4"));
    EXPECT_THAT(vec4, HasSubstr("st.global.v4"));
    EXPECT_THAT(vec2, HasSubstr("ld.global.nc.v2"));
    EXPECT_THAT(vec1, ::testing::Not(HasSubstr(".v2")));
    EXPECT_THAT(vec1, ::testing::Not(HasSubstr(".v4")));
    // The tail: a scalar 32-bit load and store after the vector loop.
    for (const std::string* ptx : {&vec4, &vec2}) {
        EXPECT_THAT(*ptx, ::testing::ContainsRegex(R"(ld\.global\.nc\.(u32|b32|s32))"));
        EXPECT_THAT(*ptx, ::testing::ContainsRegex(R"(st\.global\.(u32|b32|s32))"));
    }
}

TEST(RegisterPolicyCompile, MaxnregNextToLaunchBoundsNeverReachesTheCompiler)
{
    const KernelSpec spec = load_spec(autotune::test::data_dir() / "register_policy" / "heavy.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    std::size_t removed = 0;
    for (const auto& r : space.removals)
        if (r.rule.find("__maxnreg__") != std::string::npos)
            removed = r.removed;
    EXPECT_EQ(removed, 2u); // MAXNREG=40 with bounds (128,0) and (128,4); (0,4) falls earlier, as min blocks alone

    CompileSettings settings;
    const auto compiled = compile_variants(spec, problem, space.variants, parse_arch("sm_90"), settings);
    for (std::size_t i = 0; i < compiled.size(); ++i) {
        EXPECT_EQ(compiled[i].status, CompileStatus::ok) << space.variants[i].key() << ": " << compiled[i].error;
        if (space.variants[i].register_policy.maxnreg > 0) {
            EXPECT_EQ(compiled[i].resources.register_cap_source, "maxnreg");
            EXPECT_EQ(compiled[i].resources.register_cap, 40);
            EXPECT_LE(compiled[i].resources.registers, 40);
        }
    }

    // The combination the space removed is one the compiler refuses.
    Variant both = space.variants.front();
    both.parameters = {{"BLOCK", 128}, {"WIDTH", 96}, {"MAX_THREADS", 128}, {"MIN_BLOCKS", 0}, {"MAXNREG", 40}};
    both.register_policy = {128, 0, 40, 0};
    const CompiledVariant refused =
        compile_variant(make_compile_request(spec, problem, both, parse_arch("sm_90")), both.register_policy, settings);
    EXPECT_EQ(refused.status, CompileStatus::compile_error);
    EXPECT_THAT(refused.error, HasSubstr("__maxnreg__"));
}

TEST(RegisterPolicyCompile, ACapBelowTheArchitecturesMinimumIsRaisedAndRecorded)
{
    const KernelSpec spec = load_spec(autotune::test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    const Variant& v = variant_with(space, {{"VEC", 4}, {"MAX_THREADS", 0}, {"MAXRREGCOUNT", 16}});
    const CompiledVariant c =
        compile_variant(make_compile_request(spec, problem, v, parse_arch("sm_90")), v.register_policy, {});
    ASSERT_EQ(c.status, CompileStatus::ok) << c.error;
    EXPECT_EQ(c.resources.cap_raised_from, 16);
    EXPECT_EQ(c.resources.register_cap, 24); // sm_90's lower bound, as ptxas states it
    EXPECT_THAT(c.resources.warnings, ::testing::Contains(HasSubstr("lower bound")));
}

TEST(BrokenTemplate, OnlyItsFailingVariantsAreCompileErrors)
{
    const KernelSpec spec = load_spec(autotune::test::data_dir() / "broken" / "broken.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    for (CompilerKind compiler : {CompilerKind::nvrtc, CompilerKind::nvcc}) {
        CompileSettings settings;
        settings.compiler = compiler;
        settings.nvcc = default_nvcc();
        const auto compiled = compile_variants(spec, problem, space.variants, parse_arch("sm_80"), settings);
        ASSERT_EQ(compiled.size(), 3u);
        EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error;
        EXPECT_EQ(compiled[1].status, CompileStatus::ok) << compiled[1].error;
        EXPECT_EQ(compiled[2].status, CompileStatus::compile_error);
        EXPECT_THAT(compiled[2].error, HasSubstr("V = 3 is broken on purpose")) << to_string(compiler);
        EXPECT_EQ(compiled[2].error.find('\n'), std::string::npos);
    }
}

} // namespace

TEST(CompilerOutput, BinaryBytesAndPtxasFailuresBecomeReadableText)
{
    // Source with bytes that are not UTF-8 (as from a binary file passed as a template),
    // and a kernel ptxas refuses (more static shared memory than sm_86 has): the log and
    // the error are valid UTF-8 without NUL, so JSON and the worker protocol take them.
    const auto readable = [](const CompileOutput& out) {
        for (const std::string* text : {&out.log, &out.error}) {
            EXPECT_EQ(text->find('\0'), std::string::npos) << *text;
            EXPECT_NO_THROW((void)nlohmann::json(*text).dump()) << *text;
        }
    };
    CompileRequest binary;
    binary.source = "\xFF\xFE\x01garbage \x80\x81 __global__ void k() {}\n";
    binary.name_expression = "k";
    binary.arch = parse_arch("sm_86");
    const CompileOutput b = compile_with_nvrtc(binary);
    EXPECT_FALSE(b.ok);
    EXPECT_FALSE(b.error.empty());
    readable(b);

    CompileRequest too_much_shared;
    too_much_shared.source =
        "extern \"C\" __global__ void k(float* o) { __shared__ float s[16384]; s[threadIdx.x] = o[0]; __syncthreads(); "
        "o[threadIdx.x] = s[(threadIdx.x + 1) % 16384]; }\n";
    too_much_shared.name_expression = "k";
    too_much_shared.arch = parse_arch("sm_86");
    const CompileOutput t = compile_with_nvrtc(too_much_shared);
    EXPECT_FALSE(t.ok);
    EXPECT_THAT(t.error, HasSubstr("shared"));
    EXPECT_EQ(t.error.rfind("ptxas", 0), 0u) << t.error; // the message starts with its text
    readable(t);
}
