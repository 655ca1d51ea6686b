// What one warp executes, read from PTX: trip counts from the loop's exit test, immediate
// constant loads folded into their consumers, data-dependent code at half weight, and the
// in-order latency of a dependent chain against independent work.
#include "predict/ptx_kernel.hpp"
#include "predict/warp_work.hpp"
#include "support/ptx_entry.hpp"

#include <gtest/gtest.h>
#include <string>

using namespace autotune;

namespace {

WarpWork work_of(const std::string& body) { return analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k")); }

TEST(PtxKernel, ReadsInstructionsGuardsLabelsAndOperands)
{
    const PtxKernel k = find_ptx_kernel(test::ptx_entry("\tld.const.v2.f32 \t{%f1, %f2}, [%rd1+8];\n$L__BB0_2:\n"
                                               "\t@!%p1 bra \t$L__BB0_2;\n"),
                                        "");
    ASSERT_EQ(k.name, "k");
    ASSERT_EQ(k.body.size(), 4u); // ld, label, bra, ret
    EXPECT_EQ(k.body[0].opcode, "ld.const.v2.f32");
    EXPECT_EQ(k.body[0].operands, (std::vector<std::string>{"{%f1, %f2}", "[%rd1+8]"}));
    EXPECT_TRUE(k.body[0].has_part("const"));
    EXPECT_FALSE(k.body[0].has_part("global"));
    EXPECT_EQ(k.body[1].label, "$L__BB0_2");
    EXPECT_EQ(k.body[2].guard, "%p1");
    EXPECT_TRUE(k.body[2].guard_negated);
    EXPECT_EQ(k.body[2].base(), "bra");
    EXPECT_THROW((void)find_ptx_kernel(test::ptx_entry(""), "other"), std::invalid_argument);
}

TEST(WarpWork, ALoopCountsItsTripsFromTheExitTest)
{
    // for (i = 0; i < 600; i += 2): 300 trips of one fma.
    const WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tfma.rn.f32 %f1, %f1, %f2, %f3;\n"
                               "\tadd.s32 %r1, %r1, 2;\n\tsetp.ne.s32 %p1, %r1, 600;\n\t@%p1 bra $L__BB0_1;\n");
    EXPECT_DOUBLE_EQ(w.fp32, 300);
    EXPECT_DOUBLE_EQ(w.integer, 600); // the add and the compare
    EXPECT_EQ(w.unknown_trip_counts, 0);
    // The fma chain carries %f1 from trip to trip: 4 cycles each at least.
    EXPECT_GE(w.latency_cycles, 300 * 4);
}

TEST(WarpWork, NestedLoopsMultiplyAndAStartFromTheLaunchCountsFromZero)
{
    // Outer: 0..10 step 1; inner starts at a thread index (unknown), 0..64 step 16: 4 trips.
    const WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tmov.u32 %r2, %tid.x;\n$L__BB0_2:\n"
                               "\tadd.f32 %f1, %f2, %f3;\n\tadd.s32 %r2, %r2, 16;\n\tsetp.lt.s32 %p2, %r2, 64;\n"
                               "\t@%p2 bra $L__BB0_2;\n\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 10;\n"
                               "\t@%p1 bra $L__BB0_1;\n");
    EXPECT_DOUBLE_EQ(w.fp32, 40);
    EXPECT_EQ(w.unknown_trip_counts, 0);
}

TEST(WarpWork, ALoopWithoutAVisibleBoundIsCountedAndSaidUnknown)
{
    const WarpWork w = work_of("\tld.param.u32 %r3, [k_param_0];\n\tmov.u32 %r1, 0;\n$L__BB0_1:\n"
                               "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tadd.s32 %r1, %r1, 1;\n"
                               "\tsetp.lt.s32 %p1, %r1, %r3;\n\t@%p1 bra $L__BB0_1;\n");
    EXPECT_EQ(w.unknown_trip_counts, 1);
    EXPECT_GT(w.fp32, 1);
}

// for (k = 0; k < K; k += 8) with K a kernel parameter: known at launch, so the loop
// counts K / 8 trips; without the value it stays an unknown.
TEST(WarpWork, ALoopBoundedByAKernelParameterCountsItsValue)
{
    const std::string body = "\tld.param.u32 %r3, [k_param_0];\n\tmov.u32 %r1, 0;\n$L__BB0_1:\n"
                             "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tadd.s32 %r1, %r1, 8;\n"
                             "\tsetp.lt.s32 %p1, %r1, %r3;\n\t@%p1 bra $L__BB0_1;\n";
    const WarpWork known = analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k"), {4096});
    EXPECT_DOUBLE_EQ(known.fp32, 512);
    EXPECT_EQ(known.unknown_trip_counts, 0);
    const WarpWork pointer = analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k"), {std::nullopt});
    EXPECT_EQ(pointer.unknown_trip_counts, 1);
}

