#include "space/enumerate_space.hpp"

#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/spec_scope.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string>

namespace autotune {
namespace {

// CUDA's limits for every architecture the tuner knows (Programming Guide, "Compute
// Capabilities", table of technical specifications): block x,y ≤ 1024, z ≤ 64, at
// most 1024 threads; grid x < 2^31, y and z ≤ 65535.
constexpr std::int64_t max_threads_per_block = 1024;

const char* const rule_block = "block: 1 to 1024 threads (x, y <= 1024, z <= 64)";
const char* const rule_bound_below_block = "__launch_bounds__ max threads below the block size";
const char* const rule_bound_too_large = "__launch_bounds__ max threads above 1024";
const char* const rule_min_blocks_alone = "__launch_bounds__ min blocks without max threads";
const char* const rule_maxnreg_with_bounds = "__maxnreg__ together with __launch_bounds__ (NVIDIA forbids it)";
const char* const rule_grid = "grid: 1 to 2^31-1 blocks in x, 1 to 65535 in y and z";
const char* const rule_dynamic_shared = "dynamic shared memory below zero";
// ptxas' limit on what a kernel declares statically, the same on sm_75 to sm_120 ("uses too
// much shared data (0xc004 bytes, 0xc000 max)").
constexpr std::int64_t max_static_shared_bytes = 48 * 1024;

// Every combination is visited to apply the conditions, about a million a second here: past
// this the walk would run for hours without a word (BAT's FFT space has 8 * 10^11). The
// built-in kernels' full spaces are under 5 million.
constexpr std::size_t max_enumerated_combinations = 100'000'000;
const char* const rule_static_shared = "static shared memory the spec declares (launch.static_shared_bytes) over the "
                                       "48 KiB a kernel may declare";

const std::vector<std::int64_t>& values_of(const TunableParameter& p, SpaceSelection selection)
{
    return selection == SpaceSelection::full ? p.values : p.default_values;
}

// A variant's position in the full space's enumeration, whichever selection produced
// it: the same variant has the same index in default and full runs.
std::size_t full_space_index(const KernelSpec& spec, SpaceSelection selection, const std::vector<std::size_t>& digit)
{
    std::size_t index = 0;
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        const auto& p = spec.parameters[i];
        const std::int64_t value = values_of(p, selection)[digit[i]];
        const auto position = std::find(p.values.begin(), p.values.end(), value) - p.values.begin();
        index = index * p.values.size() + static_cast<std::size_t>(position);
    }
    return index;
}

Dim3 evaluate_dims(const std::vector<Expression>& exprs)
{
    Dim3 d;
    std::int64_t* fields[] = {&d.x, &d.y, &d.z};
    for (std::size_t i = 0; i < exprs.size(); ++i)
        *fields[i] = exprs[i].evaluate_integer();
    return d;
}

std::vector<Expression> compile_all(const std::vector<std::string>& texts, const std::string& origin,
                                    ExpressionScope& scope)
{
    std::vector<Expression> out;
    for (std::size_t i = 0; i < texts.size(); ++i)
        out.emplace_back(texts[i], fmt::format("{}[{}]", origin, i), scope);
    return out;
}

std::int64_t policy_value(const Variant& v, const std::string& name)
{
    return name.empty() ? 0 : v.value(name);
}

// The first built-in rule the variant breaks, or nullptr.
const char* broken_rule(const Variant& v)
{
    const Dim3& b = v.block;
    if (b.x < 1 || b.y < 1 || b.z < 1 || b.x > 1024 || b.y > 1024 || b.z > 64 || b.volume() > max_threads_per_block)
        return rule_block;
    const RegisterPolicy& p = v.register_policy;
    if (p.min_blocks > 0 && p.max_threads <= 0)
        return rule_min_blocks_alone;
    if (p.max_threads > max_threads_per_block)
        return rule_bound_too_large;
    if (p.max_threads > 0 && p.max_threads < b.volume())
        return rule_bound_below_block;
    if (p.maxnreg > 0 && (p.max_threads > 0 || p.min_blocks > 0))
        return rule_maxnreg_with_bounds;
    const Dim3& g = v.grid;
    if (g.x < 1 || g.y < 1 || g.z < 1 || g.x > 2147483647LL || g.y > 65535 || g.z > 65535)
        return rule_grid;
    if (v.dynamic_shared_bytes < 0)
        return rule_dynamic_shared;
    return nullptr;
}

} // namespace

