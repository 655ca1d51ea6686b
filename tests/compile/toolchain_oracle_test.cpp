// Oracles nobody here wrote, on a sample of GEMM variants for sm_80, sm_90 and sm_100:
// (a) the standalone ptxas, run on the PTX the tuner produced with the recorded
//     options, reports the same registers and spills as the tuner;
// (b) nvcc -cubin on the same instantiation: with nvcc's defaults the code differs
//     (cicc's 32-bit shared pointers; docs/fidelity.md) and the agreement is reported;
//     with -Xcicc=--sharedmem32=0 the machine code must be identical. That flag is
//     undocumented: this test is how a new toolkit tells us whether it still holds.
#include "compile/compile_variants.hpp"
#include "compile/ptxas_log.hpp"

#include "support/test_support.hpp"
#include "support/variants.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using autotune::test::variant_with;

namespace {

struct Sample {
    std::string arch;
    std::int64_t bm, bn, bk, tm, tn, vec, max_threads, min_blocks, maxrregcount;
};

const std::vector<Sample> samples{
    {"sm_80", 64, 64, 8, 4, 4, 4, 0, 0, 0},     {"sm_80", 128, 64, 16, 8, 4, 1, 256, 2, 0},
    {"sm_80", 128, 128, 8, 8, 8, 4, 0, 0, 64},  {"sm_90", 64, 128, 8, 4, 8, 4, 256, 0, 0},
    {"sm_90", 128, 128, 16, 8, 8, 4, 0, 0, 0},  {"sm_90", 64, 64, 8, 4, 4, 1, 256, 2, 64},
    {"sm_100", 128, 64, 8, 8, 4, 4, 0, 0, 0},   {"sm_100", 64, 64, 16, 4, 4, 4, 256, 2, 0},
    {"sm_100", 128, 128, 8, 8, 8, 1, 0, 0, 96},
};

class ToolchainOracle : public ::testing::Test {
protected:
    KernelSpec spec = load_spec(autotune::test::source_dir() / "kernels" / "gemm.toml");
    Problem problem = resolve_problem(spec, {});
    Space space = enumerate_space(spec, problem, SpaceSelection::full);

