#include "strategy/capped_times.hpp"

#include <algorithm>
#include <cstddef>

namespace autotune {

void cap_at_median(std::vector<double>& log_times)
{
    if (log_times.size() < 4)
        return;
    std::vector<double> sorted(log_times);
    const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>((sorted.size() - 1) / 2);
    std::nth_element(sorted.begin(), middle, sorted.end());
    for (double& t : log_times)
        t = std::min(t, *middle);
}

} // namespace autotune