std::size_t cartesian_size(const KernelSpec& spec, SpaceSelection selection)
{
    // Saturating: 21 parameters of 10 values each would wrap a 64-bit count.
    constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
    std::size_t size = 1;
    for (const auto& p : spec.parameters) {
        const std::size_t n = values_of(p, selection).size();
        size = n != 0 && size > most / n ? most : size * n;
    }
    return size;
}

namespace {

// Walks the space in enumeration order and hands each valid variant to `keep`; fills in
// `space`'s combinations and removals.
template <typename Keep>
void walk_space_of(const KernelSpec& spec, const Problem& problem, SpaceSelection selection, SpaceCount& space,
                   Keep keep)
{
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);

    std::vector<Expression> derived;
    for (const auto& d : spec.derived)
        derived.emplace_back(d.expression, "derived " + d.name, scope);
    std::vector<Expression> constraints;
    for (std::size_t i = 0; i < spec.constraints.size(); ++i)
        constraints.emplace_back(spec.constraints[i].expression, "constraint " + spec.constraints[i].name, scope);
    const auto block = compile_all(spec.launch.block, "launch.block", scope);
    const auto grid = compile_all(spec.launch.grid, "launch.grid", scope);
    const Expression dynamic_shared(spec.launch.dynamic_shared_bytes, "launch.dynamic_shared_bytes", scope);
    std::optional<Expression> static_shared;
    if (!spec.launch.static_shared_bytes.empty())
        static_shared.emplace(spec.launch.static_shared_bytes, "launch.static_shared_bytes", scope);

    space.combinations = cartesian_size(spec, selection);
    if (space.combinations > max_enumerated_combinations)
        throw spec_problem_error(
            spec, problem,
            fmt::format("the space has {} combinations of its parameters' values (the product of their counts), more "
                        "than the {} autotune enumerates (about a minute): give the parameters fewer values, or "
                        "split the space into several specs",
                        space.combinations == std::numeric_limits<std::size_t>::max() ? std::string("over 10^19")
                                                                                       : std::to_string(space.combinations),
                        max_enumerated_combinations));
    for (const auto& c : spec.constraints)
        space.removals.push_back({fmt::format("constraint {}: {}", c.name, c.expression), 0});
    const std::size_t first_builtin = space.removals.size();
    for (const char* rule : {rule_block, rule_min_blocks_alone, rule_bound_too_large, rule_bound_below_block,
                             rule_maxnreg_with_bounds, rule_grid, rule_dynamic_shared})
        space.removals.push_back({rule, 0});
    if (static_shared) // listed only where the spec says it: other specs' results stay as they were
        space.removals.push_back({rule_static_shared, 0});
    auto count_removal = [&](const char* rule) {
        for (std::size_t i = first_builtin; i < space.removals.size(); ++i)
            if (space.removals[i].rule == rule)
                ++space.removals[i].removed;
    };

