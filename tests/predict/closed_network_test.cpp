// Mean value analysis of a closed network on cases with known answers.
#include "predict/closed_network.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

using namespace autotune;

TEST(ClosedNetwork, OneQueueAndNoDelayServesItsCustomersOneAfterAnother)
{
    const std::vector<double> d{5};
    EXPECT_DOUBLE_EQ(closed_network_cycle(d, 0, 1), 5);
    EXPECT_DOUBLE_EQ(closed_network_cycle(d, 0, 7), 35);
}

TEST(ClosedNetwork, OneCustomerPassesEveryQueueAndTheDelayInTurn)
{
    const std::vector<double> d{1, 2, 3};
    EXPECT_DOUBLE_EQ(closed_network_cycle(d, 4, 1), 10);
}

TEST(ClosedNetwork, BalancedQueuesCycleInTheirDemandTimesCustomersPlusQueuesLessOne)
{
    // K queues of demand D and N customers: by symmetry each holds N/K on average and the
    // cycle is D (N + K - 1) (the balanced-system case of Lazowska et al., Quantitative System Performance, 1984).
    const std::vector<double> two{3, 3}, four{2, 2, 2, 2};
    EXPECT_NEAR(closed_network_cycle(two, 0, 10), 3 * 11, 1e-9);
    EXPECT_NEAR(closed_network_cycle(four, 0, 6), 2 * 9, 1e-9);
}

TEST(ClosedNetwork, TwoUnequalQueuesByHand)
{
    // n = 1: residences 1 and 2, cycle 3, queues 1/3 and 2/3. n = 2: residences
    // 1 × 4/3 and 2 × 5/3, cycle 14/3.
    const std::vector<double> d{1, 2};
    EXPECT_NEAR(closed_network_cycle(d, 0, 2), 14.0 / 3, 1e-12);
}

TEST(ClosedNetwork, TheCycleLiesBetweenTheBottleneckAndEveryoneInTurn)
{
    const std::vector<double> d{4, 1, 2.5};
    const double delay = 6;
    for (int n = 1; n <= 64; ++n) {
        const double cycle = closed_network_cycle(d, delay, n);
        EXPECT_GE(cycle, n * 4 - 1e-9) << n;                    // the busiest queue's work
        EXPECT_GE(cycle, delay + 7.5 - 1e-9) << n;               // one customer's own path
        EXPECT_LE(cycle, n * (delay + 7.5) + 1e-9) << n;         // every customer in turn
    }
    // With many customers the bottleneck alone sets the pace.
    EXPECT_NEAR(closed_network_cycle(d, delay, 1000) / (1000 * 4), 1, 0.01);
}

TEST(ClosedNetwork, NoCustomerOrANegativeDemandIsRefused)
{
    const std::vector<double> d{1}, negative{-1};
    EXPECT_THROW((void)closed_network_cycle(d, 0, 0), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle(negative, 0, 1), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle(d, -1, 1), std::invalid_argument);
}
