#include "strategy/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace autotune {

GaussianProcess::GaussianProcess(std::vector<std::vector<double>> inputs, const std::vector<double>& targets,
                                 double length_scale, double noise)
    : inputs_(std::move(inputs)), length_scale_(length_scale)
{
    const std::size_t n = inputs_.size();
    if (n == 0 || n != targets.size())
        throw std::invalid_argument("gaussian process: " + std::to_string(n) + " inputs for " +
                                    std::to_string(targets.size()) + " targets (need as many, at least one)");
    if (!(length_scale > 0) || !(noise > 0))
        throw std::invalid_argument("gaussian process: length scale and noise must be positive");
    for (const auto& x : inputs_)
        if (x.size() != inputs_.front().size())
            throw std::invalid_argument("gaussian process: inputs of different dimensions");

    // K + noise·I is positive definite for any positive noise, so the factorisation only
    // fails on rounding, which the noise (1e-3 of the signal in use) keeps far away.
    cholesky_.assign(n * n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j)
            cholesky_[i * n + j] = kernel(inputs_[i], inputs_[j]) + (i == j ? noise : 0);
    for (std::size_t j = 0; j < n; ++j) {
        double d = cholesky_[j * n + j];
        for (std::size_t k = 0; k < j; ++k)
            d -= cholesky_[j * n + k] * cholesky_[j * n + k];
        d = std::sqrt(std::max(d, noise * 1e-6));
        cholesky_[j * n + j] = d;
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = cholesky_[i * n + j];
            for (std::size_t k = 0; k < j; ++k)
                s -= cholesky_[i * n + k] * cholesky_[j * n + k];
            cholesky_[i * n + j] = s / d;
        }
    }
    weights_ = targets; // L y' = y, then Lᵀ w = y'
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < i; ++k)
            weights_[i] -= cholesky_[i * n + k] * weights_[k];
        weights_[i] /= cholesky_[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t k = i + 1; k < n; ++k)
            weights_[i] -= cholesky_[k * n + i] * weights_[k];
        weights_[i] /= cholesky_[i * n + i];
    }
}

double GaussianProcess::kernel(const std::vector<double>& a, const std::vector<double>& b) const
{
    double squared = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
        squared += (a[k] - b[k]) * (a[k] - b[k]);
    const double r = std::sqrt(5.0 * squared) / length_scale_;
    return (1 + r + r * r / 3) * std::exp(-r);
}

Posterior GaussianProcess::predict(const std::vector<double>& point) const
{
    if (point.size() != inputs_.front().size())
        throw std::invalid_argument("gaussian process: a point of dimension " + std::to_string(point.size()) +
                                    ", fitted on " + std::to_string(inputs_.front().size()));
    const std::size_t n = inputs_.size();
    std::vector<double> k(n);
    Posterior out;
    for (std::size_t i = 0; i < n; ++i) {
        k[i] = kernel(point, inputs_[i]);
        out.mean += k[i] * weights_[i];
    }
    double variance = 1.0; // the prior's, less what the measurements explain: kᵀ K⁻¹ k = |L⁻¹ k|²
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j)
            k[i] -= cholesky_[i * n + j] * k[j];
        k[i] /= cholesky_[i * n + i];
        variance -= k[i] * k[i];
    }
    out.sd = std::sqrt(std::max(variance, 1e-12));
    return out;
}

double expected_improvement(const Posterior& at, double best, double margin)
{
    const double gain = best - at.mean - margin;
    const double z = gain / at.sd;
    const double below = 0.5 * std::erfc(-z / std::numbers::sqrt2); // Φ(z)
    const double density = std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
    return gain * below + at.sd * density;
}

} // namespace autotune
