#include "spec/load_spec.hpp"

#include "spec/device_settings.hpp"
#include "spec/expression.hpp"
#include "spec/load_t1.hpp"
#include "spec/spec_ranges.hpp"
#include "spec/spec_scope.hpp"
#include "util/closest_name.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <toml++/toml.h>

namespace autotune {
namespace {

class Reader {
public:
    explicit Reader(std::filesystem::path path) : path_(std::move(path)) {}

    [[noreturn]] void fail(const toml::node* node, const std::string& what) const
    {
        if (node != nullptr && node->source().begin)
            throw SpecError(fmt::format("{}:{}: {}", path_.string(), node->source().begin.line, what));
        throw SpecError(fmt::format("{}: {}", path_.string(), what));
    }

    const toml::table& table(const toml::table& parent, std::string_view key, bool required) const
    {
        static const toml::table empty;
        const toml::node* node = parent.get(key);
        if (node == nullptr) {
            if (required)
                fail(&parent, fmt::format("missing table [{}]", key));
            return empty;
        }
        if (!node->is_table())
            fail(node, fmt::format("'{}' must be a table", key));
        return *node->as_table();
    }

    std::string string(const toml::table& parent, std::string_view key, bool required,
                       std::string fallback = {}) const
    {
        const toml::node* node = parent.get(key);
        if (node == nullptr) {
            if (required)
                fail(&parent, fmt::format("missing key '{}'", key));
            return fallback;
        }
        if (node->is_integer())
            return std::to_string(node->as_integer()->get());
        if (!node->is_string())
            fail(node, fmt::format("'{}' must be a string", key));
        return node->as_string()->get();
    }

    std::vector<std::string> strings(const toml::table& parent, std::string_view key, bool required) const
    {
        std::vector<std::string> out;
        const toml::node* node = parent.get(key);
        if (node == nullptr) {
            if (required)
                fail(&parent, fmt::format("missing key '{}'", key));
            return out;
        }
        const toml::array* array = node->as_array();
        if (array == nullptr)
            fail(node, fmt::format("'{}' must be an array of strings", key));
        for (const toml::node& item : *array) {
            if (item.is_string())
                out.push_back(item.as_string()->get());
            else if (item.is_integer())
                out.push_back(std::to_string(item.as_integer()->get()));
            else
                fail(&item, fmt::format("'{}' must hold strings", key));
        }
        return out;
    }

    std::vector<std::int64_t> integers(const toml::node& node, std::string_view what) const
    {
        std::vector<std::int64_t> out;
        if (node.is_integer()) {
            out.push_back(node.as_integer()->get());
            return out;
        }
        const toml::array* array = node.as_array();
        if (array == nullptr || array->empty())
            fail(&node, fmt::format("{} must be an integer or a non-empty array of integers", what));
        for (const toml::node& item : *array) {
            if (!item.is_integer())
                fail(&item, fmt::format("{} must hold integers", what));
            out.push_back(item.as_integer()->get());
        }
        std::set<std::int64_t> seen;
        for (auto v : out)
            if (!seen.insert(v).second)
                fail(&node, fmt::format("{} lists {} twice", what, v));
        return out;
    }

    // toml++ keeps table keys sorted; the spec's own order is the one a reader expects
    // (and the enumeration order), so entries are returned in source order.
    static std::vector<std::pair<std::string, const toml::node*>> in_source_order(const toml::table& t)
    {
        std::vector<std::pair<std::string, const toml::node*>> entries;
        for (const auto& [key, node] : t)
            entries.emplace_back(std::string(key.str()), &node);
        std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
            const auto& pa = a.second->source().begin;
            const auto& pb = b.second->source().begin;
            return std::pair(pa.line, pa.column) < std::pair(pb.line, pb.column);
        });
        return entries;
    }

