// Walking sample threads through a kernel's PTX: loops that start at a thread
// index, the remainder and main parts of a partly unrolled loop, parameter
// bounds, 32-bit integer semantics, and where the walk must give up (a loop the
// data ends, too long a walk).
#include "predict/ptx_kernel.hpp"
#include "predict/thread_walk.hpp"
#include "predict/warp_work.hpp"
#include "support/ptx_entry.hpp"

#include <gtest/gtest.h>
#include <string>

using namespace autotune;

namespace {

// The position of the first instruction whose opcode and first operand are
// these.
std::size_t instruction_at(const PtxKernel& k, const std::string& opcode, const std::string& first)
{
    for (std::size_t i = 0; i < k.body.size(); ++i)
        if (k.body[i].opcode == opcode && !k.body[i].operands.empty() && k.body[i].operands.front() == first)
            return i;
    ADD_FAILURE() << "no " << opcode << " " << first;
    return 0;
}

// The loops as warp_work finds them: a backward branch to a label.
std::vector<LoopRange> backward_loops(const PtxKernel& k)
{
    std::vector<LoopRange> loops;
    for (std::size_t i = 0; i < k.body.size(); ++i)
        if (k.body[i].base() == "bra")
            for (std::size_t h = 0; h < i; ++h)
                if (k.body[h].label == k.body[i].operands.front())
                    loops.push_back({h, i});
    return loops;
}

// for (i = threadIdx.y; i < 46; i += 32) { fma }
const std::string strided_by_ty = "\tmov.u32 %r1, %tid.y;\n$L__BB0_1:\n\tfma.rn.f32 %f1, %f1, %f2, %f3;\n"
                                  "\tadd.s32 %r1, %r1, 32;\n\tsetp.lt.s32 %p1, %r1, 46;\n\t@%p1 bra "
                                  "$L__BB0_1;\n";

// The load loop of Kernel Tuner's convolution (block 64 x 2, 142 columns) as
// NVVM leaves it: for (j = tx; j < 142; j += 64), unrolled by 4 into a
// remainder part (trips & 3) and a main part entered only when 4 or more trips
// remain: with 2 or 3 trips, never.
const std::string unrolled_remainder = "\tmov.u32 %r1, %tid.x;\n\tmax.s32 %r33, %r1, 78;\n\tadd.s32 %r34, %r33, "
                                       "63;\n\tsub.s32 %r6, %r34, %r1;\n"
                                       "\tshr.u32 %r35, %r6, 6;\n\tadd.s32 %r36, %r35, 1;\n\tand.b32 %r7, %r36, "
                                       "3;\n"
                                       "\tsetp.eq.s32 %p3, %r7, 0;\n\tmov.u32 %r57, %r1;\n\t@%p3 bra $L__BB0_12;\n"
                                       "\tld.global.f32 %f15, [%rd2];\n\tsetp.eq.s32 %p7, %r7, 1;\n\tadd.s32 "
                                       "%r57, %r1, 64;\n\t@%p7 bra $L__BB0_12;\n"
                                       "\tld.global.f32 %f16, [%rd2+256];\n\tsetp.eq.s32 %p11, %r7, 2;\n\tadd.s32 "
                                       "%r57, %r1, 128;\n"
                                       "\t@%p11 bra $L__BB0_12;\n\tld.global.f32 %f17, [%rd2+512];\n\tadd.s32 "
                                       "%r57, %r1, 192;\n"
                                       "$L__BB0_12:\n\tsetp.lt.u32 %p15, %r6, 192;\n\t@%p15 bra "
                                       "$L__BB0_23;\n\tadd.s32 %r60, %r57, -256;\n"
                                       "$L__BB0_14:\n\tld.global.f32 %f18, [%rd13];\n\tld.global.f32 %f19, "
                                       "[%rd13+256];\n"
                                       "\tld.global.f32 %f20, [%rd13+512];\n\tld.global.f32 %f21, "
                                       "[%rd13+768];\n\tadd.s32 %r60, %r60, 256;\n"
                                       "\tsetp.lt.s32 %p28, %r60, -114;\n\t@%p28 bra $L__BB0_14;\n$L__BB0_23:\n";

TEST(ThreadWalk, ALoopStartingAtThreadIdxYRunsAsOftenAsItsWarpsLanesNeed)
{
    const PtxKernel k = find_ptx_kernel(test::ptx_entry(strided_by_ty), "k");
    // Block 2 x 32: warp 0 holds threadIdx.y 0..15 (2 trips below 14, else 1),
    // warp 1 holds 16..31 (1 trip). A warp runs as long as its slowest lane: 2
    // and 1.
    const auto walked = walk_threads(k, {}, BlockShape{2, 32}, backward_loops(k));
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "fma.rn.f32", "%f1")], 1.5);
    EXPECT_DOUBLE_EQ(walked->entries.at(0), 1.0);
    // One warp high: every lane starts at 0, 46 / 32 → 2 trips.
    const auto flat = walk_threads(k, {}, BlockShape{32, 1}, backward_loops(k));
    ASSERT_TRUE(flat.has_value());
    EXPECT_DOUBLE_EQ(flat->runs[instruction_at(k, "fma.rn.f32", "%f1")], 2.0);
}

