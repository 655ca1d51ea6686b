#include "spec/spec_scope.hpp"

namespace autotune {

std::vector<std::string> spec_variable_names(const KernelSpec& spec)
{
    std::vector<std::string> names;
    for (const auto& v : spec.problem)
        names.push_back(v.name);
    for (const auto& p : spec.parameters)
        names.push_back(p.name);
    for (const auto& d : spec.derived)
        names.push_back(d.name);
    return names;
}

} // namespace autotune