    std::filesystem::path resolve(const std::string& relative) const
    {
        std::filesystem::path p(relative);
        if (p.is_relative())
            p = path_.parent_path() / p;
        return std::filesystem::weakly_canonical(p);
    }

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

void check_identifier(const Reader& reader, const toml::node* node, const std::string& name, std::string_view what)
{
    if (!is_identifier(name))
        reader.fail(node, fmt::format("{} '{}' is not a valid identifier", what, name));
}

// A misspelt key (parameter_as, defualt) would otherwise be ignored and its default
// silently used: every table whose keys are fixed, inline or not, goes through here.
void reject_unknown_keys(const Reader& reader, const toml::table& table, std::string_view where,
                         const std::vector<std::string>& known)
{
    for (const auto& [key, node] : table)
        if (std::find(known.begin(), known.end(), key.str()) == known.end())
            reader.fail(&node, fmt::format("{} has unknown key '{}' ({}known: {})", where, key.str(),
                                           did_you_mean(key.str(), known), fmt::join(known, ", ")));
}

// [kernel] defines: ["N", "M"] (each a name the spec knows, passed as its value) or
// { WIDTH = "W", TILE = 16 } (a macro and an integer expression).
std::vector<Definition> read_definitions(const Reader& reader, const toml::table& kernel)
{
    std::vector<Definition> out;
    const toml::node* node = kernel.get("defines");
    if (node == nullptr)
        return out;
    if (const toml::array* names = node->as_array()) {
        for (const toml::node& item : *names) {
            if (!item.is_string())
                reader.fail(&item, "defines must hold names (defines = [\"N\"]) or be a table (defines = { N = \"N\" })");
            const std::string name = item.as_string()->get();
            check_identifier(reader, &item, name, "defines entry");
            out.push_back({name, name});
        }
    } else if (const toml::table* table = node->as_table()) {
        for (const auto& [name, value] : Reader::in_source_order(*table)) {
            check_identifier(reader, value, name, "defines entry");
            if (value->is_integer())
                out.push_back({name, std::to_string(value->as_integer()->get())});
            else if (value->is_string())
                out.push_back({name, value->as_string()->get()});
            else
                reader.fail(value, fmt::format("defines.{} must be an integer expression string", name));
        }
    } else {
        reader.fail(node, "defines must be an array of names or a table of NAME = \"expression\"");
    }
    std::set<std::string> seen;
    for (const auto& d : out)
        if (!seen.insert(d.name).second)
            reader.fail(node, fmt::format("defines names '{}' twice", d.name));
    return out;
}

ParameterPassing read_passing(const Reader& reader, const toml::table& kernel)
{
    const std::string passing = reader.string(kernel, "parameters_as", false, "template_arguments");
    if (passing == "template_arguments")
        return ParameterPassing::template_arguments;
    if (passing == "preprocessor_definitions")
        return ParameterPassing::preprocessor_definitions;
    reader.fail(kernel.get("parameters_as"),
                fmt::format("parameters_as = '{}' is not one of: template_arguments, preprocessor_definitions", passing));
}

void read_kernel(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& kernel = reader.table(root, "kernel", true);
    reject_unknown_keys(reader, kernel, "[kernel]",
                        {"template", "function", "parameters_as", "template_arguments", "include_dirs", "options",
                         "defines"});
    const std::string template_file = reader.string(kernel, "template", true);
    spec.template_path = reader.resolve(template_file);
    if (!std::filesystem::is_regular_file(spec.template_path))
        reader.fail(kernel.get("template"),
                    fmt::format("template '{}' not found (looked at {})", template_file, spec.template_path.string()));
    spec.function = reader.string(kernel, "function", true);
    spec.passing = read_passing(reader, kernel);
    spec.template_arguments = reader.strings(kernel, "template_arguments", false);
    if (spec.passing == ParameterPassing::template_arguments && spec.template_arguments.empty())
        reader.fail(&kernel, "parameters_as = 'template_arguments' needs template_arguments = [...]");
    if (spec.passing == ParameterPassing::preprocessor_definitions && !spec.template_arguments.empty())
        reader.fail(kernel.get("template_arguments"),
                    "template_arguments is only meaningful with parameters_as = 'template_arguments'");
    for (const auto& dir : reader.strings(kernel, "include_dirs", false))
        spec.include_dirs.push_back(reader.resolve(dir));
    spec.compile_options = reader.strings(kernel, "options", false);
    spec.definitions = read_definitions(reader, kernel);
}

void read_parameters(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& parameters = reader.table(root, "parameters", true);
    if (parameters.empty())
        reader.fail(&parameters, "[parameters] is empty: a kernel needs at least one tunable parameter");
    for (const auto& [name, node] : Reader::in_source_order(parameters)) {
        check_identifier(reader, node, name, "parameter");
        TunableParameter parameter{name, {}, {}};
        if (const toml::table* t = node->as_table()) {
            reject_unknown_keys(reader, *t, fmt::format("[parameters.{}]", name), {"values", "default"});
            const toml::node* values = t->get("values");
            if (values == nullptr)
                reader.fail(node, fmt::format("parameter {} needs values = [...]", name));
            parameter.values = reader.integers(*values, fmt::format("parameter {} values", name));
            const toml::node* defaults = t->get("default");
            parameter.default_values = defaults ? reader.integers(*defaults, fmt::format("parameter {} default", name))
                                                : parameter.values;
            for (auto v : parameter.default_values)
                if (std::find(parameter.values.begin(), parameter.values.end(), v) == parameter.values.end())
                    reader.fail(defaults, fmt::format("parameter {}: default value {} is not among its values", name, v));
        } else {
            parameter.values = reader.integers(*node, fmt::format("parameter {}", name));
            parameter.default_values = parameter.values;
        }
        spec.parameters.push_back(std::move(parameter));
    }
}

void read_space(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& derived = reader.table(root, "derived", false);
    for (const auto& [name, node] : Reader::in_source_order(derived)) {
        check_identifier(reader, node, name, "derived value");
        if (!node->is_string() && !node->is_integer())
            reader.fail(node, fmt::format("derived value {} must be an expression string", name));
        spec.derived.push_back({name, reader.string(derived, name, true)});
    }
    const toml::table& constraints = reader.table(root, "constraints", false);
    for (const auto& [name, node] : Reader::in_source_order(constraints)) {
        check_identifier(reader, node, name, "constraint");
        if (!node->is_string())
            reader.fail(node, fmt::format("constraint {} must be an expression string", name));
        spec.constraints.push_back({name, node->as_string()->get()});
    }
}

void read_problem(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& problem = reader.table(root, "problem", false);
    for (const auto& [name, node] : Reader::in_source_order(problem)) {
        check_identifier(reader, node, name, "problem variable");
        ProblemVariable variable{name, 0, false};
        const toml::node* value = node;
        // NAME = 4096 (a size), or NAME = { default = 1, match = "exact" } (a category).
        if (const toml::table* t = node->as_table()) {
            reject_unknown_keys(reader, *t, "problem variable " + name, {"default", "match"});
            value = t->get("default");
            if (value == nullptr)
                reader.fail(node, fmt::format("problem variable {} needs a default", name));
            if (const toml::node* match = t->get("match")) {
                const auto how = match->value<std::string>();
                if (!how || (*how != "exact" && *how != "nearest"))
                    reader.fail(match, fmt::format("problem variable {}: match must be \"exact\" or \"nearest\"", name));
                variable.exact = *how == "exact";
            }
        }
        if (!value->is_integer())
            reader.fail(value, fmt::format("problem variable {} must have an integer default", name));
        variable.default_value = value->as_integer()->get();
        spec.problem.push_back(std::move(variable));
    }
}

// [[problems]]: the problem set a run tunes unless --problem names others.
void read_problem_set(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::node* node = root.get("problems");
    if (node == nullptr)
        return;
    const toml::array* problems = node->as_array();
    if (problems == nullptr || !problems->is_array_of_tables() || problems->empty())
        reader.fail(node, "problems must be a non-empty array of tables ([[problems]] with M = 1024, ...)");
    std::set<std::vector<std::pair<std::string, std::int64_t>>> seen;
    for (const toml::node& item : *problems) {
        ProblemAssignment assignment;
        for (const auto& [name, value] : Reader::in_source_order(*item.as_table())) {
            const bool known = std::any_of(spec.problem.begin(), spec.problem.end(),
                                           // An init-capture: clang 14 (the fuzz build) cannot capture a binding.
                                           [&key = name](const ProblemVariable& v) { return v.name == key; });
            if (!known) {
                std::vector<std::string> variables;
                for (const auto& v : spec.problem)
                    variables.push_back(v.name);
                reader.fail(value, fmt::format("[[problems]] sets '{}', which is not a variable of [problem] ({}known: {})",
                                               name, did_you_mean(name, variables), fmt::join(variables, ", ")));
            }
            if (!value->is_integer() || value->as_integer()->get() <= 0)
                reader.fail(value, fmt::format("[[problems]] {} must be a positive integer", name));
            assignment.values.emplace_back(name, value->as_integer()->get());
        }
        // The same problem twice would be tuned twice and fight over one header entry.
        std::vector<std::pair<std::string, std::int64_t>> resolved;
        for (const auto& v : spec.problem) {
            std::int64_t value = v.default_value;
            for (const auto& [name, set] : assignment.values)
                if (name == v.name)
                    value = set;
            resolved.emplace_back(v.name, value);
        }
        if (!seen.insert(resolved).second)
            reader.fail(&item, "[[problems]] lists the same problem twice");
        spec.problem_set.push_back(std::move(assignment));
    }
}

BufferAccess read_access(const Reader& reader, const toml::table& argument, const std::string& name)
{
    const std::string access = reader.string(argument, "access", false, "input");
    if (access == "input") return BufferAccess::input;
    if (access == "output") return BufferAccess::output;
    if (access == "input_output") return BufferAccess::input_output;
    reader.fail(argument.get("access"),
                fmt::format("argument {}: access = '{}' is not one of: input, output, input_output", name, access));
}

// memory = "constant": the buffer's values go to the module's __constant__ variable of
// the argument's name (Kernel Tuner's cmem_args), not a kernel parameter unless
// parameter = true says the kernel also takes it in this position.
void read_memory(const Reader& reader, const toml::table& t, KernelArgument& argument)
{
    const std::string memory = reader.string(t, "memory", false, "global");
    if (memory == "constant")
        argument.memory = ArgumentMemory::constant;
    else if (memory != "global")
        reader.fail(t.get("memory"), fmt::format("argument {}: memory = '{}' is not one of: global, constant",
                                                 argument.name, memory));
    const toml::node* parameter = t.get("parameter");
    if (parameter != nullptr && argument.memory != ArgumentMemory::constant)
        reader.fail(parameter, fmt::format("argument {}: parameter is only meaningful with memory = \"constant\"",
                                           argument.name));
    if (parameter != nullptr && !parameter->is_boolean())
        reader.fail(parameter, fmt::format("argument {}: parameter must be true or false", argument.name));
    argument.kernel_parameter = argument.memory == ArgumentMemory::global || (parameter && parameter->as_boolean()->get());
    if (argument.memory == ArgumentMemory::constant && argument.access != BufferAccess::input)
        reader.fail(t.get("memory"), fmt::format("argument {}: constant memory is read-only: access must be \"input\"",
                                                 argument.name));
}

void read_arguments(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::node* node = root.get("arguments");
    if (node == nullptr)
        reader.fail(&root, "missing [[arguments]]: list the kernel's arguments in order");
    const toml::array* arguments = node->as_array();
    if (arguments == nullptr || !arguments->is_array_of_tables())
        reader.fail(node, "arguments must be an array of tables ([[arguments]])");
    for (std::size_t i = 0; i < arguments->size(); ++i) {
        const toml::node& item = *arguments->get(i);
        const toml::table& t = *item.as_table();
        const auto name = t["name"].value<std::string>();
        const std::string where = name ? "argument " + *name : fmt::format("[[arguments]] number {}", i + 1);
        const bool is_buffer = t.contains("buffer");
        const bool is_scalar = t.contains("scalar");
        if (is_buffer == is_scalar)
            reader.fail(&item, fmt::format("{} needs exactly one of buffer = 'type' or scalar = 'type'", where));
        // A buffer's keys on a scalar (size, access) would be ignored as surely as a misspelt one.
        reject_unknown_keys(reader, t, where,
                            is_buffer ? std::vector<std::string>{"name", "buffer", "size", "access", "memory", "parameter"}
                                      : std::vector<std::string>{"name", "scalar", "value"});
        KernelArgument argument;
        argument.name = reader.string(t, "name", true);
        check_identifier(reader, &item, argument.name, "argument");
        if (is_buffer) {
            argument.kind = ArgumentKind::buffer;
            argument.element_type = reader.string(t, "buffer", true);
            argument.size = reader.string(t, "size", true);
            argument.access = read_access(reader, t, argument.name);
            read_memory(reader, t, argument);
        } else {
            argument.kind = ArgumentKind::scalar;
            argument.element_type = reader.string(t, "scalar", true);
            argument.value = reader.string(t, "value", true);
        }
        spec.arguments.push_back(std::move(argument));
    }
}

void read_launch_and_cost(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& launch = reader.table(root, "launch", true);
    reject_unknown_keys(reader, launch, "[launch]", {"grid", "block", "dynamic_shared_bytes", "static_shared_bytes"});
    spec.launch.grid = reader.strings(launch, "grid", true);
    spec.launch.block = reader.strings(launch, "block", true);
    spec.launch.dynamic_shared_bytes = reader.string(launch, "dynamic_shared_bytes", false, "0");
    spec.launch.static_shared_bytes = reader.string(launch, "static_shared_bytes", false, "");
    for (const auto& [what, dims] : {std::pair{"grid", &spec.launch.grid}, std::pair{"block", &spec.launch.block}})
        if (dims->empty() || dims->size() > 3)
            reader.fail(launch.get(what), fmt::format("launch.{} needs 1 to 3 expressions (x, y, z)", what));

    const toml::table& cost = reader.table(root, "cost", true);
    reject_unknown_keys(reader, cost, "[cost]", {"flops", "bytes", "precision"});
    spec.cost.flops = reader.string(cost, "flops", true);
    spec.cost.bytes = reader.string(cost, "bytes", true);
    try {
        spec.cost.precision = parse_precision(reader.string(cost, "precision", false, "fp32"));
    } catch (const std::invalid_argument& e) {
        reader.fail(cost.get("precision"), std::string("[cost] ") + e.what());
    }
}

void read_register_policy(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& policy = reader.table(root, "register_policy", false);
    reject_unknown_keys(reader, policy, "[register_policy]", {"max_threads", "min_blocks", "maxnreg", "maxrregcount"});
    spec.register_policy.max_threads = reader.string(policy, "max_threads", false);
    spec.register_policy.min_blocks = reader.string(policy, "min_blocks", false);
    spec.register_policy.maxnreg = reader.string(policy, "maxnreg", false);
    spec.register_policy.maxrregcount = reader.string(policy, "maxrregcount", false);
    if (!spec.register_policy.min_blocks.empty() && spec.register_policy.max_threads.empty())
        reader.fail(&policy, "[register_policy] min_blocks needs max_threads (__launch_bounds__ takes them in that order)");
}

// [reference] variant = { BLOCK = 128, ... }: a point of the full space, every parameter
// given. Whether the constraints keep it depends on the problem: the space stage checks
// that (reference_variant in space/reference_variant.hpp).
void read_reference_variant(const Reader& reader, const toml::table& reference, KernelSpec& spec)
{
    const toml::node* node = reference.get("variant");
    if (node == nullptr)
        return;
    const toml::table* values = node->as_table();
    if (values == nullptr)
        reader.fail(node, "[reference] variant must be a table of parameter values: variant = { BLOCK = 128, ... }");
    if (!spec.reference.cpu.empty())
        reader.fail(node, "[reference] names both cpu and variant: choose one reference");
    for (const auto& [name, value] : Reader::in_source_order(*values)) {
        const TunableParameter* parameter = spec.find_parameter(name);
        if (parameter == nullptr) {
            std::vector<std::string> names;
            for (const auto& p : spec.parameters)
                names.push_back(p.name);
            reader.fail(value, fmt::format("[reference] variant sets '{}', which is not a parameter ({}known: {})", name,
                                           did_you_mean(name, names), fmt::join(names, ", ")));
        }
        if (!value->is_integer())
            reader.fail(value, fmt::format("[reference] variant {} must be an integer", name));
        const std::int64_t v = value->as_integer()->get();
        if (std::find(parameter->values.begin(), parameter->values.end(), v) == parameter->values.end())
            reader.fail(value, fmt::format("[reference] variant {} = {} is not among the parameter's values ({})", name,
                                           v, fmt::join(parameter->values, ", ")));
    }
    // Spec order, so the variant reads like any other.
    std::vector<std::string> missing;
    for (const auto& parameter : spec.parameters) {
        const toml::node* value = values->get(parameter.name);
        if (value == nullptr)
            missing.push_back(parameter.name);
        else
            spec.reference.variant.emplace_back(parameter.name, value->as_integer()->get());
    }
    if (!missing.empty())
        reader.fail(node, fmt::format("[reference] variant gives no value for {} (a reference variant sets every "
                                      "parameter)", fmt::join(missing, ", ")));
}

void read_reference(const Reader& reader, const toml::table& root, KernelSpec& spec)
{
    const toml::table& reference = reader.table(root, "reference", false);
    reject_unknown_keys(reader, reference, "[reference]", {"cpu", "tolerance", "relative", "variant"});
    spec.reference.cpu = reader.string(reference, "cpu", false);
    read_reference_variant(reader, reference, spec);
    spec.reference.tolerance = reader.string(reference, "tolerance", false, "elementwise");
    if (spec.reference.tolerance != "elementwise" && spec.reference.tolerance != "normwise")
        reader.fail(reference.get("tolerance"), fmt::format("[reference] tolerance = '{}' is not one of: elementwise, "
                                                            "normwise", spec.reference.tolerance));
    if (const toml::node* relative = reference.get("relative")) {
        const auto value = relative->value<double>();
        if (!value || *value <= 0)
            reader.fail(relative, "[reference] relative must be a positive number");
        spec.reference.relative = *value;
    }
}

} // namespace

