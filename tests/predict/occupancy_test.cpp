// Occupancy from NVIDIA's calculator fed by the arch table: the seeds' worked examples
// exactly, properties over a sweep of every architecture, and the register headroom.
#include "predict/occupancy.hpp"

#include "arch/arch_target.hpp"

#include <climits>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

Occupancy occupancy(int cc, int threads, int registers, std::int64_t shared = 0, int barriers = 1)
{
    return predict_occupancy(find_arch_spec(cc), {threads, registers, shared, 0, barriers});
}

// The CUDA Programming Guide's examples, as the seeds quote them.
TEST(Occupancy, SeedsWorkedExamplesOnComputeCapability70)
{
    const Occupancy small = occupancy(70, 128, 37);
    EXPECT_EQ(small.blocks_per_sm, 12);
    EXPECT_DOUBLE_EQ(small.fraction, 0.75);
    EXPECT_EQ(small.limiter, OccupancyLimiter::registers);

    const Occupancy large = occupancy(70, 320, 37);
    EXPECT_EQ(large.blocks_per_sm, 4);
    EXPECT_DOUBLE_EQ(large.fraction, 0.625);
    EXPECT_EQ(large.active_warps, 40);
    EXPECT_EQ(large.max_warps, 64);
}

TEST(Occupancy, SeedsWorkedExamplesOnComputeCapability100)
{
    const Occupancy wide = occupancy(100, 768, 16);
    EXPECT_EQ(wide.blocks_per_sm, 2);
    EXPECT_DOUBLE_EQ(wide.fraction, 0.75);
    EXPECT_EQ(wide.limiter, OccupancyLimiter::warps);

    const Occupancy narrow = occupancy(100, 32, 16);
    EXPECT_EQ(narrow.blocks_per_sm, 32);
    EXPECT_DOUBLE_EQ(narrow.fraction, 0.5);
    EXPECT_EQ(narrow.limiter, OccupancyLimiter::blocks);
}

TEST(Occupancy, SharedMemoryLimitsAndIsNamed)
{
    // 100 KB per block on sm_90 (228 KB per SM, 1 KB reserved per block): two blocks.
    const Occupancy o = occupancy(90, 128, 32, 100 * 1024);
    EXPECT_EQ(o.blocks_per_sm, 2);
    EXPECT_EQ(o.limiter, OccupancyLimiter::shared_memory);
    EXPECT_EQ(o.blocks_by_shared_memory, 2);
}

TEST(Occupancy, RegisterHeadroomMatchesTheAllocationArithmetic)
{
    // sm_90, 256 threads (8 warps), 64 registers: 2048 per warp, 8 warps per sub-partition
    // of 16384 → 32 warps → 4 blocks. 65 registers allocate 72 (2304 per warp): 7 warps per
    // sub-partition → 3 blocks. A fifth block needs 10 warps per sub-partition: 1638 → 1536
    // per warp → 48 registers, 16 fewer.
    const Occupancy o = occupancy(90, 256, 64);
    EXPECT_EQ(o.blocks_per_sm, 4);
    EXPECT_EQ(o.limiter, OccupancyLimiter::registers);
    EXPECT_EQ(o.registers_to_lose_a_block, 1);
    EXPECT_EQ(o.registers_to_gain_a_block, 16);
    EXPECT_EQ(blocks_allowed_by_registers(find_arch_spec(90), 256, 48), 5);
    EXPECT_EQ(blocks_allowed_by_registers(find_arch_spec(90), 256, 65), 3);
}

TEST(Occupancy, NoHeadroomWhereRegistersDoNotBind)
{
    const Occupancy o = occupancy(90, 1024, 16); // two blocks by warps, registers allow more
    EXPECT_EQ(o.limiter, OccupancyLimiter::warps);
    EXPECT_FALSE(o.registers_to_gain_a_block.has_value());
    ASSERT_TRUE(o.registers_to_lose_a_block.has_value());
    EXPECT_EQ(o.registers_to_lose_a_block, 32 - 16 + 1); // 33 registers: 1056 per warp → 1 block
}

TEST(Occupancy, ZeroBarriersSwitchTheBarrierLimitOff)
{
    EXPECT_EQ(occupancy(90, 64, 16, 0, 0).blocks_by_barriers, INT_MAX);
    EXPECT_NE(occupancy(90, 64, 16, 0, 1).blocks_by_barriers, INT_MAX);
}

