#include "space/check_problem.hpp"

#include "measure/element_type.hpp"
#include "space/problem_work.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/spec_scope.hpp"

#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {
namespace {

[[noreturn]] void fail(const KernelSpec& spec, const Problem& problem, const std::string& what)
{
    throw spec_problem_error(spec, problem, what);
}

std::string human_bytes(double bytes)
{
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t unit = 0;
    while (bytes >= 1024 && unit + 1 < std::size(units)) {
        bytes /= 1024;
        ++unit;
    }
    return fmt::format("{:.3g} {}", bytes, units[unit]);
}

void check_cost(const KernelSpec& spec, const Problem& problem, const Space& space)
{
    const double bytes = problem_work(spec, problem, space.variants).bytes;
    if (!std::isfinite(bytes) || std::fabs(bytes) > 9.0e15)
        fail(spec, problem, fmt::format("cost.bytes '{}' = {:.4g} is too large (beyond 2^53; an integer overflow?)",
                                        spec.cost.bytes, bytes));
}

void check_buffers(const KernelSpec& spec, const Problem& problem, const Space& space)
{
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);
    struct Buffer {
        const KernelArgument* argument;
        std::size_t element_bytes;
        Expression size;
    };
    std::vector<Buffer> buffers;
    for (const auto& a : spec.arguments) {
        if (a.kind != ArgumentKind::buffer)
            continue;
        BufferElement element;
        try {
            element = parse_buffer_element(a.element_type); // float2 too: CUDA's vectors are buffer types
        } catch (const std::invalid_argument& e) {
            fail(spec, problem, fmt::format("argument {}: {}", a.name, e.what()));
        }
        buffers.push_back({&a, element_size(element.component) * static_cast<std::size_t>(element.components),
                           Expression(a.size, "argument " + a.name + " size", scope)});
    }
    auto check_size = [&](const Buffer& b, double count, const std::string& variant) {
        if (!std::isfinite(count) || std::fabs(count) > 9.0e15)
            fail(spec, problem, fmt::format("argument {} size: '{}' = {:.4g} is too large (beyond 2^53; an integer "
                                            "overflow?) (variant {})", b.argument->name, b.argument->size, count, variant));
        if (count < 1)
            fail(spec, problem, fmt::format("argument {}: size '{}' = {} (a buffer needs at least one element; "
                                            "variant {})", b.argument->name, b.argument->size, count, variant));
        const double bytes = count * static_cast<double>(b.element_bytes);
        if (bytes > static_cast<double>(max_buffer_bytes))
            fail(spec, problem, fmt::format("argument {}: size '{}' = {} elements is {}, more than any GPU holds "
                                            "(variant {})", b.argument->name, b.argument->size, count,
                                            human_bytes(bytes), variant));
    };
    for (const auto& v : space.variants) {
        scope.set_all(v.parameters);
        scope.set_all(v.derived);
        for (const auto& b : buffers) {
            std::int64_t count = 0;
            try {
                count = b.size.evaluate_integer();
            } catch (const ExpressionError& e) {
                fail(spec, problem, fmt::format("{} (variant {})", e.what(), v.key()));
            }
            check_size(b, static_cast<double>(count), v.key());
        }
    }
    if (space.valid > 0)
        return;
    // No variant, perhaps because the sizes overflow the grid's limits too: the sizes at
    // the first combination say whether that is the cause.
    std::string first;
    for (const auto& p : spec.parameters) {
        scope.set(p.name, static_cast<double>(p.values.front()));
        first += fmt::format("{}{}={}", first.empty() ? "" : ",", p.name, p.values.front());
    }
    std::vector<double> counts;
    try {
        std::vector<Expression> derived;
        for (const auto& d : spec.derived) {
            derived.emplace_back(d.expression, "derived " + d.name, scope);
            scope.set(d.name, derived.back().evaluate());
        }
        for (const auto& b : buffers)
            counts.push_back(b.size.evaluate());
    } catch (const ExpressionError&) {
        return; // not a size's fault (the combination may be one the rules remove): the empty space is reported
    }
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (counts[i] >= 1) // a size below 1 may be why the rules removed the combination
            check_size(buffers[i], counts[i], first);
}

// What a variant's compile and launch take from expressions besides the geometry and the
// buffer sizes, for every variant: scalar arguments must fit their type (an int of 3e9 would
// wrap) and [kernel] defines must be integers (else every compile would fail on it).
void check_variant_values(const KernelSpec& spec, const Problem& problem, const Space& space)
{
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);
    struct Scalar {
        const KernelArgument* argument;
        ElementType type;
        Expression value;
    };
    std::vector<Scalar> scalars;
    for (const auto& a : spec.arguments) {
        if (a.kind != ArgumentKind::scalar)
            continue;
        ElementType type{};
        try {
            type = parse_element_type(a.element_type);
        } catch (const std::invalid_argument& e) {
            fail(spec, problem, fmt::format("argument {}: {}", a.name, e.what()));
        }
        scalars.push_back({&a, type, Expression(a.value, "argument " + a.name + " value", scope)});
    }
    std::vector<Expression> definitions;
    for (const auto& d : spec.definitions)
        definitions.emplace_back(d.expression, "defines." + d.name, scope);
    for (const auto& v : space.variants) {
        scope.set_all(v.parameters);
        scope.set_all(v.derived);
        try {
            for (const auto& s : scalars)
                if (const std::string why = scalar_value_error(s.type, s.value.evaluate()); !why.empty())
                    fail(spec, problem, fmt::format("argument {}: value '{}': {} (variant {})", s.argument->name,
                                                    s.argument->value, why, v.key()));
            for (const auto& d : definitions)
                (void)d.evaluate_integer();
        } catch (const ExpressionError& e) {
            fail(spec, problem, fmt::format("{} (variant {})", e.what(), v.key()));
        }
    }
}

void check_not_empty(const KernelSpec& spec, const Problem& problem, const Space& space, SpaceSelection selection)
{
    if (space.valid > 0)
        return;
    const RuleRemoval* most = nullptr;
    for (const auto& r : space.removals)
        if (r.removed > 0 && (most == nullptr || r.removed > most->removed))
            most = &r;
    const bool full_has_some = selection == SpaceSelection::default_space &&
                               cartesian_size(spec, SpaceSelection::full) > space.combinations &&
                               !enumerate_space(spec, problem, SpaceSelection::full).variants.empty();
    fail(spec, problem,
         fmt::format("no valid variant: {} of {} combinations removed by {}{}", most ? most->removed : 0,
                     space.combinations, most ? most->rule : "the rules",
                     full_has_some ? " (this is the default space; --space full has valid variants)" : ""));
}

} // namespace

void check_problem(const KernelSpec& spec, const Problem& problem, const Space& space, SpaceSelection selection)
{
    check_cost(spec, problem, space);
    check_buffers(spec, problem, space);
    check_variant_values(spec, problem, space);
    check_not_empty(spec, problem, space, selection);
}

} // namespace autotune
