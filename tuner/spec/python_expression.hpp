// Python expressions as the T1 autotuning format writes them: parameter values
// ("[32 * i for i in range(1, 32)]"), conditions ("block_size_x*block_size_y>=64") and
// sizes ("(ProblemSize[0]+max(filter_width)-1) * ..."). A small subset of Python: ints,
// floats, bools, lists and list comprehensions (for/in/if, range), + - * / // % **,
// comparison chains, and/or/not, `x if c else y`, `in`, indexing, and max, min, len, sum,
// abs, int. Evaluated directly, or translated into the spec's expression language
// (spec/expression.hpp) so that per-variant expressions go through the one pipeline.
#pragma once

#include "spec/expression.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace autotune {

// A Python value: int, float, bool or list.
struct PythonValue {
    std::variant<std::int64_t, double, bool, std::vector<PythonValue>> value;

    [[nodiscard]] bool is_list() const { return std::holds_alternative<std::vector<PythonValue>>(value); }
    [[nodiscard]] std::string to_string() const; // as Python prints it: 3, 2.5, True, [1, 2]
};

// Python's truth: non-zero numbers, True, non-empty lists.
[[nodiscard]] bool python_truth(const PythonValue& value);

using PythonScope = std::map<std::string, PythonValue>;

// Evaluates `text` with the names of `scope`; throws ExpressionError naming `origin`, the
// expression and what is wrong (a syntax error, an unknown name, a division by zero).
[[nodiscard]] PythonValue evaluate_python(const std::string& text, const PythonScope& scope, const std::string& origin);

// Evaluates `text` to a non-empty list of distinct integers (a T1 parameter's Values).
[[nodiscard]] std::vector<std::int64_t> evaluate_python_integers(const std::string& text, const PythonScope& scope,
                                                                 const std::string& origin);

// What a translated expression may refer to.
struct PythonTranslation {
    std::set<std::string> variables; // names the spec's expressions know (parameters, problem variables)
    PythonScope constants;           // names folded into literals (max(filter_width) with its Values)
    // NAME[i] written as a spec variable: ProblemSize[0] -> problem_size_x.
    std::map<std::string, std::vector<std::string>> indexed;
};

// The same expression in the spec's expression language (muparser): `//` becomes
// floor_div, `**` ^, and/or/not && || !, `a < b <= c` (a < b && b <= c), `x in [1, 2]`
// (x == 1 || x == 2), `x if c else y` (c ? x : y); parts using constants only are
// evaluated here, as Python does. Throws ExpressionError naming `origin` and the part that
// has no equivalent (a list where a number is needed, an unknown name).
[[nodiscard]] std::string translate_python(const std::string& text, const PythonTranslation& names,
                                           const std::string& origin);

} // namespace autotune