    const Variant& variant(const Sample& s)
    {
        return variant_with(space, {{"BM", s.bm}, {"BN", s.bn}, {"BK", s.bk}, {"TM", s.tm}, {"TN", s.tn},
                                    {"VEC", s.vec}, {"MAX_THREADS", s.max_threads}, {"MIN_BLOCKS", s.min_blocks},
                                    {"MAXRREGCOUNT", s.maxrregcount}});
    }
    CompiledVariant compile(const Sample& s, CompilerKind compiler, std::vector<std::string> nvcc_flags = {})
    {
        CompileSettings settings;
        settings.compiler = compiler;
        settings.nvcc_flags = std::move(nvcc_flags);
        settings.nvcc = default_nvcc();
        const Variant& v = variant(s);
        return compile_variant(make_compile_request(spec, problem, v, parse_arch(s.arch)), v.register_policy, settings);
    }
};

TEST_F(ToolchainOracle, StandalonePtxasAgreesOnRegistersAndSpills)
{
    autotune::test::TempDir dir;
    for (const Sample& s : samples) {
        const CompiledVariant tuned = compile(s, CompilerKind::nvrtc);
        ASSERT_EQ(tuned.status, CompileStatus::ok) << tuned.error;
        const auto ptx = dir.path() / "variant.ptx";
        std::ofstream(ptx) << tuned.ptx;
        std::vector<std::string> argv{(autotune::test::cuda_bin_dir() / "ptxas").string(), "-v",
                                      "-arch=" + s.arch, ptx.string(), "-o", (dir.path() / "variant.cubin").string()};
        if (s.maxrregcount > 0)
            argv.push_back(fmt::format("-maxrregcount={}", s.maxrregcount));
        const ProcessResult ptxas = run_process(argv);
        ASSERT_EQ(ptxas.exit_code, 0) << ptxas.output;
        const PtxasReport report = parse_ptxas_log(ptxas.output, tuned.lowered_name);
        ASSERT_TRUE(report.found) << ptxas.output;
        const std::string what = s.arch + " " + tuned.name_expression;
        EXPECT_EQ(report.registers, tuned.resources.registers) << what;
        EXPECT_EQ(report.spill_stores, tuned.resources.spill_stores) << what;
        EXPECT_EQ(report.spill_loads, tuned.resources.spill_loads) << what;
        EXPECT_EQ(report.stack_frame, tuned.resources.stack_frame) << what;
    }
}

TEST_F(ToolchainOracle, NvccOnTheSameInstantiationIsComparedAndTheAgreementReported)
{
    std::size_t same_registers = 0, same_code = 0;
    for (const Sample& s : samples) {
        const CompiledVariant tuned = compile(s, CompilerKind::nvrtc);
        const CompiledVariant shipped = compile(s, CompilerKind::nvcc);
        ASSERT_EQ(tuned.status, CompileStatus::ok) << tuned.error;
        ASSERT_EQ(shipped.status, CompileStatus::ok) << shipped.error;
        EXPECT_EQ(shipped.lowered_name, tuned.lowered_name);
        EXPECT_EQ(shipped.resources.register_cap, tuned.resources.register_cap);
        same_registers += shipped.resources.registers == tuned.resources.registers;
        same_code += shipped.sass_sha256 == tuned.sass_sha256;
        std::cout << fmt::format("{} {}: registers nvrtc {} nvcc {}, machine code {}\n", s.arch, tuned.name_expression,
                                 tuned.resources.registers, shipped.resources.registers,
                                 shipped.sass_sha256 == tuned.sass_sha256 ? "identical" : "differs");
    }
    RecordProperty("registers_agree", static_cast<int>(same_registers));
    RecordProperty("machine_code_agrees", static_cast<int>(same_code));
    RecordProperty("sample", static_cast<int>(samples.size()));
    std::cout << fmt::format("nvrtc vs nvcc: registers agree on {} of {}, machine code on {} of {}\n", same_registers,
                             samples.size(), same_code, samples.size());
}

TEST_F(ToolchainOracle, NvccWithSixtyFourBitSharedPointersBuildsTheTunedMachineCode)
{
    for (const Sample& s : samples) {
        const CompiledVariant tuned = compile(s, CompilerKind::nvrtc);
        const CompiledVariant shipped = compile(s, CompilerKind::nvcc, {nvcc_flag_matching_nvrtc});
        ASSERT_EQ(shipped.status, CompileStatus::ok) << shipped.error;
        EXPECT_EQ(shipped.sass_sha256, tuned.sass_sha256) << s.arch << " " << tuned.name_expression;
        EXPECT_EQ(shipped.resources.registers, tuned.resources.registers);
        EXPECT_EQ(shipped.resources.spill_stores, tuned.resources.spill_stores);
        EXPECT_THAT(shipped.options, ::testing::Contains(nvcc_flag_matching_nvrtc));
    }
}

// gemm_bf16 takes __nv_bfloat16 pointers. NVRTC's IR gives that type its 2-byte layout
// even where the source only declares it, and with a sized element type NVVM folds the
// kernel's byte arithmetic on A and B into other address code: with a mere declaration,
// nvcc (even with the flag) built other machine code on every arch, same registers. The
// template includes cuda_bf16.h for nvcc so that both compilers see the complete type.
TEST(ToolchainOracleGemmBf16, NvccWithSixtyFourBitSharedPointersBuildsTheTunedMachineCode)
{
    const KernelSpec spec = load_spec(autotune::test::source_dir() / "kernels" / "gemm_bf16.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    const auto variant = [&](std::int64_t bm, std::int64_t bn, std::int64_t bk, std::int64_t wm, std::int64_t wn,
                             std::int64_t stages) -> const Variant& {
        return variant_with(space, {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"WM", wm}, {"WN", wn}, {"STAGES", stages},
                                    {"SWIZZLE", 1}, {"MAX_THREADS", 0}, {"MIN_BLOCKS", 0}});
    };
    // The first variants of results/sm_*/gemm_bf16.json (the 128×128 tiles agreed even
    // with the declaration alone).
    const std::vector<const Variant*> sample{&variant(16, 128, 32, 16, 32, 3), &variant(16, 128, 64, 16, 32, 3)};
    for (const char* arch : {"sm_80", "sm_90"}) {
        for (const Variant* v : sample) {
            const CompileRequest request = make_compile_request(spec, problem, *v, parse_arch(arch));
            CompileSettings settings;
            const CompiledVariant tuned = compile_variant(request, v->register_policy, settings);
            settings.compiler = CompilerKind::nvcc;
            settings.nvcc = default_nvcc();
            settings.nvcc_flags = {nvcc_flag_matching_nvrtc};
            const CompiledVariant shipped = compile_variant(request, v->register_policy, settings);
            ASSERT_EQ(tuned.status, CompileStatus::ok) << tuned.error;
            ASSERT_EQ(shipped.status, CompileStatus::ok) << shipped.error;
            EXPECT_EQ(shipped.sass_sha256, tuned.sass_sha256) << arch << " " << tuned.name_expression;
            EXPECT_EQ(shipped.resources.registers, tuned.resources.registers) << arch << " " << tuned.name_expression;
        }
    }
}

} // namespace