const TunableParameter* KernelSpec::find_parameter(std::string_view wanted) const
{
    for (const auto& parameter : parameters)
        if (parameter.name == wanted)
            return &parameter;
    return nullptr;
}

SpecError spec_problem_error(const KernelSpec& spec, const Problem& problem, const std::string& what)
{
    // A spec without problem variables (a T1 file whose sizes are fixed) has no problem to name.
    const std::string named = problem.to_string();
    return SpecError(named.empty() ? fmt::format("{}: {}", spec.spec_path.string(), what)
                                   : fmt::format("{}: problem {}: {}", spec.spec_path.string(), named, what));
}

KernelSpec load_spec(const std::filesystem::path& path)
{
    if (!std::filesystem::is_regular_file(path))
        throw SpecError(fmt::format("{}: spec file not found", path.string()));
    // A JSON spec is a T1 description (the autotuning community's format).
    if (path.extension() == ".json")
        return load_t1_spec(path);
    toml::table root;
    try {
        root = toml::parse_file(path.string());
    } catch (const toml::parse_error& e) {
        throw SpecError(fmt::format("{}:{}: {}", path.string(), e.source().begin.line, e.description()));
    }
    const Reader reader(std::filesystem::absolute(path));
    KernelSpec spec;
    spec.spec_path = std::filesystem::absolute(path);
    // A misspelt table ([problme]) would otherwise be ignored and its defaults silently used.
    reject_unknown_keys(reader, root, "the spec",
                        {"name", "description", "kernel", "parameters", "derived", "constraints", "problem", "problems",
                         "arguments", "launch", "cost", "register_policy", "reference"});
    spec.name = reader.string(root, "name", true);
    check_identifier(reader, root.get("name"), spec.name, "kernel name");
    spec.description = reader.string(root, "description", false);
    read_kernel(reader, root, spec);
    read_parameters(reader, root, spec);
    read_space(reader, root, spec);
    read_problem(reader, root, spec);
    read_problem_set(reader, root, spec);
    read_arguments(reader, root, spec);
    read_launch_and_cost(reader, root, spec);
    read_register_policy(reader, root, spec);
    read_reference(reader, root, spec);
    read_device_settings(spec);
    check_loaded_spec(spec);
    return spec;
}

