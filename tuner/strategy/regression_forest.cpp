#include "strategy/regression_forest.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace autotune {
namespace {

struct TreeBuilder {
    const PointFeatures& features;
    const std::vector<std::size_t>& points;
    const std::vector<double>& targets;
    const ForestSettings& settings;
    RandomSource& random;
    std::vector<std::size_t> candidates; // features with more than one bin
    std::size_t tried = 1;               // features tried per split

    template <typename Node>
    std::int32_t build(std::vector<Node>& tree, std::vector<std::size_t>& rows, std::size_t begin, std::size_t end)
    {
        const auto id = static_cast<std::int32_t>(tree.size());
        tree.emplace_back();
        double sum = 0;
        for (std::size_t i = begin; i < end; ++i)
            sum += targets[rows[i]];
        const std::size_t n = end - begin;
        tree[id].value = sum / static_cast<double>(n);
        if (n < 2 * settings.min_leaf || n < 2)
            return id;

        // Best split over a random subset of the features (partial Fisher–Yates).
        double best_gain = 1e-12 * std::max(1.0, std::abs(sum));
        std::size_t best_feature = 0;
        int best_threshold = -1;
        std::array<double, 256> bin_sum{};
        std::array<std::size_t, 256> bin_count{};
        for (std::size_t c = 0; c < tried && c < candidates.size(); ++c) {
            std::swap(candidates[c], candidates[c + random.below(candidates.size() - c)]);
            const std::size_t f = candidates[c];
            const std::size_t bins = features.bins(f);
            std::fill_n(bin_sum.begin(), bins, 0.0);
            std::fill_n(bin_count.begin(), bins, std::size_t{0});
            for (std::size_t i = begin; i < end; ++i) {
                const std::size_t r = rows[i];
                const std::uint8_t b = features.bin(points[r], f);
                bin_sum[b] += targets[r];
                ++bin_count[b];
            }
            double left_sum = 0;
            std::size_t left_count = 0;
            const double parent = sum * sum / static_cast<double>(n);
            for (std::size_t b = 0; b + 1 < bins; ++b) {
                left_sum += bin_sum[b];
                left_count += bin_count[b];
                if (bin_count[b] == 0 || left_count < settings.min_leaf)
                    continue;
                if (n - left_count < settings.min_leaf)
                    break;
                if (left_count == 0 || left_count == n)
                    continue;
                const double right_sum = sum - left_sum;
                const double gain = left_sum * left_sum / static_cast<double>(left_count) +
                                    right_sum * right_sum / static_cast<double>(n - left_count) - parent;
                if (gain > best_gain) {
                    best_gain = gain;
                    best_feature = f;
                    best_threshold = static_cast<int>(b);
                }
            }
        }
        if (best_threshold < 0)
            return id;
        const auto threshold = static_cast<std::uint8_t>(best_threshold);
        const auto middle = std::partition(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                           rows.begin() + static_cast<std::ptrdiff_t>(end), [&](std::size_t r) {
                                               return features.bin(points[r], best_feature) <= threshold;
                                           });
        const auto split = static_cast<std::size_t>(middle - rows.begin());
        tree[id].feature = static_cast<std::uint32_t>(best_feature);
        tree[id].threshold = threshold;
        const std::int32_t left = build(tree, rows, begin, split);
        const std::int32_t right = build(tree, rows, split, end);
        tree[id].left = left;
        tree[id].right = right;
        return id;
    }
};

} // namespace

void RegressionForest::fit(const PointFeatures& features, const std::vector<std::size_t>& points,
                           const std::vector<double>& targets, const ForestSettings& settings, RandomSource& random)
{
    trees_.clear();
    if (points.empty())
        return;
    TreeBuilder builder{features, points, targets, settings, random, {}, 1};
    for (std::size_t f = 0; f < features.features(); ++f)
        if (features.bins(f) > 1)
            builder.candidates.push_back(f);
    builder.tried = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(settings.feature_fraction * static_cast<double>(builder.candidates.size()))));
    const std::size_t n = points.size();
    std::vector<std::size_t> rows(n);
    for (std::size_t t = 0; t < settings.trees; ++t) {
        for (std::size_t i = 0; i < n; ++i)
            rows[i] = settings.bootstrap ? random.below(n) : i;
        trees_.emplace_back();
        trees_.back().reserve(2 * n);
        builder.build(trees_.back(), rows, 0, n);
    }
}

