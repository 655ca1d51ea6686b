// Features of a space's points for the surrogate model, binned for fast tree fitting.
// Per varying parameter: log2 of its value when all its values are positive (tile sizes,
// block sizes and vector widths act multiplicatively), else the value itself; and for
// each pair of varying parameters the sum and the difference of those — in log terms the
// product and the ratio (work per thread = tile / threads, threads = x · y), which a tree
// cannot form from the parameters one at a time. Then each of the space's facts that varies
// (registers, occupancy, the predicted time, another GPU's time), unknown values last.
#pragma once

#include "strategy/search_space.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace autotune {

class PointFeatures {
public:
    // At most 255 bins per feature (quantiles when a feature has more distinct values).
    explicit PointFeatures(const SearchSpace& space, bool pairwise = true);

    [[nodiscard]] std::size_t points() const { return points_; }
    [[nodiscard]] std::size_t features() const { return features_; }
    [[nodiscard]] std::size_t bins(std::size_t feature) const { return bins_[feature]; }
    // The bin of point p in feature f; bins are ordered like the feature's values.
    [[nodiscard]] std::uint8_t bin(std::size_t point, std::size_t feature) const
    {
        return binned_[point * features_ + feature];
    }
    [[nodiscard]] const std::uint8_t* row(std::size_t point) const { return &binned_[point * features_]; }
    // Feature f's bins of all points, in point order.
    [[nodiscard]] const std::uint8_t* column(std::size_t feature) const { return &by_column_[feature * points_]; }

private:
    std::size_t points_ = 0;
    std::size_t features_ = 0;
    std::vector<std::size_t> bins_;
    std::vector<std::uint8_t> binned_;    // points × features
    std::vector<std::uint8_t> by_column_; // features × points
};

} // namespace autotune
