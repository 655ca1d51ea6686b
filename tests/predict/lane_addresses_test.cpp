// How a warp's lanes address memory: the affine thread-index part followed through the
// PTX, and what it costs: sectors for global accesses, wavefronts for shared bank conflicts.
#include "predict/lane_addresses.hpp"
#include "predict/time_model.hpp"
#include "predict/warp_work.hpp"

#include <gtest/gtest.h>
#include <string>

using namespace autotune;

namespace {

PtxKernel kernel(const std::string& body)
{
    return find_ptx_kernel(".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n" + body + "\tret;\n}\n", "k");
}

TEST(LaneAddresses, TheThreadIndexIsFollowedThroughScalingAndAdding)
{
    const PtxKernel k = kernel("\tld.param.u64 %rd0, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n"
                               "\tmul.lo.s32 %r3, %r2, 15;\n\tadd.s32 %r4, %r3, %r1;\n\tmul.wide.s32 %rd1, %r4, 4;\n"
                               "\tadd.s64 %rd2, %rd0, %rd1;\n\tld.global.f32 %f1, [%rd2+8];\n"
                               "\tld.global.f32 %f2, [%rd3];\n");
    const auto lanes = lane_addresses(k);
    ASSERT_TRUE(lanes[7].has_value());
    EXPECT_EQ(lanes[7]->x, 4);
    EXPECT_EQ(lanes[7]->y, 60);
    EXPECT_FALSE(lanes[8].has_value()) << "%rd3 was never set: nothing is known of it";
}

TEST(LaneAddresses, AScaleKnownOnlyAtRunTimeIsNotGuessed)
{
    const PtxKernel k = kernel("\tld.param.u32 %r9, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n"
                               "\tmul.lo.s32 %r3, %r1, %r9;\n\tmul.wide.s32 %rd1, %r3, 4;\n\tld.global.f32 %f1, [%rd1];\n");
    EXPECT_FALSE(lane_addresses(k)[4].has_value());
}

TEST(LaneAddresses, GlobalSectorsCountCoalescing)
{
    const BlockShape row{256, 1};
    EXPECT_EQ(global_footprint({4, 0}, row, 4).sectors, 4);      // 128 contiguous bytes
    EXPECT_EQ(global_footprint({8, 0}, row, 8).sectors, 8);      // float2: 256 bytes
    EXPECT_EQ(global_footprint({4096, 0}, row, 4).sectors, 32);  // a row apart: a sector each
    EXPECT_EQ(global_footprint({0, 4096}, {1, 32}, 4).sectors, 32); // blockDim.x = 1: lanes run down a column
    EXPECT_EQ(global_footprint({4, 4096}, {8, 4}, 4).sectors, 4);   // 8 lanes of 32 bytes in each of 4 rows
}

TEST(LaneAddresses, SharedWavefrontsCountBankConflicts)
{
    EXPECT_EQ(shared_wavefronts({4, 0}, {32, 1}, 4), 1);    // one word per bank
    EXPECT_EQ(shared_wavefronts({128, 0}, {32, 1}, 4), 32); // stride 32 words: one bank, 32 words
    EXPECT_EQ(shared_wavefronts({132, 0}, {32, 1}, 4), 1);  // padded to 33 words: conflict-free
    EXPECT_EQ(shared_wavefronts({0, 0}, {32, 1}, 4), 1);    // a broadcast
    EXPECT_EQ(shared_wavefronts({4, 64}, {16, 2}, 4), 1);   // two rows 16 words apart: banks 0-15, 16-31
    EXPECT_EQ(shared_wavefronts({4, 128}, {16, 2}, 4), 2);  // 32 words apart: both rows on banks 0-15
    EXPECT_EQ(shared_wavefronts({4, 192}, {16, 2}, 4), 1);  // 48 words apart: banks 16-31 again free
    EXPECT_EQ(shared_wavefronts({16, 0}, {32, 1}, 16), 4);  // float4: 512 bytes, at least 4
}

TEST(LaneAddresses, OnTuringEachWayOfABankConflictReplaysTheWarpsTwoClockPass)
{
    // Blocks 16 wide over tile rows 46 words apart (unpadded) and 48 (padded): rows 0 and 1
    // of the warp meet on banks 14 and 15, a 2-way conflict; padded they do not.
    // Turing replays a pass of 2 clocks (pipe_rates(75)); GA10x does not replay.
    ASSERT_TRUE(pipe_rates(75).shared_conflicts_replay);
    ASSERT_EQ(pipe_rates(75).lsu_clocks_per_access, 2);
    ASSERT_FALSE(pipe_rates(86).shared_conflicts_replay);
    const BlockShape narrow{16, 2};
    EXPECT_EQ(shared_wavefronts({4, 46 * 4}, narrow, 4), 2);
    EXPECT_EQ(shared_access_wavefronts({4, 46 * 4}, narrow, 4, 0), 2); // within GA10x's two clocks
    EXPECT_EQ(shared_access_wavefronts({4, 46 * 4}, narrow, 4, 2), 4); // two passes of two clocks
    EXPECT_EQ(shared_access_wavefronts({4, 48 * 4}, narrow, 4, 2), 1); // conflict-free: the floor applies
    EXPECT_EQ(shared_access_wavefronts({128, 0}, {32, 1}, 4, 2), 64);  // 32 ways
    // A conflict-free float4 read moves its 512 bytes in 4 wavefronts on both.
    EXPECT_EQ(shared_access_wavefronts({16, 0}, {32, 1}, 16, 2), 4);
    EXPECT_EQ(shared_access_wavefronts({16, 0}, {32, 1}, 16, 0), 4);
    // float4 lanes 8 words apart: each bank serves 8 words, 2 ways of 4 wavefronts; the
    // replays cost what the wavefronts do.
    EXPECT_EQ(shared_access_wavefronts({32, 0}, {32, 1}, 16, 2), 8);
    EXPECT_EQ(shared_access_wavefronts({32, 0}, {32, 1}, 16, 0), 8);
}

// The PTX's .target decides: the same conflicted shared read costs twice the wavefronts in
// code for sm_75 as in code for sm_86.
TEST(LaneAddresses, ThePtxTargetSetsWhatASharedConflictCosts)
{
    const std::string body = "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tshl.b32 %r3, %r1, 2;\n"
                             "\tmul.lo.s32 %r4, %r2, 184;\n\tadd.s32 %r5, %r3, %r4;\n\tld.shared.f32 %f1, [%r5];\n";
    const auto module = [&](const std::string& target) {
        return find_ptx_kernel(".version 8.0\n.target " + target + "\n.address_size 64\n\n"
                               ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n" + body + "\tret;\n}\n", "k");
    };
    const PtxKernel turing = module("sm_75"), ampere = module("sm_86");
    EXPECT_EQ(turing.target, 75);
    EXPECT_EQ(ampere.target, 86);
    EXPECT_EQ(module("sm_90a").target, 90);
    EXPECT_DOUBLE_EQ(analyse_warp_work(turing, {}, BlockShape{16, 2}).shared_wavefronts, 4);
    EXPECT_DOUBLE_EQ(analyse_warp_work(ampere, {}, BlockShape{16, 2}).shared_wavefronts, 2);
}

// The costs reach the warp's work: a transposed (strided) global read costs 8 times the
// sectors of a coalesced one.
TEST(LaneAddresses, WarpWorkCountsTheSectorsOfStridedAccesses)
{
    const auto access = [](const std::string& stride) {
        return kernel("\tld.param.u64 %rd0, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.s32 %rd1, %r1, " +
                      stride + ";\n\tadd.s64 %rd2, %rd0, %rd1;\n\tld.global.f32 %f1, [%rd2];\n");
    };
    const WarpWork coalesced = analyse_warp_work(access("4"), {}, BlockShape{128, 1});
    const WarpWork strided = analyse_warp_work(access("4096"), {}, BlockShape{128, 1});
    EXPECT_DOUBLE_EQ(coalesced.global_load_bytes, 128);
    EXPECT_DOUBLE_EQ(strided.global_load_bytes, 32 * 32);
    // L1 passes one line's sectors a wavefront: 32 sectors in 32 lines take 32, not 8.
    EXPECT_DOUBLE_EQ(strided.global_wavefronts, 32 * coalesced.global_wavefronts);
    // 64 bytes apart: a sector each, two to a line: 16 wavefronts; 8 apart: 8 sectors in
    // 2 lines, four to a wavefront: 2.
    EXPECT_DOUBLE_EQ(analyse_warp_work(access("64"), {}, BlockShape{128, 1}).global_wavefronts,
                     16 * coalesced.global_wavefronts);
    EXPECT_DOUBLE_EQ(analyse_warp_work(access("8"), {}, BlockShape{128, 1}).global_wavefronts,
                     2 * coalesced.global_wavefronts);
}

TEST(LaneAddresses, GlobalLinesCountTheCacheLinesAWarpTouches)
{
    EXPECT_EQ(global_footprint({4, 0}, {256, 1}, 4).lines, 1);      // 128 contiguous bytes
    EXPECT_EQ(global_footprint({16, 0}, {256, 1}, 16).lines, 4);    // float4: 512 bytes
    EXPECT_EQ(global_footprint({4096, 0}, {256, 1}, 4).lines, 32);  // a row apart: a line each
    // A block 2 wide: each pair of lanes in a row of its own, 16 rows: 16 lines for 16 sectors.
    EXPECT_EQ(global_footprint({4, 16448}, {2, 16}, 4).lines, 16);
    EXPECT_EQ(global_footprint({4, 16448}, {2, 16}, 4).sectors, 16);
}

} // namespace

