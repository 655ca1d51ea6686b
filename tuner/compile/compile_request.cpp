#include "compile/compile_request.hpp"

#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/spec_scope.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

std::string to_string(CompilerKind kind) { return kind == CompilerKind::nvrtc ? "nvrtc" : "nvcc"; }

CompilerKind parse_compiler_kind(const std::string& text)
{
    if (text == "nvrtc") return CompilerKind::nvrtc;
    if (text == "nvcc") return CompilerKind::nvcc;
    throw std::invalid_argument(fmt::format("--compiler '{}' is not one of: nvrtc, nvcc", text));
}

namespace {

std::int64_t value_for(const std::string& name, const Variant& variant, const Problem& problem)
{
    for (const auto* list : {&variant.parameters, &variant.derived})
        for (const auto& [n, v] : *list)
            if (n == name)
                return v;
    for (const auto& [n, v] : problem.values)
        if (n == name)
            return v;
    throw std::runtime_error(fmt::format("template argument '{}' has no integer value in variant {}", name,
                                         variant.key()));
}

// Kernel Tuner defines these for every kernel it compiles: the block and grid of the
// launch (1 for a dimension not given) and kernel_tuner itself, which kernels test to tell
// a tuning build from their own (#ifndef kernel_tuner #define block_size_x 256 #endif).
// A name the spec already defines (a parameter named block_size_x) keeps that value.
void add_kernel_tuner_definitions(const Variant& variant, CompileRequest& request)
{
    auto add = [&request](const std::string& name, std::int64_t value) {
        for (const auto& [defined, _] : request.definitions)
            if (defined == name)
                return;
        request.definitions.emplace_back(name, value);
    };
    const std::pair<const char*, std::int64_t> block[] = {{"x", variant.block.x}, {"y", variant.block.y}, {"z", variant.block.z}};
    for (const auto& [axis, value] : block)
        add(fmt::format("block_size_{}", axis), value);
    const std::pair<const char*, std::int64_t> grid[] = {{"x", variant.grid.x}, {"y", variant.grid.y}, {"z", variant.grid.z}};
    for (const auto& [axis, value] : grid)
        add(fmt::format("grid_size_{}", axis), value);
    add("kernel_tuner", 1);
}

// [kernel] defines, evaluated for the variant and problem.
void add_spec_definitions(const KernelSpec& spec, const Problem& problem, const Variant& variant,
                          CompileRequest& request)
{
    if (spec.definitions.empty())
        return;
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);
    scope.set_all(variant.parameters);
    scope.set_all(variant.derived);
    try {
        for (const auto& d : spec.definitions)
            request.definitions.emplace_back(d.name, Expression(d.expression, "defines." + d.name, scope).evaluate_integer());
    } catch (const ExpressionError& e) {
        throw spec_problem_error(spec, problem, fmt::format("{} (variant {})", e.what(), variant.key()));
    }
}

} // namespace

CompileRequest make_compile_request(const KernelSpec& spec, const Problem& problem, const Variant& variant,
                                    const ArchTarget& arch)
{
    CompileRequest request;
    request.arch = arch;
    request.template_path = spec.template_path;
    request.include_dirs.push_back(spec.template_path.parent_path());
    for (const auto& dir : spec.include_dirs)
        request.include_dirs.push_back(dir);
    request.extra_options = spec.compile_options;
    request.source = fmt::format("#include \"{}\"\n", spec.template_path.filename().string());

    const std::string& maxrregcount = spec.register_policy.maxrregcount;
    if (spec.passing == ParameterPassing::template_arguments) {
        std::string arguments;
        for (const auto& name : spec.template_arguments)
            arguments += fmt::format("{}{}", arguments.empty() ? "" : ",", value_for(name, variant, problem));
        request.name_expression = fmt::format("{}<{}>", spec.function, arguments);
    } else {
        request.name_expression = spec.function;
        // Every parameter and integral derived value is visible to the preprocessor, as in
        // Kernel Tuner; the file-level register cap is an option, not a macro.
        for (const auto* list : {&variant.parameters, &variant.derived})
            for (const auto& [name, value] : *list)
                if (name != maxrregcount)
                    request.definitions.emplace_back(name, value);
    }
    add_spec_definitions(spec, problem, variant, request);
    if (spec.passing == ParameterPassing::preprocessor_definitions)
        add_kernel_tuner_definitions(variant, request);
    if (!maxrregcount.empty())
        request.maxrregcount = variant.value(maxrregcount);
    return request;
}

std::vector<std::string> nvrtc_options(const CompileRequest& request)
{
    std::vector<std::string> options{"--gpu-architecture=" + request.arch.name(), "--ptxas-options=-v"};
    for (const auto& dir : request.include_dirs)
        options.push_back("-I" + dir.string());
    for (const auto& [name, value] : request.definitions)
        options.push_back(fmt::format("-D{}={}", name, value));
    if (request.maxrregcount > 0)
        options.push_back(fmt::format("--maxrregcount={}", request.maxrregcount));
    options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
    return options;
}

std::vector<std::string> nvcc_options(const CompileRequest& request)
{
    std::vector<std::string> options{"-cubin", "-arch=" + request.arch.name(), "-Xptxas", "-v"};
    for (const auto& dir : request.include_dirs)
        options.push_back("-I" + dir.string());
    for (const auto& [name, value] : request.definitions)
        options.push_back(fmt::format("-D{}={}", name, value));
    if (request.maxrregcount > 0)
        options.push_back(fmt::format("-maxrregcount={}", request.maxrregcount));
    options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
    options.insert(options.end(), request.nvcc_only_options.begin(), request.nvcc_only_options.end());
    return options;
}

std::string portable_path(const std::filesystem::path& path, const std::filesystem::path& base)
{
    if (base.empty())
        return path.string();
    const auto relative = path.lexically_relative(base);
    if (relative.empty() || *relative.begin() == "..")
        return path.string();
    return relative.string();
}

std::vector<std::string> portable_options(const std::vector<std::string>& options, const std::filesystem::path& base)
{
    std::vector<std::string> out;
    for (const auto& option : options) {
        if (option.rfind("-I", 0) == 0 && option.size() > 2)
            out.push_back("-I" + portable_path(option.substr(2), base));
        else
            out.push_back(option);
    }
    return out;
}

} // namespace autotune
