// The strategies' only source of randomness: a small seeded generator (SplitMix64) with
// its own bounded and real mappings, so that a seed gives the same search on every
// standard library (std:: distributions are implementation-defined).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace autotune {

class RandomSource {
public:
    explicit RandomSource(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform in [0, n), without modulo bias; n > 0.
    std::size_t below(std::size_t n)
    {
        const std::uint64_t bound = n;
        const std::uint64_t threshold = (0 - bound) % bound; // 2^64 mod n
        for (;;) {
            const std::uint64_t r = next();
            if (r >= threshold)
                return static_cast<std::size_t>(r % bound);
        }
    }

    // Uniform in [0, 1), 53 bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Fisher–Yates.
    template <typename T>
    void shuffle(std::vector<T>& items)
    {
        for (std::size_t i = items.size(); i > 1; --i)
            std::swap(items[i - 1], items[below(i)]);
    }

private:
    std::uint64_t state_;
};

} // namespace autotune