// The GEMM's K loop as NVVM writes it: the test is on k + 8 computed early, k stepped at
// the end of the body: for K = 4096 and BK = 8, 512 trips.
TEST(WarpWork, ALoopTestingTheNextValueComputedBesideTheInductionCountsTheSame)
{
    const std::string body = "\tld.param.u32 %r9, [k_param_0];\n\tmov.u32 %r52, 0;\n$L__BB0_3:\n"
                             "\tadd.s32 %r51, %r52, 8;\n\tfma.rn.f32 %f1, %f1, %f2, %f3;\n"
                             "\tsetp.lt.s32 %p3, %r51, %r9;\n\tadd.s32 %r52, %r52, 8;\n\t@%p3 bra $L__BB0_3;\n";
    const WarpWork w = analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k"), {4096});
    EXPECT_DOUBLE_EQ(w.fp32, 512);
    EXPECT_EQ(w.unknown_trip_counts, 0);
}

// A strided loop over rows as NVVM writes it: r = next at the head, the test on r, next =
// r + 32 at the end; from threadIdx.y (taken as 0) below 142: 5 trips.
TEST(WarpWork, ALoopTestingTheValueBeforeItsStepCountsFromItsStart)
{
    const std::string body = "\tmov.u32 %r41, %tid.y;\n$L__BB0_2:\n\tmov.u32 %r16, %r41;\n"
                             "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tadd.s32 %r41, %r16, 32;\n"
                             "\tsetp.lt.s32 %p29, %r16, 142;\n\t@%p29 bra $L__BB0_2;\n";
    const WarpWork w = work_of(body);
    EXPECT_DOUBLE_EQ(w.fp32, 5);
    EXPECT_EQ(w.unknown_trip_counts, 0);
}

// Found by the ptx fuzz target (2026-12-03): an induction variable whose definition in the
// loop is a mov without a source (or with two) read past the mov's operands. No compiler
// writes it; the loop is counted as one of unknown length.
TEST(WarpWork, AnInductionStepThatIsNoMoveOrAddIsAnUnknownTripCount)
{
    for (const std::string step : {"\tmov.u32 %r52;\n", "\tmov.u32 %r52, %r7, 8;\n", "\tadd.s32 %r52, %r52;\n"}) {
        const std::string body = "\tld.param.u32 %r9, [k_param_0];\n\tmov.u32 %r52, 0;\n$L__BB0_3:\n" + step +
                                 "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tsetp.lt.s32 %p3, %r52, %r9;\n\t@%p3 bra $L__BB0_3;\n";
        const WarpWork w = analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k"), {4096});
        EXPECT_EQ(w.unknown_trip_counts, 1) << step;
    }
}

TEST(WarpWork, ARotatedLoopEnteredInTheMiddleCountsEachPartAsOftenAsItRuns)
{
    // NVVM's partly unrolled "for (i = 0; i < 15; i++)" by 4: entered at the second part,
    // which tests i == 12 and leaves; the first part steps i by 4 and goes on into it. The
    // second part runs for i = 0, 4, 8, 12 (4 times, 1 fma each), the first 3 times (2 fma).
    const std::string rotated = "\tmov.u32 %r1, 0;\n\tbra.uni $L__BB0_2;\n$L__BB0_1:\n"
                                "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tfma.rn.f32 %f4, %f4, %f2, %f3;\n"
                                "\tadd.s32 %r1, %r1, 4;\n$L__BB0_2:\n\tfma.rn.f32 %f5, %f5, %f2, %f3;\n"
                                "\tsetp.eq.s32 %p1, %r1, 12;\n\t@%p1 bra $L__BB0_3;\n\tbra.uni $L__BB0_1;\n"
                                "$L__BB0_3:\n";
    const WarpWork w = work_of(rotated);
    EXPECT_DOUBLE_EQ(w.fp32, 4 * 1 + 3 * 2);
    EXPECT_EQ(w.unknown_trip_counts, 0);

    // Entered at the top, the step comes before the test: i = 4, 8, 12, then out: 3 trips.
    const WarpWork top = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tfma.rn.f32 %f1, %f1, %f2, %f3;\n"
                                 "\tadd.s32 %r1, %r1, 4;\n\tsetp.eq.s32 %p1, %r1, 12;\n\t@%p1 bra $L__BB0_3;\n"
                                 "\tfma.rn.f32 %f4, %f4, %f2, %f3;\n\tbra.uni $L__BB0_1;\n$L__BB0_3:\n");
    EXPECT_DOUBLE_EQ(top.fp32, 3 + 2); // the fma after the test runs once less
    EXPECT_EQ(top.unknown_trip_counts, 0);

    // Left by a test this cannot read (a bound from memory): unknown, counted as before.
    const WarpWork unread = work_of("\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%rd1];\n$L__BB0_1:\n"
                                    "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tadd.s32 %r1, %r1, 4;\n"
                                    "\tsetp.eq.s32 %p1, %r1, %r2;\n\t@%p1 bra $L__BB0_3;\n\tbra.uni $L__BB0_1;\n"
                                    "$L__BB0_3:\n");
    EXPECT_EQ(unread.unknown_trip_counts, 1);
}

