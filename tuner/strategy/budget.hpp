// How much a search may spend: evaluations, a share of the space, wall time — whichever
// runs out first.
#pragma once

#include <cstddef>
#include <limits>
#include <string>

namespace autotune {

struct Budget {
    std::size_t max_evaluations = std::numeric_limits<std::size_t>::max();
    double max_fraction = 0;                                       // of the space's points ("5%": 0.05); 0: none
    double max_seconds = std::numeric_limits<double>::infinity(); // wall time of the search

    // The evaluations a space of `points` allows: the smaller of max_evaluations and
    // max_fraction of the points, rounded up (at least 1 of a space that has any). A count
    // larger than the space stays as it is: the search simply runs out of points first.
    [[nodiscard]] std::size_t evaluations_for(std::size_t points) const;
};

// "200" (evaluations), "5%" (of the space the search chooses from), "90s", "30m", "2h"
// (wall time); throws std::invalid_argument naming the text.
[[nodiscard]] Budget parse_budget(const std::string& text);

} // namespace autotune
