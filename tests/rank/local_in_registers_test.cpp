// A PTX local array ptxas kept in registers moves nothing through local memory: the facts
// a ranking reads from a compiled variant drop its local traffic where ptxas gave no stack
// frame, and keep it where the array stayed in memory.
#include "arch/arch_target.hpp"
#include "compile/compile_variants.hpp"
#include "predict/ptx_kernel.hpp"
#include "rank/rank_problem.hpp"
#include "support/register_array_kernel.hpp"

#include <gtest/gtest.h>

#include <string>

namespace autotune {
namespace {

struct Facts {
    WarpWork ptx;  // the PTX's own count
    RankFacts run; // what a ranking reads
};

Facts facts_of(const std::string& kernel)
{
    CompileRequest request;
    request.source = kernel;
    request.name_expression = "k";
    request.arch = parse_arch("sm_86");
    request.extra_options = {"-use_fast_math"};
    const CompiledVariant compiled = compile_variant(request, RegisterPolicy{}, CompileSettings{});
    if (compiled.status != CompileStatus::ok)
        throw std::runtime_error("the test kernel did not compile: " + compiled.error);
    Variant v;
    v.block = {64, 1, 1};
    v.grid = {68, 1, 1};
    Facts f;
    f.ptx = analyse_warp_work(find_ptx_kernel(compiled.ptx, compiled.lowered_name), {}, BlockShape{64, 1, 1},
                              GridShape{68, 1, 1});
    f.run = rank_facts_of_run({v}, {compiled}, {PredictionOutcome{}}, {}, nullptr, nullptr).front();
    return f;
}

// The PTX's local array of sums, which ptxas keeps in registers.
TEST(LocalInRegisters, AnArrayPtxasKeptInRegistersMovesNothingThroughLocalMemory)
{
    const Facts f = facts_of(test::register_array_kernel);
    ASSERT_EQ(f.run.resources.stack_frame, 0) << "ptxas kept the sums in local memory: this test needs them in registers";
    ASSERT_GT(f.ptx.local_wavefronts, 0) << "the PTX has no local array: this test needs one";
    ASSERT_TRUE(f.run.warp_work);
    EXPECT_EQ(f.run.warp_work->local_wavefronts, 0);
    EXPECT_EQ(f.run.warp_work->local_loads, 0);
    // The global loads and stores stay the LD/ST units' work.
    EXPECT_DOUBLE_EQ(f.run.warp_work->lsu_instructions, f.ptx.lsu_instructions - f.ptx.local_instructions);
    EXPECT_GT(f.run.warp_work->lsu_instructions, 0);
}

// An index the data chooses: the array stays in local memory, and so does its traffic.
TEST(LocalInRegisters, AnArrayInTheStackFrameKeepsItsLocalTraffic)
{
    const Facts f = facts_of(R"(
extern "C" __global__ void k(const int* which, float* out, int n) {
    float sums[16];
    for (int j = 0; j < 16; ++j) sums[j] = 0;
    for (int i = 0; i < n; ++i) sums[which[i] & 15] += 1.0f;
    for (int j = 0; j < 16; ++j) out[j * blockDim.x + threadIdx.x] = sums[j];
})");
    ASSERT_GT(f.run.resources.stack_frame, 0) << "ptxas kept the sums in registers: this test needs a stack frame";
    ASSERT_TRUE(f.run.warp_work);
    EXPECT_GT(f.run.warp_work->local_wavefronts, 0);
    EXPECT_EQ(f.run.warp_work->local_wavefronts, f.ptx.local_wavefronts);
}

} // namespace
} // namespace autotune
