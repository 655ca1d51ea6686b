#include "strategy/launch_bound_sweep.hpp"

#include "space/variant_from_values.hpp"

#include <algorithm>
#include <stdexcept>

namespace autotune {

std::vector<Variant> launch_bound_sweep(const KernelSpec& spec, const Problem& problem, const Variant& base)
{
    const RegisterPolicySpec& names = spec.register_policy;
    std::vector<std::string> policy;
    for (const std::string* name : {&names.max_threads, &names.min_blocks, &names.maxnreg, &names.maxrregcount})
        if (!name->empty())
            policy.push_back(*name);
    std::vector<const TunableParameter*> swept;
    for (const auto& name : policy)
        swept.push_back(spec.find_parameter(name));

    std::vector<Variant> out;
    std::vector<std::size_t> digit(swept.size(), 0);
    for (;;) {
        NamedValues values = base.parameters;
        for (std::size_t k = 0; k < swept.size(); ++k)
            for (auto& [name, value] : values)
                if (name == swept[k]->name)
                    value = swept[k]->values[digit[k]];
        if (values != base.parameters) {
            try {
                out.push_back(variant_from_values(spec, problem, values));
            } catch (const std::invalid_argument&) {
                // A combination the space's rules reject (e.g. __maxnreg__ with bounds).
            }
        }
        std::size_t k = 0;
        for (; k < swept.size(); ++k) {
            if (++digit[k] < swept[k]->values.size())
                break;
            digit[k] = 0;
        }
        if (k == swept.size())
            break;
    }
    std::sort(out.begin(), out.end(), [](const Variant& a, const Variant& b) { return a.index < b.index; });
    return out;
}

std::vector<std::size_t> register_time_frontier(const std::vector<PolicyPoint>& points)
{
    std::vector<std::size_t> frontier;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].seconds)
            continue;
        bool dominated = false;
        for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
            if (i == j || !points[j].seconds)
                continue;
            const bool no_worse = points[j].registers <= points[i].registers && *points[j].seconds <= *points[i].seconds;
            const bool better = points[j].registers < points[i].registers || *points[j].seconds < *points[i].seconds;
            // Of equal points only the first stands for them.
            const bool equal_and_earlier = !better && no_worse && j < i;
            dominated = (no_worse && better) || equal_and_earlier;
        }
        if (!dominated)
            frontier.push_back(points[i].variant);
    }
    return frontier;
}

} // namespace autotune
