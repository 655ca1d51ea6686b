// Fuzz target: the expression evaluators. The input is one expression, read three ways: in
// the spec's expression language (muparser) over a scope like a spec's; as Python, the way a
// T1 file's Values, Conditions and sizes are evaluated; and as Python translated into the
// spec's language and then evaluated there, the way a T1 file's per-variant expressions
// are. A bad expression ends in ExpressionError, which names it; any other exception, a
// sanitizer report or a hang is a finding.
#include "spec/expression.hpp"
#include "spec/python_expression.hpp"

#include <string>

namespace {

using namespace autotune;

// Names a spec's expressions see: parameters, derived values and problem variables.
ExpressionScope& spec_scope()
{
    static ExpressionScope scope({"N", "M", "K", "BM", "TM", "VEC", "block_size_x", "block_size_y", "tile_size_x",
                                  "problem_size_x", "problem_size_y", "filter_width"});
    return scope;
}

void set_values(ExpressionScope& scope)
{
    scope.set_all({{"N", 4096}, {"M", 1000}, {"K", 7}, {"BM", 64}, {"TM", 4}, {"VEC", 2}, {"block_size_x", 32},
                   {"block_size_y", 8}, {"tile_size_x", 2}, {"problem_size_x", 4096}, {"problem_size_y", 2048},
                   {"filter_width", 15}});
}

// What a T1 file's expressions see: a configuration's values, a list-valued parameter folded
// into constants (max(filter_width)), and ProblemSize[i] as the problem's variables.
const PythonScope& python_scope()
{
    static const PythonScope scope = {
        {"block_size_x", PythonValue{std::int64_t{32}}},
        {"block_size_y", PythonValue{std::int64_t{8}}},
        {"tile_size_x", PythonValue{std::int64_t{2}}},
        {"use_padding", PythonValue{true}},
        {"ProblemSize", PythonValue{std::vector<PythonValue>{PythonValue{std::int64_t{4096}}, PythonValue{std::int64_t{2048}}}}},
        {"filter_width", PythonValue{std::vector<PythonValue>{PythonValue{std::int64_t{3}}, PythonValue{std::int64_t{15}}}}},
    };
    return scope;
}

const PythonTranslation& python_translation()
{
    static const PythonTranslation names = {
        {"block_size_x", "block_size_y", "tile_size_x", "problem_size_x", "problem_size_y"},
        {{"filter_width", python_scope().at("filter_width")}},
        {{"ProblemSize", {"problem_size_x", "problem_size_y"}}},
    };
    return names;
}

void as_spec_expression(const std::string& text)
{
    try {
        const Expression e(text, "fuzz", spec_scope());
        set_values(spec_scope());
        (void)e.evaluate_condition();
        (void)e.evaluate_integer();
    } catch (const ExpressionError&) {
    }
}

void as_python(const std::string& text)
{
    try {
        (void)evaluate_python(text, python_scope(), "fuzz").to_string();
    } catch (const ExpressionError&) {
    }
    try {
        (void)evaluate_python_integers(text, python_scope(), "fuzz");
    } catch (const ExpressionError&) {
    }
    try {
        as_spec_expression(translate_python(text, python_translation(), "fuzz"));
    } catch (const ExpressionError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    as_spec_expression(text);
    as_python(text);
    return 0;
}