ForestPrediction RegressionForest::predict(const PointFeatures& features, std::size_t point) const
{
    ForestPrediction out;
    if (trees_.empty())
        return out;
    const std::uint8_t* row = features.row(point);
    double sum = 0, squares = 0;
    for (const auto& tree : trees_) {
        std::int32_t node = 0;
        while (tree[node].left >= 0)
            node = row[tree[node].feature] <= tree[node].threshold ? tree[node].left : tree[node].right;
        sum += tree[node].value;
        squares += tree[node].value * tree[node].value;
    }
    const auto count = static_cast<double>(trees_.size());
    out.mean = sum / count;
    out.spread = std::sqrt(std::max(0.0, squares / count - out.mean * out.mean));
    return out;
}

// Routes `points` down `tree`, partitioning positions into `points` as it goes, and hands
// each group that reaches a leaf to `at_leaf(leaf, positions)`. Batched so that each node
// reads its feature column once for the whole group.
namespace {

template <typename Node, typename AtLeaf>
void route_points(const std::vector<Node>& tree, const PointFeatures& features, const std::vector<std::size_t>& points,
                  AtLeaf at_leaf)
{
    const std::size_t n = points.size();
    if (n == 0)
        return;
    std::vector<std::uint32_t> order(n), scratch(n); // scratch holds each split's right side
    for (std::size_t i = 0; i < n; ++i)
        order[i] = static_cast<std::uint32_t>(i);
    struct Pending {
        std::int32_t node;
        std::size_t begin, end;
    };
    std::vector<Pending> stack{{0, 0, n}};
    while (!stack.empty()) {
        const Pending at = stack.back();
        stack.pop_back();
        const Node& node = tree[static_cast<std::size_t>(at.node)];
        if (node.left < 0) {
            at_leaf(node, std::span<const std::uint32_t>(order.data() + at.begin, at.end - at.begin));
            continue;
        }
        const std::uint8_t* column = features.column(node.feature);
        std::size_t left = at.begin, right = 0;
        for (std::size_t i = at.begin; i < at.end; ++i) {
            const std::uint32_t o = order[i];
            const bool goes_left = column[points[o]] <= node.threshold;
            order[left] = o;
            scratch[right] = o;
            left += goes_left;
            right += !goes_left;
        }
        std::copy_n(scratch.begin(), right, order.begin() + static_cast<std::ptrdiff_t>(left));
        if (left > at.begin)
            stack.push_back({node.left, at.begin, left});
        if (at.end > left)
            stack.push_back({node.right, left, at.end});
    }
}

} // namespace

std::vector<ForestPrediction> RegressionForest::predict(const PointFeatures& features,
                                                       const std::vector<std::size_t>& points) const
{
    const std::size_t n = points.size();
    std::vector<ForestPrediction> out(n);
    if (trees_.empty() || n == 0)
        return out;
    std::vector<double> sum(n, 0.0), squares(n, 0.0);
    for (const auto& tree : trees_)
        route_points(tree, features, points, [&](const Node& leaf, std::span<const std::uint32_t> positions) {
                         for (const std::uint32_t i : positions) {
                             sum[i] += leaf.value;
                             squares[i] += leaf.value * leaf.value;
                         }
                     });
    const auto count = static_cast<double>(trees_.size());
    for (std::size_t i = 0; i < n; ++i) {
        out[i].mean = sum[i] / count;
        out[i].spread = std::sqrt(std::max(0.0, squares[i] / count - out[i].mean * out[i].mean));
    }
    return out;
}

} // namespace autotune
