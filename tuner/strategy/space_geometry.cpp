#include "strategy/space_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace autotune {

SpaceGeometry::SpaceGeometry(const SearchSpace& space)
{
    const std::size_t n = space.parameter_values.size();
    if (space.parameter_names.size() != n)
        throw std::invalid_argument("search space: " + std::to_string(space.parameter_names.size()) +
                                    " parameter names for " + std::to_string(n) + " value lists");
    for (const auto& values : space.parameter_values)
        list_sizes_.push_back(values.size());
    positions_.reserve(space.points.size());
    lookup_.reserve(space.points.size());
    for (std::size_t p = 0; p < space.points.size(); ++p) {
        const auto& point = space.points[p];
        if (point.size() != n)
            throw std::invalid_argument("search space: point " + std::to_string(p) + " has " +
                                        std::to_string(point.size()) + " values for " + std::to_string(n) +
                                        " parameters");
        std::vector<std::uint32_t> at(n);
        for (std::size_t k = 0; k < n; ++k) {
            const auto& values = space.parameter_values[k];
            const auto it = std::find(values.begin(), values.end(), point[k]);
            if (it == values.end())
                throw std::invalid_argument("search space: point " + std::to_string(p) + " has " +
                                            space.parameter_names[k] + "=" + std::to_string(point[k]) +
                                            ", not in the parameter's values");
            at[k] = static_cast<std::uint32_t>(it - values.begin());
        }
        lookup_.emplace(key(at), p); // a duplicate point keeps its first index
        positions_.push_back(std::move(at));
    }
}

std::string SpaceGeometry::key(const std::vector<std::uint32_t>& positions)
{
    return std::string(reinterpret_cast<const char*>(positions.data()), positions.size() * sizeof(std::uint32_t));
}

std::optional<std::size_t> SpaceGeometry::find(const std::vector<std::uint32_t>& positions) const
{
    const auto it = lookup_.find(key(positions));
    if (it == lookup_.end())
        return std::nullopt;
    return it->second;
}

std::vector<std::size_t> SpaceGeometry::adjacent(std::size_t point, std::size_t small_list) const
{
    std::vector<std::size_t> out;
    std::vector<std::uint32_t> to = positions_[point];
    for (std::size_t k = 0; k < parameters(); ++k) {
        const std::uint32_t here = to[k];
        const std::size_t n = list_sizes_[k];
        for (std::uint32_t v = 0; v < n; ++v) {
            const bool step = v + 1 == here || v == here + 1;
            if (v == here || !(step || n <= small_list))
                continue;
            to[k] = v;
            if (const auto q = find(to))
                out.push_back(*q);
        }
        to[k] = here;
    }
    return out;
}

std::vector<std::size_t> SpaceGeometry::hamming(std::size_t point) const
{
    return adjacent(point, std::numeric_limits<std::size_t>::max());
}

std::vector<double> SpaceGeometry::unit_position(std::size_t point) const
{
    std::vector<double> x(parameters(), 0.0);
    for (std::size_t k = 0; k < x.size(); ++k)
        if (list_sizes_[k] > 1)
            x[k] = static_cast<double>(positions_[point][k]) / static_cast<double>(list_sizes_[k] - 1);
    return x;
}

double SpaceGeometry::distance(std::size_t a, std::size_t b) const
{
    double sum = 0;
    const auto& from = positions_[a];
    const auto& to = positions_[b];
    for (std::size_t k = 0; k < parameters(); ++k)
        if (list_sizes_[k] > 1)
            sum += std::abs(static_cast<double>(from[k]) - static_cast<double>(to[k])) /
                   static_cast<double>(list_sizes_[k] - 1);
    return sum;
}

double SpaceGeometry::distance_to_nearest(std::size_t point, const std::vector<std::size_t>& others) const
{
    double nearest = std::numeric_limits<double>::infinity();
    for (const std::size_t other : others)
        nearest = std::min(nearest, distance(point, other));
    return nearest;
}

} // namespace autotune
