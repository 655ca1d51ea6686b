// forest's targets: the better half of the measured log times as they are, the rest at
// their median, so that the slowest points do not decide the tree's splits.
#include "strategy/capped_times.hpp"

#include <gtest/gtest.h>

using namespace autotune;

TEST(CappedTimes, EveryTimeAboveTheMedianBecomesTheMedian)
{
    std::vector<double> times{3.0, -1.0, 40.0, 0.5, 2.0, 9.0};
    cap_at_median(times); // lower median of six: the third smallest, 2.0
    EXPECT_EQ(times, (std::vector<double>{2.0, -1.0, 2.0, 0.5, 2.0, 2.0}));

    std::vector<double> odd{5.0, 1.0, 3.0, 4.0, 2.0};
    cap_at_median(odd);
    EXPECT_EQ(odd, (std::vector<double>{3.0, 1.0, 3.0, 3.0, 2.0}));
}

TEST(CappedTimes, FewerThanFourAreLeftAsTheyAre)
{
    std::vector<double> times{7.0, 1.0, 4.0};
    cap_at_median(times);
    EXPECT_EQ(times, (std::vector<double>{7.0, 1.0, 4.0}));
}