    const std::size_t n = spec.parameters.size();
    std::vector<std::size_t> digit(n, 0);
    std::vector<double> derived_values(derived.size());
    const auto combination_text = [&] {
        std::string text;
        for (std::size_t i = 0; i < n; ++i)
            text += fmt::format("{}{}={}", i ? "," : "", spec.parameters[i].name,
                                values_of(spec.parameters[i], selection)[digit[i]]);
        return text;
    };
    std::size_t first_changed = 0; // the odometer moved digits from here on: only those are set again
    // Evaluates the combination the digits point at, and keeps it or counts its removal.
    const auto visit = [&] {
        for (std::size_t i = first_changed; i < n; ++i)
            scope.set(spec.parameters[i].name, static_cast<double>(values_of(spec.parameters[i], selection)[digit[i]]));
        for (std::size_t i = 0; i < derived.size(); ++i) {
            derived_values[i] = derived[i].evaluate();
            scope.set(spec.derived[i].name, derived_values[i]);
        }
        std::size_t failed = constraints.size();
        for (std::size_t i = 0; i < constraints.size() && failed == constraints.size(); ++i)
            if (!constraints[i].evaluate_condition())
                failed = i;

        if (failed < constraints.size()) {
            ++space.removals[failed].removed;
        } else {
            // Only combinations that pass the spec's constraints become Variants: the
            // constraints guard the geometry (e.g. a grid of N / BN needs N % BN == 0).
            Variant v;
            v.index = full_space_index(spec, selection, digit);
            for (std::size_t i = 0; i < n; ++i)
                v.parameters.emplace_back(spec.parameters[i].name, values_of(spec.parameters[i], selection)[digit[i]]);
            for (std::size_t i = 0; i < derived.size(); ++i)
                if (derived_values[i] == std::floor(derived_values[i]))
                    v.derived.emplace_back(spec.derived[i].name, static_cast<std::int64_t>(derived_values[i]));
            v.block = evaluate_dims(block);
            v.grid = evaluate_dims(grid);
            v.dynamic_shared_bytes = dynamic_shared.evaluate_integer();
            const RegisterPolicySpec& names = spec.register_policy;
            v.register_policy = {policy_value(v, names.max_threads), policy_value(v, names.min_blocks),
                                 policy_value(v, names.maxnreg), policy_value(v, names.maxrregcount)};
            if (const char* rule = broken_rule(v)) {
                count_removal(rule);
            } else if (static_shared && static_shared->evaluate_integer() > max_static_shared_bytes) {
                count_removal(rule_static_shared);
            } else {
                ++space.valid;
                keep(std::move(v));
            }
        }
    };
    for (std::size_t combination = 0; combination < space.combinations; ++combination) {
        try {
            visit();
        } catch (const ExpressionError& e) {
            throw spec_problem_error(spec, problem, fmt::format("{} (variant {})", e.what(), combination_text()));
        }
        // Odometer: the last parameter varies fastest.
        for (std::size_t i = n; i-- > 0;) {
            first_changed = i;
            if (++digit[i] < values_of(spec.parameters[i], selection).size())
                break;
            digit[i] = 0;
        }
    }
}

// An expression that fails (a division by zero, a block that is not an integer) is the
// spec's error: it names the spec file and the problem besides the expression.
template <typename Keep>
void walk_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection, SpaceCount& space, Keep keep)
{
    try {
        walk_space_of(spec, problem, selection, space, keep);
    } catch (const ExpressionError& e) {
        throw spec_problem_error(spec, problem, e.what());
    }
}

} // namespace

namespace {

template <typename Wanted>
Space enumerate_wanted(const KernelSpec& spec, const Problem& problem, SpaceSelection selection, Wanted wanted)
{
    Space space;
    SpaceCount count;
    walk_space(spec, problem, selection, count, [&](Variant&& v) {
        if (wanted(v.index))
            space.variants.push_back(std::move(v));
    });
    space.combinations = count.combinations;
    space.valid = count.valid;
    space.removals = std::move(count.removals);
    return space;
}

} // namespace

Space enumerate_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection)
{
    return enumerate_wanted(spec, problem, selection, [](std::size_t) { return true; });
}

Space enumerate_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection,
                      const std::set<std::size_t>& wanted)
{
    return enumerate_wanted(spec, problem, selection, [&wanted](std::size_t index) { return wanted.count(index) > 0; });
}

SpaceCount count_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection)
{
    SpaceCount count;
    walk_space(spec, problem, selection, count, [](Variant&&) {});
    return count;
}

} // namespace autotune
