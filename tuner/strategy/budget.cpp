#include "strategy/budget.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

namespace autotune {

std::size_t Budget::evaluations_for(std::size_t points) const
{
    std::size_t by_fraction = std::numeric_limits<std::size_t>::max();
    if (max_fraction > 0) {
        const double exact = max_fraction * static_cast<double>(points);
        // A little slack, so that 1 % of 500 is 5 and not 6 by rounding error.
        by_fraction = static_cast<std::size_t>(std::ceil(exact - 1e-9 * std::max(1.0, exact)));
        by_fraction = std::min(points, std::max<std::size_t>(by_fraction, 1));
    }
    return std::min(max_evaluations, by_fraction);
}

Budget parse_budget(const std::string& text)
{
    Budget budget;
    if (text.empty())
        return budget;
    // Fixed notation only: no sign, exponent or hex; inf and nan are refused below.
    double number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number, std::chars_format::fixed);
    const std::string unit(end, text.data() + text.size());
    if (ec != std::errc() || !std::isfinite(number) || number <= 0 || number > 1e15)
        throw std::invalid_argument(fmt::format("--budget '{}' is not N (evaluations), a share of the space like 5%, or a duration like 90s, 30m, 2h", text));
    if (unit.empty()) {
        if (number != static_cast<double>(static_cast<std::size_t>(number)))
            throw std::invalid_argument(fmt::format("--budget '{}': a number of evaluations is a whole number", text));
        budget.max_evaluations = static_cast<std::size_t>(number);
    } else if (unit == "s") {
        budget.max_seconds = number;
    } else if (unit == "m") {
        budget.max_seconds = number * 60;
    } else if (unit == "h") {
        budget.max_seconds = number * 3600;
    } else if (unit == "%") {
        if (number > 100)
            throw std::invalid_argument(fmt::format("--budget '{}': a share of the space is at most 100%", text));
        budget.max_fraction = number / 100;
    } else {
        throw std::invalid_argument(fmt::format("--budget '{}': unit '{}' is not %, s, m or h", text, unit));
    }
    return budget;
}

} // namespace autotune
