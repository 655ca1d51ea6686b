// The time model's arithmetic on hand-made warp work: waves, the tail, the largest term
// naming the bound, the memory term at the device's bandwidth, and the pipes' rates.
#include "predict/time_model.hpp"

#include <gtest/gtest.h>

using namespace autotune;

namespace {

LaunchShape shape(std::int64_t blocks, int threads, int resident)
{
    LaunchShape s;
    s.grid_blocks = blocks;
    s.threads_per_block = threads;
    s.blocks_per_sm = resident;
    s.sms = 2;
    s.clock_mhz = 1000;
    return s;
}

double term(const TimePrediction& p, const std::string& name)
{
    for (const auto& t : p.terms)
        if (t.name == name)
            return t.seconds;
    return -1.0;
}

TEST(TimeModel, IssueBoundWorkTakesItsSlotsOverTheSchedulersPerWave)
{
    WarpWork w;
    w.issue = 100;
    w.latency_cycles = 20; // under the 25 slots a warp's share of the schedulers takes: nothing to wait for
    // 4 blocks of 4 warps on 2 SMs, one resident each: 2 waves of 4 × 100 / 4 = 100 cycles.
    const TimePrediction p = predict_time(w, pipe_rates(86), shape(4, 128, 1));
    EXPECT_DOUBLE_EQ(p.seconds, 200e-9);
    EXPECT_EQ(p.bound, "issue");
    EXPECT_DOUBLE_EQ(p.waves, 2);
}

TEST(TimeModel, AWarpAloneWaitingOnLatencyBoundsASparseSM)
{
    WarpWork w;
    w.issue = 10;
    w.latency_cycles = 1000;
    const TimePrediction p = predict_time(w, pipe_rates(86), shape(2, 32, 8)); // one block per SM
    EXPECT_DOUBLE_EQ(p.seconds, 1000e-9);
    EXPECT_EQ(p.bound, "latency");
}

TEST(TimeModel, TheLastPartialWaveRunsWithTheBlocksLeft)
{
    WarpWork w;
    w.issue = 100;
    // 5 blocks, 2 SMs × 2 resident: one full wave (2 blocks × 4 warps × 100 / 4 = 200
    // cycles), then 1 block left: 1 × 4 × 100 / 4 = 100 cycles.
    const TimePrediction p = predict_time(w, pipe_rates(86), shape(5, 128, 2));
    EXPECT_DOUBLE_EQ(p.seconds, 300e-9);
    EXPECT_DOUBLE_EQ(p.waves, 1.25);
}

TEST(TimeModel, FP32RateDoublesFromAmpereGA10x)
{
    WarpWork w;
    w.issue = 100;
    w.fp32 = 100;
    const TimePrediction a100 = predict_time(w, pipe_rates(80), shape(2, 128, 1));
    const TimePrediction ga102 = predict_time(w, pipe_rates(86), shape(2, 128, 1));
    EXPECT_EQ(a100.bound, "fp32");
    EXPECT_DOUBLE_EQ(term(a100, "fp32"), 2 * term(ga102, "fp32"));
}

TEST(TimeModel, BytesAtTheBandwidthBoundAMemoryKernel)
{
    WarpWork w;
    w.issue = 1;
    LaunchShape s = shape(2, 32, 1);
    s.bandwidth_gbs = 1000;
    s.dram_bytes = 1e6; // 1 MB at 1000 GB/s: 1 us
    const TimePrediction p = predict_time(w, pipe_rates(90), s);
    EXPECT_DOUBLE_EQ(p.seconds, 1e-6);
    EXPECT_EQ(p.bound, "dram");
    EXPECT_DOUBLE_EQ(p.dram_bytes, 1e6); // what a profiler's DRAM count is set beside
}

TEST(TimeModel, ALaunchThatCannotRunIsRefused)
{
    EXPECT_THROW((void)predict_time(WarpWork{}, pipe_rates(90), shape(1, 32, 0)), std::invalid_argument);
}

} // namespace

