// The geometry strategies move in: each point's position in every parameter's value list,
// the lookup from positions back to a valid point, and neighbourhoods. Built once per
// search; validates the space (throws std::invalid_argument when a point has the wrong
// number of values or a value its parameter's list lacks).
#pragma once

#include "strategy/random_source.hpp"
#include "strategy/search_space.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace autotune {

class SpaceGeometry {
public:
    explicit SpaceGeometry(const SearchSpace& space);

    [[nodiscard]] std::size_t size() const { return positions_.size(); }
    [[nodiscard]] std::size_t parameters() const { return list_sizes_.size(); }
    [[nodiscard]] std::size_t list_size(std::size_t parameter) const { return list_sizes_[parameter]; }
    // points[p][k]'s position in parameter_values[k].
    [[nodiscard]] const std::vector<std::uint32_t>& positions(std::size_t point) const { return positions_[point]; }
    // The valid point at these positions, if any.
    [[nodiscard]] std::optional<std::size_t> find(const std::vector<std::uint32_t>& positions) const;

    // Valid points that differ from `point` in one parameter: by one step in its value list,
    // or by any value where the list has at most `small_list` values. Deterministic order.
    [[nodiscard]] std::vector<std::size_t> adjacent(std::size_t point, std::size_t small_list = 3) const;
    // Valid points that differ from `point` in exactly one parameter, by any value.
    [[nodiscard]] std::vector<std::size_t> hamming(std::size_t point) const;

    // `point`'s positions with each value list scaled to [0, 1] (0 for a single value).
    [[nodiscard]] std::vector<double> unit_position(std::size_t point) const;
    // How far apart two points are: the sum over parameters of their distance in the
    // value list, each list scaled to [0, 1] (so a 2-value flag weighs like a 31-value size):
    // the L1 distance of their unit positions, taken without building them.
    [[nodiscard]] double distance(std::size_t a, std::size_t b) const;
    // The distance from `point` to the nearest of `others` (infinity when there are none).
    [[nodiscard]] double distance_to_nearest(std::size_t point, const std::vector<std::size_t>& others) const;

    // A valid point that differs from `point` in up to `changes` randomly chosen parameters
    // (random new values), found by rejection; nullopt when `attempts` tries found none
    // that `accept` takes.
    template <typename Accept>
    [[nodiscard]] std::optional<std::size_t> perturb(std::size_t point, std::size_t changes, RandomSource& random,
                                                     Accept accept, std::size_t attempts = 200) const
    {
        std::vector<std::size_t> free;
        for (std::size_t k = 0; k < parameters(); ++k)
            if (list_sizes_[k] > 1)
                free.push_back(k);
        if (free.empty())
            return std::nullopt;
        for (std::size_t a = 0; a < attempts; ++a) {
            std::vector<std::uint32_t> to = positions_[point];
            random.shuffle(free);
            const std::size_t n = std::min(changes, free.size());
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t k = free[i];
                const std::size_t offset = 1 + random.below(list_sizes_[k] - 1); // never the same value
                to[k] = static_cast<std::uint32_t>((to[k] + offset) % list_sizes_[k]);
            }
            if (const auto q = find(to); q && accept(*q))
                return q;
        }
        return std::nullopt;
    }

private:
    [[nodiscard]] static std::string key(const std::vector<std::uint32_t>& positions);
    std::vector<std::size_t> list_sizes_;
    std::vector<std::vector<std::uint32_t>> positions_;
    std::unordered_map<std::string, std::size_t> lookup_;
};

} // namespace autotune
