// Progress where nobody watches a terminal: a line at each further tenth of the work or
// after 15 s of silence, and at the end; never two for the same count.
#include "util/progress_throttle.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

namespace {

class ProgressThrottleTest : public ::testing::Test {
protected:
    ProgressThrottle::Clock::time_point t0 = ProgressThrottle::Clock::now();
    ProgressThrottle throttle{t0};
    std::size_t printed(std::size_t done, std::size_t total, std::chrono::milliseconds at)
    {
        return throttle.update(done, total, t0 + at, "compiling").has_value() ? 1 : 0;
    }
};

TEST_F(ProgressThrottleTest, FastWorkGetsALineEachTenthAndOneAtTheEnd)
{
    std::size_t lines = 0;
    for (std::size_t done = 1; done <= 150; ++done)
        lines += printed(done, 150, std::chrono::milliseconds(done)); // 150 ms in all: never 15 s
    EXPECT_EQ(lines, 10u); // 15, 30, ..., 150
}

TEST_F(ProgressThrottleTest, SlowWorkGetsALineEvery15Seconds)
{
    // 1000 steps of 1 s: a tenth is 100 s, so the 15 s rule speaks between tenths.
    std::size_t lines = 0;
    for (std::size_t done = 1; done <= 1000; ++done)
        lines += printed(done, 1000, std::chrono::seconds(done));
    EXPECT_EQ(lines, 1000u / 15u + 1u); // every 15 s, and the end
}

TEST_F(ProgressThrottleTest, TheLineSaysDoneTotalElapsedAndWhatIsLeft)
{
    const auto line = throttle.update(50, 200, t0 + 20s, "compiling gemm for sm_90");
    ASSERT_TRUE(line);
    EXPECT_EQ(*line, "compiling gemm for sm_90: 50/200 (25%), 20 s elapsed, about 60 s left");
    const auto last = throttle.update(200, 200, t0 + 80s, "compiling gemm for sm_90");
    ASSERT_TRUE(last);
    EXPECT_EQ(*last, "compiling gemm for sm_90: 200/200 (100%), 80 s elapsed");
    EXPECT_FALSE(throttle.update(200, 200, t0 + 200s, "compiling gemm for sm_90")) << "the end is said once";
}

TEST_F(ProgressThrottleTest, ARestartedPhaseCountsAgainFromItsOwnStart)
{
    ASSERT_TRUE(throttle.update(100, 100, t0 + 10s, "compiling"));
    throttle.restart(t0 + 10s);
    const auto line = throttle.update(10, 100, t0 + 12s, "measuring");
    ASSERT_TRUE(line);
    EXPECT_THAT(*line, HasSubstr("measuring: 10/100 (10%), 2 s elapsed, about 18 s left"));
}

TEST_F(ProgressThrottleTest, NothingToDoPrintsNothing)
{
    EXPECT_FALSE(throttle.update(0, 0, t0 + 100s, "compiling"));
}

} // namespace
