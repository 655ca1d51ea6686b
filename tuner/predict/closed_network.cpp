#include "predict/closed_network.hpp"

#include <stdexcept>
#include <vector>

namespace autotune {

double closed_network_cycle(std::span<const double> demands, double delay, int customers)
{
    if (customers < 1)
        throw std::invalid_argument("a closed network needs at least one customer");
    if (delay < 0)
        throw std::invalid_argument("a closed network's delay cannot be negative");
    for (const double d : demands)
        if (d < 0)
            throw std::invalid_argument("a closed network's demand cannot be negative");
    // Exact MVA: with n customers, one arriving at a queue finds the queue that n - 1
    // customers leave there on average (the arrival theorem).
    std::vector<double> queue(demands.size(), 0.0);
    std::vector<double> residence(demands.size(), 0.0);
    double cycle = delay;
    for (int n = 1; n <= customers; ++n) {
        cycle = delay;
        for (std::size_t k = 0; k < demands.size(); ++k) {
            residence[k] = demands[k] * (1 + queue[k]);
            cycle += residence[k];
        }
        if (cycle <= 0)
            return 0;
        for (std::size_t k = 0; k < demands.size(); ++k)
            queue[k] = n * residence[k] / cycle;
    }
    return cycle;
}

} // namespace autotune