void check_loaded_spec(const KernelSpec& spec)
{
    try {
        validate_spec(spec);
    } catch (const ExpressionError& e) {
        throw SpecError(fmt::format("{}: {}", spec.spec_path.string(), e.what()));
    }
    check_spec_ranges(spec);
}

void validate_spec(const KernelSpec& spec)
{
    std::set<std::string> parameter_names;
    for (const auto& p : spec.parameters)
        parameter_names.insert(p.name);
    auto require_parameter = [&](const std::string& name, std::string_view role) {
        if (!name.empty() && !parameter_names.count(name))
            throw ExpressionError(fmt::format("[register_policy] {} names '{}', which is not a parameter", role, name));
    };
    require_parameter(spec.register_policy.max_threads, "max_threads");
    require_parameter(spec.register_policy.min_blocks, "min_blocks");
    require_parameter(spec.register_policy.maxnreg, "maxnreg");
    require_parameter(spec.register_policy.maxrregcount, "maxrregcount");

    // Compiling every expression against its scope reports unknown names and syntax now.
    ExpressionScope scope(spec_variable_names(spec));
    for (std::size_t i = 0; i < spec.derived.size(); ++i)
        Expression(spec.derived[i].expression, "derived " + spec.derived[i].name, scope);
    for (std::size_t i = 0; i < spec.constraints.size(); ++i)
        Expression(spec.constraints[i].expression, "constraint " + spec.constraints[i].name, scope);
    for (std::size_t i = 0; i < spec.launch.grid.size(); ++i)
        Expression(spec.launch.grid[i], fmt::format("launch.grid[{}]", i), scope);
    for (std::size_t i = 0; i < spec.launch.block.size(); ++i)
        Expression(spec.launch.block[i], fmt::format("launch.block[{}]", i), scope);
    Expression(spec.launch.dynamic_shared_bytes, "launch.dynamic_shared_bytes", scope);
    if (!spec.launch.static_shared_bytes.empty())
        Expression(spec.launch.static_shared_bytes, "launch.static_shared_bytes", scope);
    // The cost is the problem's work, but may name parameters and derived values (one value
    // per problem, which is checked per problem: space/problem_work.hpp).
    Expression(spec.cost.flops, "cost.flops", scope);
    Expression(spec.cost.bytes, "cost.bytes", scope);
    for (const auto& argument : spec.arguments)
        Expression(argument.kind == ArgumentKind::buffer ? argument.size : argument.value,
                   "argument " + argument.name, scope);
    for (const auto& d : spec.definitions) {
        Expression(d.expression, "defines." + d.name, scope);
        // In preprocessor mode parameters and derived values are macros already.
        const bool is_parameter = spec.find_parameter(d.name) != nullptr;
        const bool is_derived = std::any_of(spec.derived.begin(), spec.derived.end(),
                                            [&](const DerivedValue& v) { return v.name == d.name; });
        if (spec.passing == ParameterPassing::preprocessor_definitions && (is_parameter || is_derived))
            throw ExpressionError(fmt::format("defines.{}: {} is already a macro (every parameter and derived value is, "
                                              "with parameters_as = 'preprocessor_definitions')", d.name, d.name));
    }
    for (const auto& name : spec.template_arguments)
        if (!scope.has(name))
            throw ExpressionError(fmt::format("template_arguments names '{}', which is not a parameter, derived value "
                                              "or problem variable", name));
}

} // namespace autotune
