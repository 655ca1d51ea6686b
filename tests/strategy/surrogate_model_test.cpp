// The forest strategy's parts on their own: the binned point features, the regression
// trees fitted to them, and the geometry: the distance its exploration spreads by and the
// unit positions its Gaussian process sees.
#include "strategy/point_features.hpp"
#include "strategy/random_source.hpp"
#include "strategy/regression_forest.hpp"
#include "strategy/space_geometry.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace autotune;

namespace {

// T ∈ {1,2,4,8} (a size), F ∈ {0,1} (a flag), K ∈ {5} (fixed): 8 points.
SearchSpace sized_space()
{
    SearchSpace s;
    s.parameter_names = {"T", "F", "K"};
    s.parameter_values = {{1, 2, 4, 8}, {0, 1}, {5}};
    for (const std::int64_t t : s.parameter_values[0])
        for (const std::int64_t f : s.parameter_values[1])
            s.points.push_back({t, f, 5});
    return s;
}

// B ∈ {32, 64, 96, 128, 160} (five sizes), F ∈ {0,1} (a flag), K ∈ {7} (fixed): 10 points,
// B outermost.
SearchSpace five_sizes_and_a_flag()
{
    SearchSpace s;
    s.parameter_names = {"B", "F", "K"};
    s.parameter_values = {{32, 64, 96, 128, 160}, {0, 1}, {7}};
    for (const std::int64_t b : s.parameter_values[0])
        for (const std::int64_t f : s.parameter_values[1])
            s.points.push_back({b, f, 7});
    return s;
}

std::vector<std::size_t> all_points(const SearchSpace& s)
{
    std::vector<std::size_t> out(s.points.size());
    for (std::size_t p = 0; p < out.size(); ++p)
        out[p] = p;
    return out;
}

ForestSettings exact_tree()
{
    ForestSettings s;
    s.trees = 1;
    s.min_leaf = 1;
    s.feature_fraction = 1;
    s.bootstrap = false;
    return s;
}

} // namespace

TEST(PointFeatures, VaryingParametersOnlyEachPairAsSumAndDifference)
{
    const SearchSpace space = sized_space();
    // K is fixed, so it is no feature; T and F give 2 plain features and one pair (sum, difference).
    EXPECT_EQ(PointFeatures(space, false).features(), 2u);
    const PointFeatures features(space, true);
    ASSERT_EQ(features.features(), 4u);
    EXPECT_EQ(features.points(), space.points.size());
    EXPECT_EQ(features.bins(0), 4u); // T's four sizes
    EXPECT_EQ(features.bins(1), 2u); // F's two values
}

TEST(PointFeatures, BinsFollowTheValuesOrderAndSizesActOnALogScale)
{
    SearchSpace space;
    space.parameter_names = {"T", "S"};
    space.parameter_values = {{1, 2, 4, 8}, {-1, 0, 3}};
    for (const std::int64_t t : space.parameter_values[0])
        for (const std::int64_t v : space.parameter_values[1])
            space.points.push_back({t, v});
    const PointFeatures features(space, true);
    for (std::size_t p = 0; p + 1 < space.points.size(); ++p)
        for (std::size_t q = p + 1; q < space.points.size(); ++q) {
            for (std::size_t k = 0; k < 2; ++k)
                EXPECT_EQ(space.points[p][k] < space.points[q][k], features.bin(p, k) < features.bin(q, k));
        }
    // The pair's sum is log2(T) + S: T = 2, S = 0 and T = 1, S = 3 differ (1 vs 3) while
    // T = 8, S = -1 and T = 4, S = 0 meet at 2; on a linear scale they would not.
    const auto at = [&](std::int64_t t, std::int64_t v) {
        for (std::size_t p = 0; p < space.points.size(); ++p)
            if (space.points[p][0] == t && space.points[p][1] == v)
                return p;
        return space.points.size();
    };
    EXPECT_EQ(features.bin(at(8, -1), 2), features.bin(at(4, 0), 2));
    EXPECT_LT(features.bin(at(2, 0), 2), features.bin(at(1, 3), 2));
    // The column view is the same data as the row view.
    for (std::size_t p = 0; p < space.points.size(); ++p)
        for (std::size_t f = 0; f < features.features(); ++f)
            EXPECT_EQ(features.column(f)[p], features.row(p)[f]);
}