TEST(ThreadWalk, AnUnrolledLoopsMainPartIsNotEnteredWhenOnlyTheRemainderRuns)
{
    const PtxKernel k = find_ptx_kernel(test::ptx_entry(unrolled_remainder), "k");
    const auto walked = walk_threads(k, {}, BlockShape{64, 2}, backward_loops(k));
    ASSERT_TRUE(walked.has_value());
    // threadIdx.x below 14 has 3 trips, the rest 2. Of the 4 warps, 0 and 2
    // (threadIdx.x 0..31) run the third load, 1 and 3 (32..63) do not: half of them.
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "ld.global.f32", "%f15")], 1.0);
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "ld.global.f32", "%f16")], 1.0);
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "ld.global.f32", "%f17")], 0.5);
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "ld.global.f32", "%f18")], 0.0);
    EXPECT_DOUBLE_EQ(walked->entries.at(0), 0.0);
    // Where walking every warp would take more than a tenth of the limit, the first,
    // middle and last (0, 2, 3) stand for them: 2 of 3 run the third load.
    const auto sampled = walk_threads(k, {}, BlockShape{64, 2}, backward_loops(k), std::nullopt, 200);
    ASSERT_TRUE(sampled.has_value());
    EXPECT_DOUBLE_EQ(sampled->runs[instruction_at(k, "ld.global.f32", "%f17")], 2.0 / 3);
}

TEST(ThreadWalk, WarpWorkCountsTheLoadsTheWalkFindsNotAGuessedTripCount)
{
    const PtxKernel k = find_ptx_kernel(test::ptx_entry(unrolled_remainder), "k");
    // Without a block shape nothing can be walked: the main part's start is
    // unknown and its trips are guessed (8 trips of 4 loads).
    const WarpWork guessed = analyse_warp_work(k);
    EXPECT_GE(guessed.lsu_instructions, 32.0);
    const WarpWork walked = analyse_warp_work(k, {}, BlockShape{64, 2});
    EXPECT_DOUBLE_EQ(walked.lsu_instructions, 2.5);
    EXPECT_EQ(walked.unknown_trip_counts, 0);
    EXPECT_LT(walked.latency_cycles, guessed.latency_cycles);
}

TEST(ThreadWalk, ALoopBoundedByAKnownParameterRunsItsValue)
{
    const PtxKernel k =
        find_ptx_kernel(test::ptx_entry("\tld.param.u32 %r5, [k_param_0];\n\tmov.u32 %r1, 0;\n$L__BB0_1:\n"
                                        "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tadd.s32 %r1, %r1, "
                                        "1;\n\tsetp.lt.s32 %p1, %r1, %r5;\n"
                                        "\t@%p1 bra $L__BB0_1;\n"),
                        "k");
    const auto walked = walk_threads(k, {100}, BlockShape{128, 1}, backward_loops(k));
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "fma.rn.f32", "%f1")], 100.0);
    // The same loop with its bound unknown (a pointer, or not given) cannot be
    // walked.
    EXPECT_FALSE(walk_threads(k, {std::nullopt}, BlockShape{128, 1}, backward_loops(k)).has_value());
}

