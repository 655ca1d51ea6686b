#include "space/variant.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

std::string RegisterPolicy::kind() const
{
    std::string kind;
    if (max_threads > 0 || min_blocks > 0)
        kind = "launch_bounds";
    if (maxnreg > 0)
        kind += kind.empty() ? "maxnreg" : "+maxnreg";
    if (maxrregcount > 0)
        kind += kind.empty() ? "maxrregcount" : "+maxrregcount";
    return kind.empty() ? "none" : kind;
}

std::int64_t Variant::value(const std::string& name) const
{
    for (const auto* list : {&parameters, &derived})
        for (const auto& [n, v] : *list)
            if (n == name)
                return v;
    throw std::out_of_range(fmt::format("variant {} has no value named '{}'", index, name));
}

std::string Variant::key() const
{
    std::string out;
    for (const auto& [name, value] : parameters)
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, value);
    return out;
}

} // namespace autotune