TEST(RegressionForest, AnUnbaggedTreeReproducesItsTrainingTargetsAndSplitsWhereTheDataDoes)
{
    const SearchSpace space = sized_space();
    const PointFeatures features(space, false);
    // Time falls with T and the flag costs 1: a tree must separate all eight.
    std::vector<std::size_t> points = all_points(space);
    std::vector<double> targets;
    for (const auto& p : space.points)
        targets.push_back(10.0 / static_cast<double>(p[0]) + static_cast<double>(p[1]));
    RandomSource random(3);
    RegressionForest tree;
    tree.fit(features, points, targets, exact_tree(), random);
    ASSERT_EQ(tree.trees(), 1u);
    const auto predictions = tree.predict(features, points);
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_DOUBLE_EQ(predictions[i].mean, targets[i]) << "point " << i;
        EXPECT_DOUBLE_EQ(tree.predict(features, points[i]).mean, targets[i]);
        EXPECT_EQ(predictions[i].spread, 0.0);
    }

    // Trained only on F = 0, it predicts F = 1 points like their F = 0 neighbours.
    std::vector<std::size_t> flag_off;
    std::vector<double> off_targets;
    for (std::size_t p = 0; p < space.points.size(); ++p)
        if (space.points[p][1] == 0) {
            flag_off.push_back(p);
            off_targets.push_back(targets[p]);
        }
    RegressionForest partial;
    partial.fit(features, flag_off, off_targets, exact_tree(), random);
    for (std::size_t p = 0; p < space.points.size(); ++p)
        EXPECT_DOUBLE_EQ(partial.predict(features, p).mean, 10.0 / static_cast<double>(space.points[p][0]));
}

TEST(RegressionForest, BaggedTreesDisagreeWhereDataIsThinAndFollowTheSeed)
{
    const SearchSpace space = sized_space();
    const PointFeatures features(space, true);
    const std::vector<std::size_t> points{0, 2, 4, 6}; // F = 0 only
    const std::vector<double> targets{4, 3, 2, 1};
    ForestSettings settings;
    settings.trees = 16;
    RandomSource a(7), b(7), c(8);
    RegressionForest first, again, other;
    first.fit(features, points, targets, settings, a);
    again.fit(features, points, targets, settings, b);
    other.fit(features, points, targets, settings, c);
    const auto all = all_points(space);
    const auto p1 = first.predict(features, all), p2 = again.predict(features, all), p3 = other.predict(features, all);
    bool differs = false, spread = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(p1[i].mean, p2[i].mean);
        EXPECT_EQ(p1[i].spread, p2[i].spread);
        differs = differs || p1[i].mean != p3[i].mean;
        spread = spread || p1[i].spread > 0;
        EXPECT_GE(p1[i].mean, 1.0);
        EXPECT_LE(p1[i].mean, 4.0);
    }
    EXPECT_TRUE(differs) << "another seed draws other bootstrap samples";
    EXPECT_TRUE(spread) << "bootstrap trees disagree somewhere";
}

TEST(SpaceGeometry, DistanceScalesEachParameterToItsValueList)
{
    const SearchSpace space = five_sizes_and_a_flag();
    const SpaceGeometry geometry(space);
    const auto at = [&](std::int64_t b, std::int64_t f) {
        return *geometry.find({static_cast<std::uint32_t>(b / 32 - 1), static_cast<std::uint32_t>(f), 0});
    };
    EXPECT_DOUBLE_EQ(geometry.distance(at(32, 0), at(32, 0)), 0.0);
    EXPECT_DOUBLE_EQ(geometry.distance(at(32, 0), at(32, 1)), 1.0);  // the flag: its whole list
    EXPECT_DOUBLE_EQ(geometry.distance(at(32, 0), at(64, 0)), 0.25); // one step of four
    EXPECT_DOUBLE_EQ(geometry.distance(at(32, 0), at(160, 1)), 2.0);
    EXPECT_DOUBLE_EQ(geometry.distance(at(64, 1), at(160, 0)), geometry.distance(at(160, 0), at(64, 1)));
    EXPECT_DOUBLE_EQ(geometry.distance_to_nearest(at(96, 0), {at(32, 1), at(128, 0), at(160, 0)}), 0.25);
    EXPECT_EQ(geometry.distance_to_nearest(at(96, 0), {}), std::numeric_limits<double>::infinity());
}

TEST(SpaceGeometry, UnitPositionsScaleEachListAndTheirL1IsTheDistance)
{
    // What the Gaussian process sees: each value list's position in [0, 1], a single value at 0.
    const SearchSpace space = five_sizes_and_a_flag();
    const SpaceGeometry geometry(space);
    EXPECT_EQ(geometry.unit_position(0), (std::vector<double>{0.0, 0.0, 0.0}));
    EXPECT_EQ(geometry.unit_position(3), (std::vector<double>{0.25, 1.0, 0.0})); // B = 64, F = 1
    EXPECT_EQ(geometry.unit_position(9), (std::vector<double>{1.0, 1.0, 0.0}));
    for (std::size_t a = 0; a < space.points.size(); ++a)
        for (std::size_t b = 0; b < space.points.size(); ++b) {
            const auto x = geometry.unit_position(a);
            const auto y = geometry.unit_position(b);
            double l1 = 0;
            for (std::size_t k = 0; k < x.size(); ++k)
                l1 += std::abs(x[k] - y[k]);
            EXPECT_NEAR(l1, geometry.distance(a, b), 1e-12) << a << ", " << b;
        }
}