TEST(WarpWork, ImmediateConstantLoadsFoldIntoTheirConsumers)
{
    const WarpWork folded = work_of("\tld.const.f32 %f1, [table+4];\n\tfma.rn.f32 %f2, %f1, %f3, %f4;\n");
    EXPECT_DOUBLE_EQ(folded.constant_loads, 0);
    EXPECT_DOUBLE_EQ(folded.issue, 1); // the fma alone
    const WarpWork loaded = work_of("\tmov.u64 %rd1, table;\n\tld.const.f32 %f1, [%rd1];\n"
                                    "\tfma.rn.f32 %f2, %f1, %f3, %f4;\n");
    EXPECT_DOUBLE_EQ(loaded.constant_loads, 1);
    EXPECT_DOUBLE_EQ(loaded.issue, 2);
}

TEST(WarpWork, CodeSkippedByADataDependentBranchCountsHalf)
{
    const std::string skipped = "\tfma.rn.f32 %f5, %f1, %f3, %f4;\n\tfma.rn.f32 %f6, %f1, %f3, %f4;\n$L__BB0_9:\n";
    // A float compare decides: half the warps run the two fmas.
    const WarpWork data = work_of("\tsetp.gt.f32 %p1, %f1, %f2;\n\t@%p1 bra $L__BB0_9;\n" + skipped);
    EXPECT_DOUBLE_EQ(data.fp32, 1 + 2 * 0.5); // the compare, and half of the two fmas
    // An index compare (a bounds check) decides: nearly every warp runs them.
    const WarpWork bounds = work_of("\tsetp.ge.s32 %p1, %r1, %r2;\n\t@%p1 bra $L__BB0_9;\n" + skipped);
    EXPECT_DOUBLE_EQ(bounds.fp32, 2);
}

TEST(WarpWork, GlobalTrafficIsCountedInWavefrontsAndBytes)
{
    const WarpWork w = work_of("\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n\tst.global.f32 [%rd2], %f1;\n");
    EXPECT_DOUBLE_EQ(w.global_load_bytes, 32 * 16);
    EXPECT_DOUBLE_EQ(w.global_store_bytes, 32 * 4);
    EXPECT_DOUBLE_EQ(w.global_wavefronts, 4 + 1);
    // The store waits for the load: a global load's latency dominates.
    EXPECT_GE(w.latency_cycles, 400);
}

TEST(WarpWork, IndependentWorkOverlapsWhereADependentChainWaits)
{
    std::string chain, independent;
    for (int i = 0; i < 16; ++i) {
        chain += "\tfma.rn.f32 %f1, %f1, %f2, %f3;\n";
        independent += "\tfma.rn.f32 %f" + std::to_string(10 + i) + ", %f2, %f3, %f4;\n";
    }
    const WarpWork dependent = work_of(chain);
    const WarpWork parallel = work_of(independent);
    EXPECT_DOUBLE_EQ(dependent.issue, parallel.issue);
    EXPECT_GE(dependent.latency_cycles, 16 * 4);
    EXPECT_LE(parallel.latency_cycles, 16 + 4);
}

} // namespace

TEST(WarpWork, SharedAndGlobalAccessesAreCountedAsInstructionsBesideTheirWavefronts)
{
    // 10 trips of a shared load, a v4 shared load (4 wavefronts, one instruction), a shuffle
    // (registers: not an access) and a global load.
    const WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tld.shared.f32 %f1, [%rd1];\n"
                               "\tld.shared.v4.f32 {%f2, %f3, %f4, %f5}, [%rd2];\n"
                               "\tshfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;\n\tld.global.f32 %f6, [%rd3];\n"
                               "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 10;\n\t@%p1 bra $L__BB0_1;\n");
    EXPECT_DOUBLE_EQ(w.shared_instructions, 20);
    EXPECT_DOUBLE_EQ(w.shared_wavefronts, 10 * (1 + 4 + 1)); // the shuffle's wavefront too
    EXPECT_DOUBLE_EQ(w.lsu_instructions, 10);
}

