// A small random forest for regression (Breiman 2001) over binned point features: bagged
// CART trees, each split chosen among a random subset of the features by the largest
// reduction of squared error. The spread of the trees' predictions is the uncertainty
// the forest strategy explores with (as in SMAC, Hutter et al. 2011). Seeded.
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
    double resolution = 0;             // targets closer than this are alike (proximity)
    bool stop_at_resolution = false;   // ... and a node whose targets are all alike is a leaf
    bool extra = false;                // extremely randomized trees: random cuts
    bool random_gaps = false;          // cuts fall anywhere between measured values
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

    // How alike the forest finds each of `points` and its most alike point of `known`:
    // the largest fraction of trees in which the two fall into the same leaf (1: the
    // forest cannot tell them apart).
    [[nodiscard]] std::vector<double> proximity(const PointFeatures& features, const std::vector<std::size_t>& points,
                                                const std::vector<std::size_t>& known) const;

    // The leaf of each point in each tree: out[t * points.size() + i]; with `coarse`, the
    // first node whose training targets are alike (within the resolution) instead.
    [[nodiscard]] std::vector<std::uint32_t> leaves(const PointFeatures& features, const std::vector<std::size_t>& points,
                                                    bool coarse) const;
    [[nodiscard]] std::size_t trees() const { return trees_.size(); }
    // The prediction of a tree's node (a leaf from leaves()).
    [[nodiscard]] double value(std::size_t tree, std::uint32_t node) const { return trees_[tree][node].value; }

private:
    struct Node {
        std::uint32_t feature = 0;
        std::uint8_t threshold = 0; // bin <= threshold goes left
        std::int32_t left = -1;     // -1: a leaf
        std::int32_t right = -1;
        bool alike = false;         // its training targets span no more than the resolution
        double value = 0;
    };
    std::vector<std::vector<Node>> trees_;
};

} // namespace autotune