TEST(TimeModel, ASharedAccessTakesTheClocksTheLoadStoreUnitsNeedForAWarp)
{
    // 100 conflict-free shared loads (1 wavefront each) and 100 4-way conflicted ones, four
    // warps an SM, one on each scheduler: GA100 has 8 LD/ST units a scheduler (a warp-wide
    // access in 4 clocks), GA10x 4 (8 clocks), so only the conflict-free ones cost more on
    // GA10x; the conflicted ones wait for the SM's banks, 4 wavefronts a warp's access.
    WarpWork free;
    free.shared_wavefronts = 100;
    free.shared_instructions = 100;
    EXPECT_DOUBLE_EQ(predict_time(free, pipe_rates(80), shape(2, 128, 1)).seconds, 400e-9);
    const TimePrediction ga10x = predict_time(free, pipe_rates(86), shape(2, 128, 1));
    EXPECT_DOUBLE_EQ(ga10x.seconds, 800e-9);
    EXPECT_EQ(ga10x.bound, "shared");

    WarpWork conflicted;
    conflicted.shared_wavefronts = 400;
    conflicted.shared_instructions = 100;
    EXPECT_DOUBLE_EQ(predict_time(conflicted, pipe_rates(80), shape(2, 128, 1)).seconds, 1600e-9);
    EXPECT_DOUBLE_EQ(predict_time(conflicted, pipe_rates(86), shape(2, 128, 1)).seconds, 1600e-9);

    // Global accesses go through the same units.
    WarpWork global;
    global.global_wavefronts = 100;
    global.lsu_instructions = 100;
    EXPECT_DOUBLE_EQ(predict_time(global, pipe_rates(89), shape(2, 128, 1)).seconds, 800e-9);
    EXPECT_DOUBLE_EQ(predict_time(global, pipe_rates(90), shape(2, 128, 1)).seconds, 400e-9);
}

// A warp stays on the scheduler it was dealt to and has only that scheduler's issue slot,
// pipes and LD/ST units: one warp alone on an SM takes as long as four, one on each
// scheduler, and a fifth warp doubles the busiest scheduler's work.
TEST(TimeModel, AWarpUsesOnlyItsOwnSchedulersUnits)
{
    WarpWork w;
    w.issue = 100;
    w.fp32 = 100;
    w.shared_wavefronts = 50;
    w.shared_instructions = 50;
    const PipeRates ga10x = pipe_rates(86);
    const TimePrediction one = predict_time(w, ga10x, shape(2, 32, 1));
    const TimePrediction four = predict_time(w, ga10x, shape(2, 128, 1));
    const TimePrediction five = predict_time(w, ga10x, shape(2, 160, 1));
    EXPECT_DOUBLE_EQ(term(one, "issue"), 100e-9); // its scheduler issues one instruction a clock
    EXPECT_DOUBLE_EQ(term(one, "shared"), 400e-9); // 50 accesses, 8 clocks each on its 4 LD/ST units
    EXPECT_DOUBLE_EQ(one.seconds, four.seconds);
    EXPECT_DOUBLE_EQ(term(five, "issue"), 2 * term(four, "issue"));
    EXPECT_DOUBLE_EQ(term(five, "shared"), 2 * term(four, "shared"));
    EXPECT_GE(five.seconds, 2 * term(four, "shared")); // the busiest scheduler's LD/ST units, twice as busy
}

TEST(TimeModel, StackFramesBeyondL1AndL2SendLocalTrafficOnByHand)
{
    // sm_86: 128 KB of L1 and shared. 2 resident blocks of 128 threads with 1 KiB stack
    // frames hold 256 KiB; the blocks' 2 × 16 KiB of shared memory leave 96 KiB of L1:
    // 96/256 of the local traffic hits. 82 SMs' 256 KiB against a 6 MiB L2: 6/20.5 hits there.
    LaunchShape s = shape(1000, 128, 2);
    s.sms = 82;
    s.stack_bytes_per_thread = 1024;
    s.shared_bytes_per_block = 16 * 1024;
    s.l2_bytes = 6.0 * 1024 * 1024;
    const LocalHits hits = local_memory_hits(pipe_rates(86), s);
    EXPECT_DOUBLE_EQ(hits.l1, 96.0 / 256.0);
    EXPECT_DOUBLE_EQ(hits.l2, 6.0 * 1024 / (256.0 * 82));
    // Hopper's 256 KB leave 224 KiB beside the shared memory; no stack, nothing to miss.
    EXPECT_DOUBLE_EQ(local_memory_hits(pipe_rates(90), s).l1, 224.0 / 256.0);
    s.stack_bytes_per_thread = 0;
    EXPECT_DOUBLE_EQ(local_memory_hits(pipe_rates(86), s).l1, 1.0);
}

