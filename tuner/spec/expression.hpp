// Integer-valued expressions over named variables (spec constraints, launch geometry,
// buffer sizes, cost model), evaluated with muparser. Values are held as doubles, which
// is exact for every integer a spec can meaningfully use (below 2^53).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mu { class Parser; }

namespace autotune {

// 2^53: up to here a double holds every integer, so a value a spec gives (a parameter, a
// problem size) must not exceed it to mean in an expression what it says.
inline constexpr std::int64_t largest_exact_integer = std::int64_t{1} << 53;

// An expression that could not be parsed or evaluated; the message names the
// expression, where it came from, and what was wrong.
class ExpressionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// The expression names something its scope does not hold.
class UnknownNameError : public ExpressionError {
public:
    using ExpressionError::ExpressionError;
};

// The variables expressions may refer to. Expressions compiled against a scope see the
// values set in it at evaluation time; a scope must outlive its expressions.
class ExpressionScope {
public:
    explicit ExpressionScope(const std::vector<std::string>& names);
    ExpressionScope(const ExpressionScope&) = delete;
    ExpressionScope& operator=(const ExpressionScope&) = delete;

    void set(const std::string& name, double value);
    // Sets each named integer: a problem's variables, a variant's parameters or derived values.
    void set_all(const std::vector<std::pair<std::string, std::int64_t>>& values);
    [[nodiscard]] double get(const std::string& name) const;
    [[nodiscard]] bool has(const std::string& name) const;
    [[nodiscard]] const std::vector<std::string>& names() const { return names_; }

private:
    friend class Expression;
    std::vector<std::string> names_;
    std::map<std::string, std::unique_ptr<double>> slots_; // stable addresses for muparser
};

// One compiled expression. `origin` says where it came from ("constraint 3",
// "launch.grid[0]") and appears in every error.
class Expression {
public:
    Expression(const std::string& text, const std::string& origin, ExpressionScope& scope);
    ~Expression();
    Expression(Expression&&) noexcept;
    Expression& operator=(Expression&&) noexcept;

    [[nodiscard]] double evaluate() const;
    // Evaluates and requires an integral result ("N / BN" with N = 100, BN = 64 is an error:
    // write ceil_div(N, BN) when rounding is meant).
    [[nodiscard]] std::int64_t evaluate_integer() const;
    [[nodiscard]] bool evaluate_condition() const { return evaluate() != 0.0; }

    [[nodiscard]] const std::string& text() const { return text_; }
    [[nodiscard]] const std::string& origin() const { return origin_; }
    // The scope's names the expression uses.
    [[nodiscard]] const std::vector<std::string>& names() const { return names_; }

private:
    std::string text_;
    std::string origin_;
    std::vector<std::string> names_;
    std::unique_ptr<mu::Parser> parser_;
};

// Names a well-formed variable may have: a C identifier.
[[nodiscard]] bool is_identifier(const std::string& name);

} // namespace autotune
