// forest's Gaussian-process move: of `candidates`, the point with the most expected
// improvement over the fastest measurement under a Gaussian process fitted to what was
// measured. The trees rank points by the leaf they fall in, and a leaf ties a region the
// measurements never split; the process ranks by distance to fast and slow measurements,
// and its spread sends it to an unmeasured region beside fast points. Knowing nothing, the
// two together found better points than either alone (docs/search-benchmark.md).
#pragma once

#include "strategy/search_run.hpp"
#include "strategy/space_geometry.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace autotune {

// The process sees each point as its positions in the parameters' value lists, each list
// scaled to [0, 1], and is fitted to the log times capped at their median (cap_at_median;
// a failed point counts as the cap: no better than the median around it), standardised.
// With more than `max_points` measurements, the fastest half of that many and the most
// recent of the rest. nullopt with fewer than two times measured or no candidates.
[[nodiscard]] std::optional<std::size_t> most_expected_improvement(const SearchRun& run, const SpaceGeometry& geometry,
                                                                   const std::vector<std::size_t>& candidates,
                                                                   std::size_t max_points = 256);

} // namespace autotune
