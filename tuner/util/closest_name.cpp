#include "util/closest_name.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace autotune {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance, case-insensitive: "Defualt" is one swap from "default".
std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& known)
{
    const std::size_t allowed = wanted.size() <= 4 ? 1 : 2;
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    bool tied = false;
    for (const auto& name : known) {
        const std::size_t distance = edit_distance(wanted, name);
        if (distance < best_distance) {
            best = name;
            best_distance = distance;
            tied = false;
        } else if (distance == best_distance && best && *best != name) {
            tied = true;
        }
    }
    if (tied || (best && *best == wanted)) // a known name is no typo
        return std::nullopt;
    return best;
}

std::string did_you_mean(std::string_view wanted, const std::vector<std::string>& known)
{
    const auto name = closest_name(wanted, known);
    return name ? fmt::format("did you mean '{}'? ", *name) : std::string();
}

} // namespace autotune