TEST(WarpWork, ABarrierOutsideLoopsSplitsTheRunIntoPhasesWithTheirOwnChains)
{
    // Fill shared memory from global, wait for the block, then compute on it.
    const std::string fill = "\tld.global.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd2], %f1;\n";
    const std::string compute = "\tld.shared.f32 %f2, [%rd3];\n\tfma.rn.f32 %f3, %f2, %f2, %f2;\n"
                                "\tst.global.f32 [%rd1], %f3;\n";
    const WarpWork w = work_of(fill + "\tbar.sync 0;\n" + compute);
    ASSERT_EQ(w.phases.size(), 2u);
    const WarpCounts& first = w.phases[0];
    const WarpCounts& second = w.phases[1];
    // The parts add up to the whole.
    EXPECT_DOUBLE_EQ(first.issue + second.issue, w.issue);
    EXPECT_DOUBLE_EQ(first.global_load_bytes, w.global_load_bytes);
    EXPECT_DOUBLE_EQ(second.global_store_bytes, w.global_store_bytes);
    EXPECT_DOUBLE_EQ(first.barriers, 1); // the warp waits at the barrier that ends its phase
    EXPECT_DOUBLE_EQ(second.fp32, 1);
    // The fill waits for global memory; the compute only for shared memory and the fma.
    EXPECT_GE(first.latency_cycles, dram_load_cycles);
    EXPECT_LT(second.latency_cycles, dram_load_cycles);
    EXPECT_GT(second.latency_cycles, 0);

    // Without the barrier the same code is one stretch.
    EXPECT_TRUE(work_of(fill + compute).phases.empty());
}

TEST(WarpWork, ABarrierInsideALoopLeavesTheRunOneStretch)
{
    // for (i = 0; i < 8; ++i) { fill; barrier; compute }: the blocks' trips drift apart.
    const WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tld.global.f32 %f1, [%rd1];\n"
                               "\tst.shared.f32 [%rd2], %f1;\n\tbar.sync 0;\n\tld.shared.f32 %f2, [%rd3];\n"
                               "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 8;\n\t@%p1 bra $L__BB0_1;\n");
    EXPECT_DOUBLE_EQ(w.barriers, 8);
    EXPECT_TRUE(w.phases.empty());
}

TEST(WarpWork, SpillsAreSharedAmongThePhasesByTheirRuns)
{
    WarpWork w = work_of("\tld.global.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd2], %f1;\n\tbar.sync 0;\n"
                         "\tld.shared.f32 %f2, [%rd3];\n\tfma.rn.f32 %f3, %f2, %f2, %f2;\n"
                         "\tst.global.f32 [%rd1], %f3;\n");
    ASSERT_EQ(w.phases.size(), 2u);
    add_spills(w, 8, 8); // two 4-byte stores and two loads a thread
    EXPECT_DOUBLE_EQ(w.local_wavefronts, 4);
    EXPECT_DOUBLE_EQ(w.phases[0].local_wavefronts + w.phases[1].local_wavefronts, w.local_wavefronts);
    EXPECT_DOUBLE_EQ(w.phases[0].local_loads + w.phases[1].local_loads, w.local_loads);
    EXPECT_DOUBLE_EQ(w.phases[0].issue + w.phases[1].issue, w.issue);
    EXPECT_GT(w.phases[0].local_wavefronts, 0);
    EXPECT_GT(w.phases[1].local_wavefronts, 0);
}

TEST(WarpWork, MachineCodeScalesTheIssueSlotsOfTheRunAndOfEachPhase)
{
    WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tld.global.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd2], %f1;\n"
                         "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 8;\n\t@%p1 bra $L__BB0_1;\n\tbar.sync 0;\n"
                         "\tld.shared.f32 %f2, [%rd3];\n\tst.global.f32 [%rd1], %f2;\n");
    ASSERT_EQ(w.phases.size(), 2u);
    const WarpWork ptx = w;
    ASSERT_GT(ptx.static_issue, 0);
    // ptxas made one and a half machine instructions of each PTX one.
    count_machine_code(w, 1.5 * ptx.static_issue, 1); // the machine code kept the loop
    EXPECT_DOUBLE_EQ(w.issue, 1.5 * ptx.issue);
    EXPECT_DOUBLE_EQ(w.static_issue, 1.5 * ptx.static_issue);
    EXPECT_DOUBLE_EQ(w.phases[0].issue, 1.5 * ptx.phases[0].issue);
    EXPECT_DOUBLE_EQ(w.phases[1].issue, 1.5 * ptx.phases[1].issue);
    // The loop still runs 8 times as often as its code is long; pipes and memory are the PTX's.
    EXPECT_DOUBLE_EQ(w.issue / w.static_issue, ptx.issue / ptx.static_issue);
    EXPECT_DOUBLE_EQ(w.fp32, ptx.fp32);
    EXPECT_DOUBLE_EQ(w.shared_wavefronts, ptx.shared_wavefronts);
    // No machine code known: the PTX's counts stand.
    WarpWork unknown = ptx;
    count_machine_code(unknown, 0, 0);
    EXPECT_DOUBLE_EQ(unknown.issue, ptx.issue);
}