TEST(TimeModel, LocalLoadsThatMissWaitLongerAndTheirBytesGoToDram)
{
    WarpWork w;
    w.issue = 100;
    w.local_wavefronts = 40;
    w.local_loads = 20;
    w.latency_cycles = 1000;
    LaunchShape s = shape(2, 32, 1); // one warp per SM, one wave: the latency term bounds it
    s.bandwidth_gbs = 1; // 1 byte per ns
    const TimePrediction fits = predict_time(w, pipe_rates(86), s);
    EXPECT_DOUBLE_EQ(fits.seconds, 1000e-9);

    // A 512 KiB stack frame per thread: 32 threads hold 16 MiB per SM, 1/128 of it fits
    // L1, and L2 (1 MiB for the 2 SMs' 32 MiB) 1/32 of the rest.
    s.stack_bytes_per_thread = 512 * 1024;
    s.l2_bytes = 1024.0 * 1024;
    const double l1 = 128.0 / (16 * 1024), l2 = 1.0 / 32;
    const double misses = 20 * (1 - l1);
    const double latency = 1000 + misses * (l2 * 200 + (1 - l2) * 450 - 30);
    const TimePrediction spills = predict_time(w, pipe_rates(86), s);
    const auto term = [&](const std::string& name) {
        for (const auto& t : spills.terms)
            if (t.name == name)
                return t.seconds;
        return -1.0;
    };
    EXPECT_NEAR(term("latency"), latency * 1e-9, 1e-15);
    // 2 warps × 128 bytes a wavefront: the 20 loads' share L1 does not hold and the 20
    // stores (L1 writes them through), each of it the share L2 does not hold, at 1 GB/s.
    EXPECT_NEAR(term("dram"), 2 * 128 * (20 * (1 - l1) + 20) * (1 - l2) * 1e-9, 1e-15);
    EXPECT_NEAR(spills.dram_bytes, 2 * 128 * (20 * (1 - l1) + 20) * (1 - l2), 1e-6); // the same bytes
    EXPECT_GT(spills.seconds, fits.seconds);
}

TEST(TimeModel, LocalStoresGoThroughL1ToL2AndOnToDramWhereL2CannotHoldTheFrames)
{
    // KTT's Coulomb sum on an RTX 2080 Ti: L2 wrote a sector for every local store's sector
    // while L1 held the frames. 4 warps of 128-byte frames (16 KiB an SM) fit L1; 2 SMs'
    // 32 KiB against a 16 KiB L2: half of what reaches L2 goes on to DRAM.
    WarpWork w;
    w.issue = 100;
    w.local_wavefronts = 30;
    w.local_loads = 10;
    LaunchShape s = shape(8, 128, 1);
    s.bandwidth_gbs = 1;
    s.stack_bytes_per_thread = 128;
    s.l2_bytes = 16 * 1024;
    const LocalHits hits = local_memory_hits(pipe_rates(86), s);
    ASSERT_DOUBLE_EQ(hits.l1, 1.0);
    ASSERT_DOUBLE_EQ(hits.l2, 0.5);
    // 8 blocks × 4 warps × 20 store wavefronts × 128 bytes × 1/2; the loads hit L1.
    EXPECT_NEAR(term(predict_time(w, pipe_rates(86), s), "dram"), 32 * 20 * 128 * 0.5 * 1e-9, 1e-15);
    // Loads alone, held by L1, send nothing on.
    w.local_wavefronts = w.local_loads;
    EXPECT_DOUBLE_EQ(term(predict_time(w, pipe_rates(86), s), "dram"), 0.0);
}

// One phase of a warp's run: its issue slots and its chain.
WarpCounts part(double issue, double latency_cycles)
{
    WarpCounts c;
    c.issue = issue;
    c.latency_cycles = latency_cycles;
    return c;
}

