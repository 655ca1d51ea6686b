// Budgets for the strategy tests.
#pragma once

#include "strategy/budget.hpp"

#include <cstddef>

namespace autotune::test {

// A budget of at most `n` evaluations, nothing else limited.
inline Budget evaluations(std::size_t n)
{
    Budget b;
    b.max_evaluations = n;
    return b;
}

} // namespace autotune::test
