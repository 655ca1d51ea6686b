#include "space/variant_from_values.hpp"

#include "space/enumerate_space.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

Variant variant_from_values(const KernelSpec& spec, const Problem& problem, const NamedValues& values)
{
    // A space of exactly one combination, enumerated by the same code as every space.
    KernelSpec single = spec;
    std::size_t index = 0;
    for (auto& parameter : single.parameters) {
        const auto given = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == parameter.name; });
        if (given == values.end())
            throw std::invalid_argument(fmt::format("no value for parameter {}", parameter.name));
        const auto position = std::find(parameter.values.begin(), parameter.values.end(), given->second);
        if (position == parameter.values.end())
            throw std::invalid_argument(fmt::format("{} = {} is not among the spec's values", parameter.name, given->second));
        index = index * parameter.values.size() + static_cast<std::size_t>(position - parameter.values.begin());
        parameter.values = {given->second};
        parameter.default_values = {given->second};
    }
    Space space = enumerate_space(single, problem, SpaceSelection::full);
    if (space.variants.empty()) {
        std::string rule;
        for (const auto& r : space.removals)
            if (r.removed > 0)
                rule = r.rule;
        throw std::invalid_argument(fmt::format("the combination is not in the space ({})", rule));
    }
    Variant v = std::move(space.variants.front());
    v.index = index;
    return v;
}

} // namespace autotune
