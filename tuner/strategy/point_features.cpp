#include "strategy/point_features.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace autotune {

PointFeatures::PointFeatures(const SearchSpace& space, bool pairwise) : points_(space.points.size())
{
    // The varying parameters, on a log scale where all values are positive.
    std::vector<std::vector<double>> base;
    for (std::size_t k = 0; k < space.parameter_values.size(); ++k) {
        const auto& values = space.parameter_values[k];
        if (values.size() < 2)
            continue;
        const bool positive = std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v > 0; });
        std::vector<double> column(points_);
        for (std::size_t p = 0; p < points_; ++p) {
            const auto v = static_cast<double>(space.points[p][k]);
            column[p] = positive ? std::log2(v) : v;
        }
        base.push_back(std::move(column));
    }
    std::vector<std::vector<double>> columns = base;
    // Sums and differences of pairs: one split can then follow a diagonal (BM·BN, BM/TM).
    if (pairwise)
        for (std::size_t i = 0; i < base.size(); ++i)
            for (std::size_t j = i + 1; j < base.size(); ++j) {
                std::vector<double> sum(points_), difference(points_);
                for (std::size_t p = 0; p < points_; ++p) {
                    sum[p] = base[i][p] + base[j][p];
                    difference[p] = base[i][p] - base[j][p];
                }
                columns.push_back(std::move(sum));
                columns.push_back(std::move(difference));
            }

    // The facts known before measuring (compiled facts, another GPU's time) as they are: a
    // tree splits on order alone. Unknown (NaN) sorts after every known value.
    for (const auto& fact : space.facts) {
        std::vector<double> column(points_);
        for (std::size_t p = 0; p < points_; ++p)
            column[p] = std::isnan(fact.values[p]) ? std::numeric_limits<double>::infinity() : fact.values[p];
        if (std::any_of(column.begin(), column.end(), [&](double v) { return v != column.front(); }))
            columns.push_back(std::move(column));
    }

    // Bin each column: its distinct values in order, or 255 quantile edges.
    features_ = columns.size();
    binned_.assign(points_ * features_, 0);
    by_column_.assign(points_ * features_, 0);
    bins_.assign(features_, 1);
    for (std::size_t f = 0; f < features_; ++f) {
        const auto& column = columns[f];
        std::vector<double> distinct(column);
        std::sort(distinct.begin(), distinct.end());
        // Values within rounding of each other are one value (log2 sums of the same terms).
        distinct.erase(std::unique(distinct.begin(), distinct.end(),
                                   [](double a, double b) { return a == b || std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a)); }),
                       distinct.end());
        std::vector<double> edges; // upper edge of each bin but the last
        if (distinct.size() <= 255) {
            for (std::size_t i = 0; i + 1 < distinct.size(); ++i)
                edges.push_back((distinct[i] + distinct[i + 1]) / 2);
        } else {
            std::vector<double> sorted(column);
            std::sort(sorted.begin(), sorted.end());
            for (std::size_t b = 1; b < 255; ++b) {
                const double edge = sorted[b * sorted.size() / 255];
                if (edges.empty() || edge > edges.back())
                    edges.push_back(edge);
            }
        }
        bins_[f] = edges.size() + 1;
        for (std::size_t p = 0; p < points_; ++p) {
            const auto b = static_cast<std::uint8_t>(std::upper_bound(edges.begin(), edges.end(), column[p]) - edges.begin());
            binned_[p * features_ + f] = b;
            by_column_[f * points_ + p] = b;
        }
    }
}

} // namespace autotune
