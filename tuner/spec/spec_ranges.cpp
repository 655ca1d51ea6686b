#include "spec/spec_ranges.hpp"

#include "arch/arch_spec.hpp"
#include "measure/cpu_reference.hpp"
#include "measure/element_type.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace autotune {
namespace {

[[noreturn]] void fail(const KernelSpec& spec, const std::string& what)
{
    throw SpecError(fmt::format("{}: {}", spec.spec_path.string(), what));
}

// The most any architecture the tuner knows allows: a value above it fits none.
int most_of_any_arch(int ArchSpec::*field)
{
    int most = 0;
    for (const auto& arch : arch_table())
        most = std::max(most, arch.*field);
    return most;
}

void check_parameter_values(const KernelSpec& spec)
{
    for (const auto& p : spec.parameters)
        for (const auto v : p.values)
            if (v > largest_exact_integer || v < -largest_exact_integer)
                fail(spec, fmt::format("parameter {} value {} is out of range (accepted: -2^53 to 2^53, the integers "
                                       "expressions hold exactly)", p.name, v));
}

// Each register-policy parameter's values: 0 (that mechanism off) or a count some
// architecture can honour.
void check_register_policy(const KernelSpec& spec)
{
    struct Role {
        const char* key;
        const std::string* parameter;
        int most;
        const char* unit;
    };
    const RegisterPolicySpec& policy = spec.register_policy;
    const Role roles[] = {
        {"max_threads", &policy.max_threads, most_of_any_arch(&ArchSpec::max_threads_per_block), "threads"},
        {"min_blocks", &policy.min_blocks, most_of_any_arch(&ArchSpec::max_blocks_per_sm), "blocks per SM"},
        {"maxnreg", &policy.maxnreg, most_of_any_arch(&ArchSpec::max_registers_per_thread), "registers"},
        {"maxrregcount", &policy.maxrregcount, most_of_any_arch(&ArchSpec::max_registers_per_thread), "registers"},
    };
    for (const auto& role : roles) {
        const TunableParameter* parameter = role.parameter->empty() ? nullptr : spec.find_parameter(*role.parameter);
        if (parameter == nullptr)
            continue; // none, or a name validate_spec refuses
        for (const auto v : parameter->values)
            if (v < 0 || v > role.most)
                fail(spec, fmt::format("parameter {} value {} is out of range for [register_policy] {} (accepted: 0 for "
                                       "none, or 1 to {} {})", parameter->name, v, role.key, role.most, role.unit));
    }
}

void check_problem_values(const KernelSpec& spec)
{
    const auto check = [&](const std::string& where, std::int64_t v) {
        if (v < 1 || v > largest_exact_integer)
            fail(spec, fmt::format("{} = {} is out of range (accepted: 1 to 2^53)", where, v));
    };
    for (const auto& v : spec.problem)
        check(fmt::format("[problem] {}", v.name), v.default_value);
    for (const auto& assignment : spec.problem_set)
        for (const auto& [name, value] : assignment.values)
            check(fmt::format("[[problems]] {}", name), value);
}

void check_reference(const KernelSpec& spec)
{
    const ReferenceSpec& reference = spec.reference;
    const auto known = cpu_reference_names();
    if (!reference.cpu.empty() && std::find(known.begin(), known.end(), reference.cpu) == known.end())
        fail(spec, fmt::format("[reference] cpu = '{}' is not a built-in reference (built-in: {}; for your own kernel "
                               "name a trusted point instead: variant = {{ ... }})", reference.cpu, fmt::join(known, ", ")));
    if (reference.relative && !(std::isfinite(*reference.relative) && *reference.relative > 0))
        fail(spec, fmt::format("[reference] relative = {} is out of range (accepted: a finite number above 0)",
                               *reference.relative));
}

// Types are names, but their set is as fixed as a range: a type the tuner cannot fill or
// pass is refused now, not when a GPU measures.
void check_argument_types(const KernelSpec& spec)
{
    for (const auto& a : spec.arguments) {
        try {
            if (a.kind == ArgumentKind::buffer) {
                (void)parse_buffer_element(a.element_type);
            } else if (const ElementType type = parse_element_type(a.element_type); !is_scalar_argument_type(type)) {
                fail(spec, fmt::format("argument {}: {} scalars are not supported (float, double, int, unsigned, "
                                       "long long, int8_t are)", a.name, a.element_type));
            }
        } catch (const std::invalid_argument& e) {
            fail(spec, fmt::format("argument {}: {}", a.name, e.what()));
        }
    }
}

} // namespace

void check_spec_ranges(const KernelSpec& spec)
{
    check_parameter_values(spec);
    check_register_policy(spec);
    check_problem_values(spec);
    check_reference(spec);
    check_argument_types(spec);
}

} // namespace autotune