namespace {

TEST(LaneAddresses, CoefficientsBeyondSixtyFourBitsMakeTheAddressUnknown)
{
    // Found by the ptx fuzz target: a shift by 585, a product past 2^63. No compiler writes
    // them; the tracker must neither shift past the width nor overflow a signed integer.
    const PtxKernel k = kernel("\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 585;\n\tld.global.f32 %f1, [%r2];\n"
                               "\tmul.lo.s32 %r3, %r1, 9223372036854775807;\n\tmul.lo.s32 %r4, %r3, 4;\n"
                               "\tld.global.f32 %f2, [%r4];\n\tshl.b32 %r5, %r1, 2;\n\tld.global.f32 %f3, [%r5];\n");
    const auto lanes = lane_addresses(k);
    EXPECT_FALSE(lanes[2].has_value());
    EXPECT_FALSE(lanes[5].has_value());
    ASSERT_TRUE(lanes[7].has_value());
    EXPECT_EQ(lanes[7]->x, 4);
}

// Found by the ptx fuzz target: a shift by 61 is a coefficient the tracker keeps (it fits
// 64 bits), but the lanes' offsets (2^61 bytes a lane, times 32 lanes) do not. Addresses wrap
// at 64 bits as the hardware's do, so each lane still has one: lane 8 wraps to lane 0's,
// so 8 sectors, and 8 words all in bank 0.
TEST(LaneAddresses, LaneOffsetsBeyondSixtyFourBitsWrapAsTheHardwaresDo)
{
    const LaneAffine huge{std::int64_t{1} << 61, 0};
    EXPECT_EQ(global_footprint(huge, {32, 1}, 4).sectors, 8);
    EXPECT_EQ(shared_wavefronts(huge, {32, 1}, 4), 8);
    EXPECT_EQ(global_footprint({std::int64_t{1} << 62, std::int64_t{1} << 62}, {16, 2}, 16).sectors, 4);
}

} // namespace