TEST(ThreadWalk, AGridStrideLoopRunsAsOftenAsTheGridGiven)
{
    // for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x),
    // n = 2^20 from the parameter: 256 threads and 1024 blocks stride 2^18, 4 trips.
    const PtxKernel k = find_ptx_kernel(
        test::ptx_entry("\tld.param.u32 %r5, [k_param_0];\n\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n"
                        "\tmov.u32 %r3, %tid.x;\n\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tmov.u32 %r6, %nctaid.x;\n"
                        "\tmul.lo.s32 %r7, %r6, %r2;\n$L__BB0_1:\n\tld.global.f32 %f1, [%rd1];\n"
                        "\tadd.s32 %r4, %r4, %r7;\n\tsetp.lt.s32 %p1, %r4, %r5;\n\t@%p1 bra $L__BB0_1;\n"),
        "k");
    const auto walked = walk_threads(k, {1 << 20}, BlockShape{256, 1}, backward_loops(k), GridShape{1024, 1, 1});
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "ld.global.f32", "%f1")], 4.0);
    // Without the grid the stride is unknown, and so is where the loop ends.
    EXPECT_FALSE(walk_threads(k, {1 << 20}, BlockShape{256, 1}, backward_loops(k)).has_value());
    EXPECT_DOUBLE_EQ(analyse_warp_work(k, {1 << 20}, BlockShape{256, 1}, GridShape{1024, 1, 1}).lsu_instructions, 4.0);
}

TEST(ThreadWalk, ComparesAsThePtxTypeSays)
{
    // -1 is below 5 as s32, far above it as u32: each compare skips its add or
    // not.
    const PtxKernel k =
        find_ptx_kernel(test::ptx_entry("\tmov.u32 %r1, 0;\n\tsub.s32 %r2, %r1, 1;\n\tsetp.lt.u32 %p1, %r2, "
                                        "5;\n"
                                        "\t@%p1 bra $L__BB0_1;\n\tadd.f32 %f1, %f2, "
                                        "%f3;\n$L__BB0_1:\n\tsetp.lt.s32 %p2, %r2, 5;\n"
                                        "\t@%p2 bra $L__BB0_2;\n\tadd.f32 %f4, %f2, %f3;\n$L__BB0_2:\n"
                                        "\tmul.wide.s32 %rd1, %r2, 4;\n\tsetp.lt.s64 %p3, %rd1, 0;\n\t@%p3 "
                                        "bra $L__BB0_3;\n"
                                        "\tadd.f32 %f5, %f2, %f3;\n$L__BB0_3:\n"),
                        "k");
    const auto walked = walk_threads(k, {}, BlockShape{32, 1}, {});
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "add.f32", "%f1")],
                     1.0); // u32: 0xffffffff >= 5
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "add.f32", "%f4")],
                     0.0); // s32: -1 < 5
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "add.f32", "%f5")],
                     0.0); // mul.wide keeps the sign: -4 < 0
}

TEST(ThreadWalk, DataDecidesAForwardBranchByFallingThroughAndALoopNotAtAll)
{
    const std::string skip = "\tsetp.gt.f32 %p2, %f1, %f2;\n\t@%p2 bra "
                             "$L__BB0_2;\n\tadd.f32 %f3, %f2, %f3;\n"
                             "$L__BB0_2:\n";
    const PtxKernel forward = find_ptx_kernel(test::ptx_entry(skip), "k");
    const auto walked = walk_threads(forward, {}, BlockShape{32, 1}, {});
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(forward, "add.f32", "%f3")], 1.0);

    const PtxKernel converge = find_ptx_kernel(test::ptx_entry("$L__BB0_1:\n\tmul.f32 %f1, %f1, %f2;\n\tsetp.gt.f32 "
                                                               "%p1, %f1, %f3;\n\t@%p1 bra $L__BB0_1;\n"),
                                               "k");
    EXPECT_FALSE(walk_threads(converge, {}, BlockShape{32, 1}, backward_loops(converge)).has_value());
}

TEST(ThreadWalk, AWalkLongerThanItsLimitGivesNoAnswer)
{
    const PtxKernel k = find_ptx_kernel(test::ptx_entry("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tadd.s32 %r1, %r1, "
                                                        "1;\n\tsetp.lt.s32 %p1, %r1, 1000000;\n"
                                                        "\t@%p1 bra $L__BB0_1;\n"),
                                        "k");
    EXPECT_FALSE(walk_threads(k, {}, BlockShape{32, 1}, backward_loops(k), std::nullopt, 10'000).has_value());
    const auto walked = walk_threads(k, {}, BlockShape{32, 1}, backward_loops(k), std::nullopt, 100'000'000);
    ASSERT_TRUE(walked.has_value());
    EXPECT_DOUBLE_EQ(walked->runs[instruction_at(k, "add.s32", "%r1")], 1'000'000.0);
}

} // namespace
