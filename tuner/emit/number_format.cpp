#include "emit/number_format.hpp"

#include <cmath>
#include <fmt/format.h>

namespace autotune {
namespace {

// Rounds to `significant` digits and writes them without exponent or trailing zeros.
std::string fixed_significant(double value, int significant)
{
    if (value == 0)
        return "0";
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const double step = std::pow(10.0, magnitude - significant + 1);
    const double rounded = std::round(value / step) * step;
    // Rounding can carry into the next decade (999.7 → 1000): count digits after it.
    const int rounded_magnitude = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
    const int decimals = std::max(0, significant - 1 - rounded_magnitude);
    std::string text = fmt::format("{:.{}f}", rounded, decimals);
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.')
            text.pop_back();
    }
    return text;
}

} // namespace

std::string format_figure(double value, int significant)
{
    if (!std::isfinite(value))
        return "–";
    static constexpr const char* suffixes[] = {"M", "G", "T", "P", "E"};
    double scaled = value;
    int suffix = -1;
    // Decide on the rounded value, so 999 999 reads 1M rather than 1000000.
    while (std::fabs(std::stod(fixed_significant(scaled, significant))) >= (suffix < 0 ? 1e6 : 1e3) && suffix < 4) {
        scaled /= suffix < 0 ? 1e6 : 1e3;
        ++suffix;
    }
    return fixed_significant(scaled, significant) + (suffix < 0 ? "" : suffixes[suffix]);
}

} // namespace autotune
