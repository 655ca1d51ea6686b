#include "predict/closed_network.hpp"

#include <cmath>
#include <stdexcept>

namespace autotune {

double closed_network_cycle(const ClosedNetwork& network)
{
    const double n = network.customers;
    if (network.customers < 1)
        throw std::invalid_argument("a closed network needs at least one customer");
    if (!(network.warps >= n))
        throw std::invalid_argument("a closed network's warps cannot be fewer than one class's customers");
    if (!(network.delay >= 0))
        throw std::invalid_argument("a closed network's delay cannot be negative");
    for (const auto* demands : {&network.per_scheduler, &network.per_sm})
        for (const double d : *demands)
            if (!(d >= 0))
                throw std::invalid_argument("a closed network's demand cannot be negative");
    // An arriving warp finds its own class's queue less itself ((n - 1) / n of it) and, at
    // a unit the schedulers share, every other class's: (warps / n - 1) classes' worth.
    const double others_at_sm = network.warps / n - 1;
    std::vector<double> queue_own(network.per_scheduler.size(), 0.0), queue_sm(network.per_sm.size(), 0.0);
    std::vector<double> residence_own(queue_own.size()), residence_sm(queue_sm.size());
    double cycle = 0;
    // The fixed point is approached from no queues, monotonically; a few dozen steps settle it.
    for (int step = 0; step < 10'000; ++step) {
        double next = network.delay;
        for (std::size_t k = 0; k < queue_own.size(); ++k)
            next += residence_own[k] = network.per_scheduler[k] * (1 + queue_own[k] * (n - 1) / n);
        for (std::size_t k = 0; k < queue_sm.size(); ++k)
            next += residence_sm[k] = network.per_sm[k] * (1 + queue_sm[k] * ((n - 1) / n + others_at_sm));
        if (next <= 0)
            return 0;
        const bool settled = step > 0 && std::abs(next - cycle) <= 1e-12 * next;
        cycle = next;
        if (settled)
            break;
        for (std::size_t k = 0; k < queue_own.size(); ++k)
            queue_own[k] = n * residence_own[k] / cycle;
        for (std::size_t k = 0; k < queue_sm.size(); ++k)
            queue_sm[k] = n * residence_sm[k] / cycle;
    }
    return cycle;
}

} // namespace autotune
