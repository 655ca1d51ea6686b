// Mean value analysis of a closed network on cases with known answers.
#include "predict/closed_network.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace autotune;

namespace {

// One scheduler's warps alone: every unit theirs.
ClosedNetwork one_class(std::vector<double> demands, double delay, int customers)
{
    return {.per_scheduler = std::move(demands), .per_sm = {}, .delay = delay, .customers = customers,
            .warps = static_cast<double>(customers)};
}

TEST(ClosedNetwork, OneQueueAndNoDelayServesItsCustomersOneAfterAnother)
{
    EXPECT_DOUBLE_EQ(closed_network_cycle(one_class({5}, 0, 1)), 5);
    EXPECT_NEAR(closed_network_cycle(one_class({5}, 0, 7)), 35, 1e-9);
}

TEST(ClosedNetwork, OneCustomerPassesEveryQueueAndTheDelayInTurn)
{
    EXPECT_DOUBLE_EQ(closed_network_cycle(one_class({1, 2, 3}, 4, 1)), 10);
}

TEST(ClosedNetwork, BalancedQueuesCycleInTheirDemandTimesCustomersPlusQueuesLessOne)
{
    // K queues of demand D and N customers: by symmetry each holds N/K on average and the
    // cycle is D (N + K - 1) (the balanced-system case of Lazowska et al., Quantitative
    // System Performance, 1984), where the approximation is exact.
    EXPECT_NEAR(closed_network_cycle(one_class({3, 3}, 0, 10)), 3 * 11, 1e-9);
    EXPECT_NEAR(closed_network_cycle(one_class({2, 2, 2, 2}, 0, 6)), 2 * 9, 1e-9);
}

TEST(ClosedNetwork, TwoUnequalQueuesByHand)
{
    // Two customers at demands 1 and 2: each finds half its class's queue, R_k = D_k (1 +
    // R_k / c) with c = R_1 + R_2, so 1 = 1 / (c - 1) + 2 / (c - 2): c = 3 + sqrt(3). Exact
    // MVA says 14/3: the approximation is 1.4 % long.
    const double cycle = closed_network_cycle(one_class({1, 2}, 0, 2));
    EXPECT_NEAR(cycle, 3 + std::sqrt(3.0), 1e-9);
    EXPECT_NEAR(cycle / (14.0 / 3), 1, 0.015);
}

TEST(ClosedNetwork, TheCycleLiesBetweenTheBottleneckAndEveryoneInTurn)
{
    const double delay = 6;
    for (int n = 1; n <= 64; ++n) {
        const double cycle = closed_network_cycle(one_class({4, 1, 2.5}, delay, n));
        EXPECT_GE(cycle, n * 4 - 1e-9) << n;                    // the busiest queue's work
        EXPECT_GE(cycle, delay + 7.5 - 1e-9) << n;               // one customer's own path
        EXPECT_LE(cycle, n * (delay + 7.5) + 1e-9) << n;         // every customer in turn
    }
    // With many customers the bottleneck alone sets the pace.
    EXPECT_NEAR(closed_network_cycle(one_class({4, 1, 2.5}, delay, 1000)) / (1000 * 4), 1, 0.01);
}

// Four warps, one on each scheduler: at a unit each scheduler has, none waits for another;
// at a unit the SM's schedulers share, they pass one after another.
TEST(ClosedNetwork, EachSchedulersWarpsQueueOnlyAtTheUnitsTheyShare)
{
    EXPECT_DOUBLE_EQ(closed_network_cycle({.per_scheduler = {4}, .per_sm = {}, .customers = 1, .warps = 4}), 4);
    EXPECT_NEAR(closed_network_cycle({.per_scheduler = {}, .per_sm = {1}, .customers = 1, .warps = 4}), 4, 1e-9);
    // Both: R_sm = 1 (1 + 3 R_sm / c), c = 4 + R_sm, so R_sm^2 = 4: the cycle is 6, where
    // one pooled class of four warps would overlap the four-cycle unit with the shared one
    // and four warps' queues (the model before schedulers kept their own warps).
    const double both = closed_network_cycle({.per_scheduler = {4}, .per_sm = {1}, .customers = 1, .warps = 4});
    EXPECT_NEAR(both, 6, 1e-9);
    // The SM's shared units see every class: twice the warps, twice the queue there.
    const double eight = closed_network_cycle({.per_scheduler = {}, .per_sm = {1}, .customers = 2, .warps = 8});
    EXPECT_NEAR(eight, 8, 1e-9);
}

// Many warps: the busiest unit sets the pace, a scheduler's own for its warps or the SM's
// for all of them.
TEST(ClosedNetwork, WithManyWarpsTheBusiestUnitSetsThePace)
{
    const double own = closed_network_cycle({.per_scheduler = {4}, .per_sm = {0.5}, .customers = 100, .warps = 400});
    EXPECT_GE(own, 100 * 4 - 1e-9);
    EXPECT_NEAR(own / (100 * 4), 1, 0.02);
    const double sm = closed_network_cycle({.per_scheduler = {0.5}, .per_sm = {2}, .customers = 100, .warps = 400});
    EXPECT_NEAR(sm / (400 * 2), 1, 0.02);
}

TEST(ClosedNetwork, NoCustomerFewerWarpsThanCustomersOrANegativeDemandIsRefused)
{
    EXPECT_THROW((void)closed_network_cycle(one_class({1}, 0, 0)), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle({.per_scheduler = {1}, .customers = 2, .warps = 1}), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle(one_class({-1}, 0, 1)), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle({.per_sm = {-1}}), std::invalid_argument);
    EXPECT_THROW((void)closed_network_cycle(one_class({1}, -1, 1)), std::invalid_argument);
}

} // namespace
