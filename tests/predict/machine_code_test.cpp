// The PTX's counts against the machine code ptxas really makes of it: a loop ptxas unrolls
// fully is code it copied, not code that runs more often.
#include "compile/cubin_info.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "arch/arch_target.hpp"
#include "predict/ptx_kernel.hpp"
#include "predict/warp_work.hpp"
#include "support/register_array_kernel.hpp"
#include "support/test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

namespace autotune {
namespace {

// for (k = 0; k < n; ++k) for (i = 0; i < 16; ++i) four dependent FMAs: n an argument,
// 16 in the code. ptxas (CUDA 13.0) unrolls the inner loop fully and keeps the outer one.
std::string nested_loops_ptx(const std::string& arch)
{
    return ".version 9.0\n.target " + arch + R"(
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .f32 %f<10>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u32 %r9, [k_param_1];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f1, [%rd4];
	mov.f32 %f2, %f1;
	mov.f32 %f3, %f1;
	mov.f32 %f4, %f1;
	mov.u32 %r1, 0;
$L__BB0_1:
	mov.u32 %r2, 0;
$L__BB0_2:
	fma.rn.f32 %f1, %f1, %f2, %f2;
	fma.rn.f32 %f2, %f2, %f1, %f1;
	fma.rn.f32 %f3, %f1, %f2, %f3;
	fma.rn.f32 %f4, %f2, %f3, %f4;
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p2, %r2, 16;
	@%p2 bra $L__BB0_2;
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p1, %r1, %r9;
	@%p1 bra $L__BB0_1;
	add.f32 %f5, %f3, %f4;
	st.global.f32 [%rd4], %f5;
	ret;
}
)";
}

class MachineCode : public ::testing::TestWithParam<std::string> {};

TEST_P(MachineCode, ALoopPtxasUnrolledFullyCountsItsWorkOnce)
{
    const std::string ptx = nested_loops_ptx(GetParam());
    const test::TempDir dir;
    std::ofstream(dir.path() / "loops.ptx") << ptx;
    const auto assembled = test::run_command((test::cuda_bin_dir() / "ptxas").string() + " -arch=" + GetParam() + " " +
                                             (dir.path() / "loops.ptx").string() + " -o " +
                                             (dir.path() / "loops.cubin").string());
    ASSERT_EQ(assembled.exit_code, 0) << assembled.err;
    const CubinInfo cubin = read_cubin(test::read_file(dir.path() / "loops.cubin"));
    const CubinFunctionInfo& k = find_function(cubin, "k");
    ASSERT_EQ(k.entry_loops, 1) << "ptxas kept both loops (or neither): this test needs the inner one unrolled";

    const WarpWork ptx_work = analyse_warp_work(find_ptx_kernel(ptx, "k"), {std::nullopt, 100});
    ASSERT_EQ(ptx_work.loops.size(), 2u);
    const double machine_instructions = static_cast<double>(k.entry_code_bytes / machine_instruction_bytes);
    // The machine code holds 16 copies of the inner body: over 4 times the PTX's static size.
    ASSERT_GT(machine_instructions, 4 * ptx_work.static_issue);

    // What runs is the PTX's work, give or take what ptxas adds or folds per instruction.
    WarpWork counted = ptx_work;
    count_machine_code(counted, machine_instructions, k.entry_loops);
    EXPECT_GT(counted.issue, 0.6 * ptx_work.issue);
    EXPECT_LT(counted.issue, 1.6 * ptx_work.issue);
    // Read as an even expansion (as if ptxas kept both loops), the copies would count as work.
    WarpWork even = ptx_work;
    count_machine_code(even, machine_instructions, 2);
    EXPECT_GT(even.issue, 4 * ptx_work.issue);
}

// A kernel compiled with NVRTC as autotune compiles it, and what the count makes of it:
// the PTX's work, the machine code read by its loops, and read as an even expansion.
struct Counted {
    CubinFunctionInfo machine;
    WarpWork ptx;
    WarpWork by_loops;
    WarpWork even;
};

Counted count(const std::string& source, const std::string& arch, const ParameterValues& values)
{
    CompileRequest request;
    request.source = source;
    request.name_expression = "k";
    request.arch = parse_arch(arch);
    request.extra_options = {"-use_fast_math"};
    const CompileOutput out = compile_with_nvrtc(request);
    if (!out.ok)
        throw std::runtime_error(out.error);
    Counted c;
    const CubinInfo cubin = read_cubin(out.cubin);
    c.machine = find_function(cubin, out.lowered_name);
    c.ptx = analyse_warp_work(find_ptx_kernel(out.ptx, out.lowered_name), values);
    const double instructions = static_cast<double>(c.machine.entry_code_bytes / machine_instruction_bytes);
    c.by_loops = c.ptx;
    count_machine_code(c.by_loops, instructions, c.machine.entry_loops, c.machine.entry_inner_loops);
    c.even = c.ptx;
    count_machine_code(c.even, instructions, c.machine.entry_loops);
    return c;
}

// A loop over a count the kernel is given: NVVM writes its body out 4 times with a loop
// for the rest, and ptxas writes the 4 out again (CUDA 13.0: 16 times, then 8 and 4). The
// copies are code, not work: each rsqrt and load the PTX runs stands for the machine
// loops' instructions per rsqrt and load.
TEST(MachineCodeLoops, ALoopPtxasWritesOutAgainCountsItsWorkOnce)
{
    for (const std::string arch : {"sm_75", "sm_86", "sm_90"}) { // sm_100's ptxas leaves this one as NVVM wrote it
        SCOPED_TRACE(arch);
        const Counted c = count(R"(
extern "C" __global__ void k(const float* p, float* out, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += rsqrtf(p[i] * threadIdx.x + 1.0f);
    out[threadIdx.x] = s;
})",
                                arch, {std::nullopt, std::nullopt, 64});
        // Spread evenly over the kernel, the copies would count as work.
        ASSERT_GT(c.even.issue, 2 * c.ptx.issue) << "ptxas did not write the loop out again: this test needs it to";
        EXPECT_GT(c.by_loops.issue, 0.6 * c.ptx.issue);
        EXPECT_LT(c.by_loops.issue, 1.6 * c.ptx.issue);
    }
}

// An array indexed by a partly unrolled loop's counter: ptxas keeps it in registers and
// reads and writes each element through a chain of predicated moves, inside the loop. The
// loop's code grew, not the kernel's evenly: read by its loops, the count grows with it.
TEST_P(MachineCode, AnArrayPtxasKeepsInRegistersCountsTheMovesInItsLoop)
{
    const Counted c = count(test::register_array_kernel, GetParam(), {std::nullopt, std::nullopt, 64});
    ASSERT_EQ(c.machine.frame_size, 0) << "ptxas kept the sums in local memory: this test needs them in registers";
    ASSERT_EQ(c.machine.entry_loops, static_cast<int>(c.ptx.loops.size()));
    EXPECT_GT(c.by_loops.issue, 1.5 * c.even.issue);
}

// Before and from sm_90 the machine code encodes branch targets differently.
INSTANTIATE_TEST_SUITE_P(Arch, MachineCode, ::testing::Values("sm_75", "sm_86", "sm_90", "sm_100"),
                         [](const auto& info) { return info.param; });

} // namespace
} // namespace autotune
