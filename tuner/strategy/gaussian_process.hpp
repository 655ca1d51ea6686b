// A Gaussian process over points in [0, 1]^d (Matérn 5/2 kernel, unit signal variance, a
// fixed length scale and noise): the posterior mean and spread of a standardised target at
// any point, and the expected improvement that trades one against the other. Where a
// regression tree sees steps, a Gaussian process sees distance: a point between two fast
// measurements is predicted fast with little doubt, a point far from everything keeps the
// prior's spread. Exact (Cholesky), so meant for the few hundred measurements a search has.
#pragma once

#include <cstddef>
#include <vector>

namespace autotune {

struct Posterior {
    double mean = 0;
    double sd = 1;
};

class GaussianProcess {
public:
    // `inputs[i]` is a point of `targets[i]`; every input has the same dimension. Throws
    // std::invalid_argument when the sizes disagree, there are no inputs, or the length
    // scale or noise is not positive.
    GaussianProcess(std::vector<std::vector<double>> inputs, const std::vector<double>& targets,
                    double length_scale, double noise);

    [[nodiscard]] Posterior predict(const std::vector<double>& point) const;
    [[nodiscard]] std::size_t size() const { return inputs_.size(); }

private:
    [[nodiscard]] double kernel(const std::vector<double>& a, const std::vector<double>& b) const;
    std::vector<std::vector<double>> inputs_;
    double length_scale_;
    std::vector<double> cholesky_; // lower triangle of K + noise·I, row-major n × n
    std::vector<double> weights_;  // (K + noise·I)^-1 · targets
};

// How much below `best` the target is expected to come at a point with this posterior, a
// `margin` below best counting as none (minimisation): the spread's upside plus the mean's.
[[nodiscard]] double expected_improvement(const Posterior& at, double best, double margin);

} // namespace autotune
