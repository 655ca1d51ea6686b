// A small random forest for regression (Breiman 2001) over binned point features: bagged
// CART trees, each split chosen among a random subset of the features by the largest
// reduction of squared error. One such tree is one draw from the forest's distribution of
// models, which is how the forest strategy samples (Thompson sampling); the spread of many
// trees' predictions is the forest's uncertainty (as in SMAC, Hutter et al. 2011). Seeded.
#pragma once

#include "strategy/point_features.hpp"
#include "strategy/random_source.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace autotune {

struct ForestSettings {
    std::size_t trees = 32;
    std::size_t min_leaf = 1;          // samples in a leaf, at least
    double feature_fraction = 0.5;     // of the features tried at each split
    bool bootstrap = true;             // each tree on a bootstrap sample, else on all
};

struct ForestPrediction {
    double mean = 0;
    double spread = 0; // standard deviation across the trees
};

class RegressionForest {
public:
    // Fits to targets[i] at points[i] (indices into `features`).
    void fit(const PointFeatures& features, const std::vector<std::size_t>& points, const std::vector<double>& targets,
             const ForestSettings& settings, RandomSource& random);
    [[nodiscard]] ForestPrediction predict(const PointFeatures& features, std::size_t point) const;
    // The predictions of many points at once (tree by tree, each node splitting its
    // points' list: several times faster than point by point). out[i] is points[i]'s.
    [[nodiscard]] std::vector<ForestPrediction> predict(const PointFeatures& features,
                                                        const std::vector<std::size_t>& points) const;

    [[nodiscard]] std::size_t trees() const { return trees_.size(); }

private:
    struct Node {
        std::uint32_t feature = 0;
        std::uint8_t threshold = 0; // bin <= threshold goes left
        std::int32_t left = -1;     // -1: a leaf
        std::int32_t right = -1;
        double value = 0;
    };
    std::vector<std::vector<Node>> trees_;
};

} // namespace autotune
