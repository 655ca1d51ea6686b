#include "space/problem_work.hpp"

#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/spec_scope.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace autotune {
namespace {

// One cost expression's value, and the variant that first gave it.
struct Agreed {
    double value = 0;
    std::string variant;
};

} // namespace

ProblemWork problem_work(const KernelSpec& spec, const Problem& problem, const std::vector<Variant>& variants)
{
    const auto fail = [&](const std::string& what) {
        return spec_problem_error(spec, problem, what);
    };
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);
    std::vector<Expression> derived;
    std::vector<Expression> cost;
    try {
        for (const auto& d : spec.derived)
            derived.emplace_back(d.expression, "derived " + d.name, scope);
        cost.emplace_back(spec.cost.flops, "cost.flops", scope);
        cost.emplace_back(spec.cost.bytes, "cost.bytes", scope);
    } catch (const ExpressionError& e) {
        throw fail(e.what());
    }

    std::vector<std::optional<Agreed>> agreed(cost.size());
    // Derived values are evaluated here rather than taken from the variant, which keeps only
    // the integral ones: a cost may use a fractional one.
    const auto evaluate_for = [&](const Variant& v) {
        const std::string variant = v.key();
        scope.set_all(v.parameters);
        try {
            for (std::size_t i = 0; i < derived.size(); ++i)
                scope.set(spec.derived[i].name, derived[i].evaluate());
            for (std::size_t i = 0; i < cost.size(); ++i) {
                const double value = cost[i].evaluate();
                if (!agreed[i])
                    agreed[i] = Agreed{value, variant};
                else if (value != agreed[i]->value)
                    throw fail(fmt::format("{} '{}' is {:.6g} for variant {} but {:.6g} for variant {}: the cost is the "
                                           "problem's work, the same for every variant (a parameter in it must have "
                                           "one value per problem)",
                                           cost[i].origin(), cost[i].text(), agreed[i]->value, agreed[i]->variant,
                                           value, variant));
            }
        } catch (const ExpressionError& e) {
            throw fail(fmt::format("{} (variant {})", e.what(), variant));
        }
    };
    // A cost of problem variables alone is the same for every variant: evaluated once (a
    // full space has millions of variants, and this runs before compiling and when ranking).
    const auto per_variant = [&](const std::string& name) {
        return std::none_of(problem.values.begin(), problem.values.end(), [&](const auto& v) { return v.first == name; });
    };
    const bool varies = std::any_of(cost.begin(), cost.end(), [&](const Expression& e) {
        return std::any_of(e.names().begin(), e.names().end(), per_variant);
    });
    if (variants.empty() || !varies) {
        Variant first;
        for (const auto& p : spec.parameters)
            first.parameters.emplace_back(p.name, p.values.front());
        evaluate_for(variants.empty() ? first : variants.front());
    } else {
        for (const Variant& v : variants)
            evaluate_for(v);
    }
    return {agreed[0]->value, agreed[1]->value};
}

} // namespace autotune
