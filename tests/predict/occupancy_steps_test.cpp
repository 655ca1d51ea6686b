// Occupancy steps: where registers per thread cost a block per SM.
#include "predict/occupancy_steps.hpp"

#include <gtest/gtest.h>

using namespace autotune;

TEST(OccupancySteps, AgreeWithThePredictionAtEveryRegisterCount)
{
    const ArchSpec& arch = find_arch_spec(90);
    const KernelFootprint block{256, 0, 8192, 0, 1};
    const auto steps = occupancy_steps(arch, block);
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.front().registers, 1);
    std::size_t k = 0;
    for (int r = 1; r <= arch.max_registers_per_thread; ++r) {
        while (k + 1 < steps.size() && steps[k + 1].registers <= r)
            ++k;
        KernelFootprint f = block;
        f.registers_per_thread = r;
        EXPECT_EQ(steps[k].blocks_per_sm, predict_occupancy(arch, f).blocks_per_sm) << r << " registers";
    }
}

TEST(OccupancySteps, TwoFiftySixThreadBlocksOnSm90LoseBlocksAt33And65And129)
{
    // 65536 registers: 32 per thread keep 8 blocks of 256, 64 keep 4, 128 keep 2.
    const auto steps = occupancy_steps(find_arch_spec(90), {256, 0, 0, 0, 1});
    auto blocks_from = [&](int registers) {
        for (const auto& s : steps)
            if (s.registers == registers)
                return s.blocks_per_sm;
        return -1; // no step there
    };
    EXPECT_EQ(steps.front().blocks_per_sm, 8);
    EXPECT_LT(blocks_from(33), 8);
    EXPECT_EQ(blocks_from(65), 3);
    EXPECT_EQ(blocks_from(129), 1);
    EXPECT_EQ(blocks_from(128), -1);
}
