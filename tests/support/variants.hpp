// Building variants for tests: a spec's full space, and the variant with given values.
#pragma once

#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace autotune::test {

inline const Variant& variant_with(const Space& space, std::initializer_list<std::pair<const char*, std::int64_t>> values)
{
    for (const auto& v : space.variants) {
        bool match = true;
        for (const auto& [name, value] : values)
            match = match && v.value(name) == value;
        if (match)
            return v;
    }
    throw std::runtime_error("no such variant in the space");
}

} // namespace autotune::test