TEST(Occupancy, FootprintsThatCannotRunAreErrorsNamingTheValue)
{
    EXPECT_THAT([] { (void)occupancy(90, 0, 32); },
                ::testing::ThrowsMessage<OccupancyError>(::testing::HasSubstr("0 threads per block")));
    EXPECT_THAT([] { (void)occupancy(90, 2000, 32); },
                ::testing::ThrowsMessage<OccupancyError>(::testing::HasSubstr("2000 threads per block")));
    EXPECT_THAT([] { (void)occupancy(90, 128, 300); },
                ::testing::ThrowsMessage<OccupancyError>(::testing::HasSubstr("300 registers")));
    EXPECT_THAT([] { (void)occupancy(90, 1024, 255); }, // 1024 × 255 exceeds the 64K registers of a block
                ::testing::ThrowsMessage<OccupancyError>(::testing::HasSubstr(
                    "no block fits an sm_90 SM: 1024 threads × 255 registers, 0 bytes shared (the registers allow none)")));
    EXPECT_THAT([] { (void)occupancy(80, 128, 32, 200 * 1024); },
                ::testing::ThrowsMessage<OccupancyError>(::testing::HasSubstr("shared memory")));
}

// Properties over block sizes × registers × shared memory, for every architecture.
TEST(Occupancy, PropertiesHoldOverASweepOfEveryArchitecture)
{
    for (const ArchSpec& arch : arch_table()) {
        SCOPED_TRACE(arch.name);
        for (int threads = 32; threads <= arch.max_threads_per_block; threads += 32) {
            int previous_blocks = INT_MAX;
            for (int registers = 16; registers <= arch.max_registers_per_thread; registers += 8) {
                for (std::int64_t shared : {std::int64_t{0}, std::int64_t{8192}, std::int64_t{40000}}) {
                    Occupancy o;
                    try {
                        o = predict_occupancy(arch, {threads, registers, shared, 0, 1});
                    } catch (const OccupancyError&) {
                        continue; // no block fits: nothing to check
                    }
                    EXPECT_LE(o.blocks_per_sm * threads, arch.max_threads_per_sm);
                    EXPECT_LE(o.blocks_per_sm, arch.max_blocks_per_sm);
                    EXPECT_GT(o.blocks_per_sm, 0);
                    EXPECT_LE(o.fraction, 1.0);
                    // More shared memory never raises blocks per SM.
                    if (shared < 40000) {
                        try {
                            EXPECT_LE(predict_occupancy(arch, {threads, registers, shared + 8192, 0, 1}).blocks_per_sm,
                                      o.blocks_per_sm);
                        } catch (const OccupancyError&) {
                        }
                    }
                    if (shared == 0) {
                        // More registers never raise blocks per SM.
                        EXPECT_LE(o.blocks_per_sm, previous_blocks) << threads << " threads, " << registers;
                        previous_blocks = o.blocks_per_sm;
                    }
                }
            }
        }
    }
}

} // namespace

TEST(Occupancy, TheMostRegistersOneBlockLaunchesWithFollowTheAllocationRules)
{
    // sm_86: 65,536 registers in 4 partitions of 16,384, allocated per warp in units of 256.
    // 928 threads = 29 warps, 8 on the fullest partition: 16,384 / 8 = 2,048 a warp = 64 a
    // thread. 800 threads = 25 warps, 7 on the fullest: 72 a thread (2,304 a warp, 16,128)
    // fits, 73 (2,336, rounded up to 2,560: 17,920) does not.
    const ArchSpec& sm86 = find_arch_spec(86);
    EXPECT_EQ(most_registers_for_one_block(sm86, 928), 64);
    EXPECT_EQ(most_registers_for_one_block(sm86, 800), 72);
    EXPECT_EQ(most_registers_for_one_block(sm86, 1024), 64);
    EXPECT_EQ(most_registers_for_one_block(sm86, 128), 255); // the per-thread maximum binds first
    EXPECT_EQ(most_registers_for_one_block(sm86, 1025), -1);
    // It is the boundary predict_occupancy draws.
    for (const int threads : {96, 640, 800, 928, 1024}) {
        const int most = most_registers_for_one_block(sm86, threads);
        EXPECT_GT(predict_occupancy(sm86, {threads, most, 0, 0, 1}).blocks_per_sm, 0) << threads;
        if (most < sm86.max_registers_per_thread)
            EXPECT_THROW((void)predict_occupancy(sm86, {threads, most + 1, 0, 0, 1}), OccupancyError) << threads;
    }
}
