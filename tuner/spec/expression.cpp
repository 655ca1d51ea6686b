#include "spec/expression.hpp"

#include "util/closest_name.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <muParser.h>

namespace autotune {
namespace {

double ceil_div(double a, double b)
{
    if (b == 0) throw mu::ParserError("ceil_div by zero");
    return std::ceil(a / b);
}
double floor_div(double a, double b)
{
    if (b == 0) throw mu::ParserError("floor_div by zero");
    return std::floor(a / b);
}
double modulo(double a, double b)
{
    if (b == 0) throw mu::ParserError("modulo by zero");
    return std::fmod(a, b);
}
double is_power_of_two(double a)
{
    if (a < 1 || a != std::floor(a)) return 0;
    // A whole double at or beyond 2^64 would not convert (undefined); there, the powers of two
    // are exactly the doubles whose mantissa is 1.
    if (a >= 0x1p64) {
        int exponent = 0;
        return std::frexp(a, &exponent) == 0.5 ? 1 : 0;
    }
    const auto v = static_cast<std::uint64_t>(a);
    return (v & (v - 1)) == 0 ? 1 : 0;
}
double logical_not(double a) { return a == 0 ? 1 : 0; }

// The bitwise functions (Python's &, |, ^, <<, >> in a T1 condition) take whole numbers
// that a double holds exactly, as every value here is.
std::int64_t whole(double a, const char* function)
{
    if (a != std::floor(a) || std::fabs(a) > 0x1p53)
        throw mu::ParserError(fmt::format("{} needs whole numbers within 2^53, not {}", function, a));
    return static_cast<std::int64_t>(a);
}
double bit_and(double a, double b) { return static_cast<double>(whole(a, "bit_and") & whole(b, "bit_and")); }
double bit_or(double a, double b) { return static_cast<double>(whole(a, "bit_or") | whole(b, "bit_or")); }
double bit_xor(double a, double b) { return static_cast<double>(whole(a, "bit_xor") ^ whole(b, "bit_xor")); }
double shift_left(double a, double b)
{
    const std::int64_t x = whole(a, "shift_left"), n = whole(b, "shift_left");
    if (n < 0)
        throw mu::ParserError("shift_left by a negative count");
    const double r = std::ldexp(static_cast<double>(x), static_cast<int>(std::min<std::int64_t>(n, 64)));
    if (std::fabs(r) > 0x1p53)
        throw mu::ParserError("shift_left beyond 2^53");
    return r;
}
double shift_right(double a, double b)
{
    const std::int64_t x = whole(a, "shift_right"), n = whole(b, "shift_right");
    if (n < 0)
        throw mu::ParserError("shift_right by a negative count");
    return static_cast<double>(n >= 63 ? (x < 0 ? -1 : 0) : (x >> n)); // floors, as Python's does
}

} // namespace

bool is_identifier(const std::string& name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

ExpressionScope::ExpressionScope(const std::vector<std::string>& names) : names_(names)
{
    for (const auto& name : names) {
        if (!is_identifier(name))
            throw ExpressionError(fmt::format("'{}' is not a valid variable name", name));
        if (!slots_.emplace(name, std::make_unique<double>(0.0)).second)
            throw ExpressionError(fmt::format("variable '{}' is defined twice", name));
    }
}

void ExpressionScope::set(const std::string& name, double value)
{
    auto it = slots_.find(name);
    if (it == slots_.end())
        throw ExpressionError(fmt::format("unknown variable '{}'", name));
    *it->second = value;
}

void ExpressionScope::set_all(const std::vector<std::pair<std::string, std::int64_t>>& values)
{
    for (const auto& [name, value] : values)
        set(name, static_cast<double>(value));
}

double ExpressionScope::get(const std::string& name) const
{
    auto it = slots_.find(name);
    if (it == slots_.end())
        throw ExpressionError(fmt::format("unknown variable '{}'", name));
    return *it->second;
}

bool ExpressionScope::has(const std::string& name) const { return slots_.count(name) != 0; }

Expression::Expression(const std::string& text, const std::string& origin, ExpressionScope& scope)
    : text_(text), origin_(origin), parser_(std::make_unique<mu::Parser>())
{
    try {
        parser_->DefineFun("ceil_div", ceil_div);
        parser_->DefineFun("floor_div", floor_div);
        parser_->DefineFun("is_power_of_two", is_power_of_two);
        parser_->DefineFun("bit_and", bit_and);
        parser_->DefineFun("bit_or", bit_or);
        parser_->DefineFun("bit_xor", bit_xor);
        parser_->DefineFun("shift_left", shift_left);
        parser_->DefineFun("shift_right", shift_right);
        parser_->DefineOprt("%", modulo, mu::prMUL_DIV, mu::oaLEFT);
        parser_->DefineInfixOprt("!", logical_not);
        for (const auto& [name, slot] : scope.slots_)
            parser_->DefineVar(name, slot.get());
        parser_->SetExpr(text);
        // Parse now, so syntax errors and unknown names surface when the spec is read,
        // not in the middle of an enumeration.
        for (const auto& [name, ignored] : parser_->GetUsedVar()) {
            if (!scope.has(name))
                throw UnknownNameError(fmt::format("{}: '{}' uses unknown name '{}' ({}known: {})", origin_, text_, name,
                                                  did_you_mean(name, scope.names()), fmt::join(scope.names(), ", ")));
            names_.push_back(name);
        }
    } catch (const mu::ParserError& e) {
        throw ExpressionError(fmt::format("{}: cannot parse '{}': {}", origin_, text_, e.GetMsg()));
    }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

double Expression::evaluate() const
{
    try {
        const double value = parser_->Eval();
        if (!std::isfinite(value))
            throw ExpressionError(fmt::format("{}: '{}' is not finite (a division by zero?)", origin_, text_));
        return value;
    } catch (const mu::ParserError& e) {
        throw ExpressionError(fmt::format("{}: cannot evaluate '{}': {}", origin_, text_, e.GetMsg()));
    }
}

std::int64_t Expression::evaluate_integer() const
{
    const double value = evaluate();
    // Beyond 2^53 a double no longer holds every integer: a size that large is an overflow
    // (N * N * 4 with N = 2^30), not a count anyone can allocate.
    if (std::isfinite(value) && std::fabs(value) > 9.0e15)
        throw ExpressionError(fmt::format("{}: '{}' = {:.4g} is too large (beyond 2^53; an integer overflow?)", origin_,
                                          text_, value));
    if (value != std::floor(value) || std::fabs(value) > 9.0e15)
        throw ExpressionError(fmt::format("{}: '{}' = {} is not an integer (use ceil_div or floor_div)",
                                          origin_, text_, value));
    return static_cast<std::int64_t>(value);
}

} // namespace autotune