TEST(TimeModel, PhasesSplitByABarrierTakeTheirOwnBoundsOneAfterTheOther)
{
    // A fill that waits on memory (one warp's chain: 1000 cycles, 10 issue slots), a
    // barrier, then arithmetic (100 issue slots, a 100-cycle chain). Over the whole run the
    // largest term is the 1100-cycle chain; the wave's blocks pass the barrier together, so
    // the arithmetic cannot hide under the fill: 1000 + 8 warps × 100 / 4 = 1200 cycles.
    const WarpCounts fill = part(10, 1000);
    const WarpCounts compute = part(100, 100);
    WarpWork w;
    w.issue = fill.issue + compute.issue;
    w.latency_cycles = 1100;
    w.phases = {fill, compute};
    const TimePrediction phased = predict_time(w, pipe_rates(86), shape(2, 256, 1)); // 8 warps, one block per SM
    // (Within a few cycles: the arithmetic's 100-cycle chain keeps a warp from its next
    // issue slot now and then while the others take theirs; closed_network.hpp.)
    EXPECT_GE(phased.seconds, 1200e-9);
    EXPECT_NEAR(phased.seconds, 1200e-9, 5e-9);
    EXPECT_EQ(phased.bound, "phases");
    ASSERT_EQ(phased.terms.size(), 13u);
    EXPECT_EQ(phased.terms[10].name, "contention");
    EXPECT_EQ(phased.terms[11].name, "phases");
    EXPECT_EQ(phased.terms[12].name, "dram");
    EXPECT_EQ(phased.phase_bounds, (std::vector<std::string>{"latency", "issue"}));

    // The same work without the barrier overlaps: the chain bounds it.
    w.phases.clear();
    const TimePrediction whole = predict_time(w, pipe_rates(86), shape(2, 256, 1));
    EXPECT_GE(whole.seconds, 1100e-9);
    EXPECT_NEAR(whole.seconds, 1100e-9, 22e-9); // within 2 % (two warps a scheduler), far under the phases' 1,200
    EXPECT_EQ(whole.bound, "latency");
    EXPECT_EQ(whole.terms.size(), 12u);
    EXPECT_TRUE(whole.phase_bounds.empty());
}

TEST(TimeModel, TwoUnitsAtTheirLimitOverlapOnlyWithWarpsToSpare)
{
    // sm_86: 100 FP32 instructions a warp at one a clock on its scheduler's quarter of the
    // FP32 lanes, and 50 shared loads at 8 clocks each on its scheduler's 4 LD/ST units: 400
    // cycles of each unit per warp.
    WarpWork w;
    w.fp32 = 400;
    w.shared_instructions = 50;
    w.shared_wavefronts = 100;
    // One warp a scheduler waits for its loads before its FMAs: the two add up.
    const TimePrediction alone = predict_time(w, pipe_rates(86), shape(2, 128, 1));
    EXPECT_DOUBLE_EQ(term(alone, "fp32"), 400e-9);
    EXPECT_DOUBLE_EQ(term(alone, "shared"), 400e-9);
    EXPECT_DOUBLE_EQ(alone.seconds, 800e-9);
    EXPECT_DOUBLE_EQ(term(alone, "contention"), 800e-9);
    EXPECT_EQ(alone.bound, "fp32"); // a unit, not the contention between them
    // 32 warps, 8 a scheduler: one warp's worth more than either unit's 3,200 cycles (a
    // balanced network of 2 queues and N customers cycles in D × (N + 1)); the scheduler's
    // 8 warps are the customers, not the SM's 32 (which would give 100 × 33 = 3,300).
    const TimePrediction many = predict_time(w, pipe_rates(86), shape(2, 1024, 1));
    EXPECT_DOUBLE_EQ(term(many, "fp32"), 3200e-9);
    EXPECT_NEAR(many.seconds, 3600e-9, 1e-15);
}

TEST(TimeModel, LocalMissesLengthenThePhaseThatLoads)
{
    // Stack frames that outgrow L1 and L2: each local load waits for DRAM, not L1. The
    // phase holding the loads waits longer, and the phases' chains add up.
    WarpCounts loads = part(10, 100);
    loads.local_loads = 2;
    const WarpCounts rest = part(10, 100);
    WarpWork w;
    w.issue = 20;
    w.local_loads = 2;
    w.latency_cycles = 150; // without the barrier the two would overlap
    w.phases = {loads, rest};
    LaunchShape s = shape(2, 32, 1);
    s.stack_bytes_per_thread = 1 << 20; // 32 MB a block: almost nothing stays in L1 or L2
    s.l2_bytes = 1 << 20;
    const PipeRates r = pipe_rates(86);
    const LocalHits hits = local_memory_hits(r, s);
    ASSERT_LT(hits.l1, 0.01);
    const double miss = (1 - hits.l1) * (hits.l2 * r.l2_latency + (1 - hits.l2) * r.dram_latency - r.l1_latency);
    const TimePrediction p = predict_time(w, r, s);
    EXPECT_NEAR(p.seconds, (100 + 2 * miss + 100) * 1e-9, 1e-15);
}
