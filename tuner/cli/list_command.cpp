// autotune list: the built-in kernels, their parameters and the size of their valid
// spaces (default and full) for the default problem.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_only_options.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/project_paths.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <nlohmann/json.hpp>


namespace autotune::cli {

int list_command(const Arguments& args)
{
    const auto parsed = parse_json_only_options(args, "list");
    if (!parsed)
        return exit_ok;
    const bool json = *parsed;

    nlohmann::ordered_json listing = nlohmann::ordered_json::array();
    for (const auto& path : builtin_kernel_specs()) {
        const KernelSpec spec = load_spec(path);
        const Problem problem = resolve_problem(spec, {});
        const SpaceCount default_space = count_space(spec, problem, SpaceSelection::default_space);
        const SpaceCount full_space = count_space(spec, problem, SpaceSelection::full);
        nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
        for (const auto& p : spec.parameters)
            parameters.push_back({{"name", p.name}, {"values", p.values}, {"default", p.default_values}});
        listing.push_back({{"name", spec.name},
                           {"description", spec.description},
                           {"problem", problem.to_string()},
                           {"parameters", parameters},
                           {"space",
                            {{"default", {{"combinations", default_space.combinations}, {"valid", default_space.valid}}},
                             {"full", {{"combinations", full_space.combinations}, {"valid", full_space.valid}}}}}});
        if (json)
            continue;
        std::cout << fmt::format("{} — {}\n", spec.name, spec.description);
        for (const auto& p : spec.parameters) {
            std::cout << fmt::format("  {:<14} {}", p.name, fmt::join(p.values, " "));
            if (p.default_values != p.values)
                std::cout << fmt::format("   (default: {})", fmt::join(p.default_values, " "));
            std::cout << "\n";
        }
        std::cout << fmt::format("  space for {}: default {} valid of {} combinations; full {} valid of {}\n\n",
                                 problem.to_string(), default_space.valid, default_space.combinations,
                                 full_space.valid, full_space.combinations);
    }
    if (json)
        std::cout << listing.dump(2) << "\n";
    return exit_ok;
}

} // namespace autotune::cli