TEST(WarpWork, ALoopPtxasUnrolledFullyIsCountedAsItsCopiesNotAsLongerCode)
{
    // An outer loop over an argument's bound (ptxas cannot unroll it) around an inner loop
    // of 16 trips the code fixes. With the inner one unrolled, the machine code holds 16
    // copies of its body: as long as the PTX with those copies, it is one for one.
    const std::string inner = "\tmov.u32 %r2, 0;\n$L__BB0_2:\n\tfma.rn.f32 %f1, %f1, %f1, %f1;\n"
                              "\tfma.rn.f32 %f2, %f2, %f2, %f2;\n\tadd.s32 %r2, %r2, 1;\n"
                              "\tsetp.lt.s32 %p2, %r2, 16;\n\t@%p2 bra $L__BB0_2;\n";
    const std::string body = "\tld.param.u32 %r9, [k_param_0];\n\tmov.u32 %r1, 0;\n$L__BB0_1:\n" + inner +
                             "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, %r9;\n\t@%p1 bra $L__BB0_1;\n";
    WarpWork w = analyse_warp_work(find_ptx_kernel(test::ptx_entry(body), "k"), {64});
    ASSERT_EQ(w.loops.size(), 2u);
    EXPECT_FALSE(w.loops[0].literal_trips); // the bound is an argument
    EXPECT_TRUE(w.loops[1].literal_trips);
    EXPECT_EQ(w.loops[1].parent, 0);
    EXPECT_DOUBLE_EQ(w.loops[1].trips, 16);
    const WarpWork ptx = w;
    const double unrolled_static = ptx.static_issue + 15 * ptx.loops[1].static_issue;

    count_machine_code(w, unrolled_static, 1);
    EXPECT_DOUBLE_EQ(w.issue, ptx.issue);
    // Read as if ptxas had expanded every instruction instead, the inner loop's work
    // would count many times over.
    WarpWork even = ptx;
    count_machine_code(even, unrolled_static, 2);
    EXPECT_GT(even.issue, 5 * ptx.issue);
    // Only loops the code bounds are unrolled: with the outer one's copies missing as well,
    // the inner one alone is taken.
    WarpWork both = ptx;
    count_machine_code(both, unrolled_static, 0);
    EXPECT_DOUBLE_EQ(both.issue, ptx.issue);
}

TEST(WarpWork, ABarrierWaitsForEverythingBeforeItIncludingLoadsStoredToSharedMemory)
{
    // for 8 trips: load a value from global memory into shared memory, wait at the barrier,
    // then read shared memory and compute. No register carries the load to the read (it
    // goes through shared memory), but the barrier does: each trip waits for the load
    // (DRAM's latency), then for the shared read (28 cycles) and the fma.
    const std::string trip = "\tld.global.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd2], %f1;\n\tbar.sync 0;\n"
                             "\tld.shared.f32 %f2, [%rd3];\n\tfma.rn.f32 %f3, %f2, %f2, %f3;\n";
    const std::string loop_end = "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.s32 %p1, %r1, 8;\n\t@%p1 bra $L__BB0_1;\n";
    const WarpWork w = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n" + trip + loop_end);
    EXPECT_GE(w.latency_cycles, 8 * (dram_load_cycles + 28 + 4));
    // Without the barrier the read need not wait for the load: the trips are shorter.
    const std::string unsynchronised = "\tld.global.f32 %f1, [%rd1];\n\tst.shared.f32 [%rd2], %f1;\n"
                                       "\tld.shared.f32 %f2, [%rd3];\n\tfma.rn.f32 %f3, %f2, %f2, %f3;\n";
    const WarpWork free = work_of("\tmov.u32 %r1, 0;\n$L__BB0_1:\n" + unsynchronised + loop_end);
    EXPECT_LT(free.latency_cycles, 8 * (dram_load_cycles + 28 + 4));
}
