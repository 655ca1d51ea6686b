#include "space/reference_variant.hpp"

#include "space/variant_from_values.hpp"
#include "spec/load_spec.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

std::optional<Variant> reference_variant(const KernelSpec& spec, const Problem& problem)
{
    if (spec.reference.variant.empty())
        return std::nullopt;
    std::string point;
    for (const auto& [name, value] : spec.reference.variant)
        point += fmt::format("{}{}={}", point.empty() ? "" : ",", name, value);
    try {
        return variant_from_values(spec, problem, spec.reference.variant);
    } catch (const std::invalid_argument& e) {
        throw SpecError(fmt::format("{}: [reference] variant {} is not a valid variant for problem {}: {}",
                                    spec.spec_path.string(), point, problem.to_string(), e.what()));
    }
}

} // namespace autotune
