// Input buffers for the reference and verification tests: seeded random values of an
// element type, as the measure stage fills inputs.
#pragma once

#include "measure/cpu_reference.hpp"
#include "measure/verification.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace autotune::test {

inline HostBuffer random_buffer(ElementType type, std::size_t n, std::uint64_t seed)
{
    HostBuffer buffer{type, std::vector<std::byte>(n * element_size(type))};
    fill_random_input(type, buffer.bytes, seed);
    return buffer;
}

} // namespace autotune::test
