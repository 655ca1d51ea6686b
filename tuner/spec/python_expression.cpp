#include "spec/python_expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace autotune {
namespace {

// What went wrong inside an expression; the caller adds the expression and its origin.
struct PythonError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// A name the scope does not hold: the caller may know why none is in scope.
struct UnknownPythonName : PythonError {
    using PythonError::PythonError;
};

// ---------------------------------------------------------------------------- tokens

enum class TokenKind { integer, floating, name, op, end };

struct Token {
    TokenKind kind;
    std::string text;
    std::size_t column; // 1-based, for messages
};

std::vector<Token> tokenize(const std::string& text)
{
    static const std::vector<std::string> operators{"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "<", ">", "+",
                                                    "-",  "*",  "/",  "%",  "&",  "|",  "^",  "~",  "(", ")", "[",
                                                    "]",  ",",  "."};
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            bool floating = false;
            while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.' ||
                                       text[i] == '_' ||
                                       ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E')))) {
                floating = floating || text[i] == '.' || text[i] == 'e' || text[i] == 'E';
                ++i;
            }
            tokens.push_back({floating ? TokenKind::floating : TokenKind::integer, text.substr(start, i - start), start + 1});
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
                ++i;
            tokens.push_back({TokenKind::name, text.substr(start, i - start), start + 1});
            continue;
        }
        const auto op = std::find_if(operators.begin(), operators.end(),
                                     [&](const std::string& o) { return text.compare(i, o.size(), o) == 0; });
        if (op == operators.end() || *op == ".")
            throw PythonError(fmt::format("unexpected '{}' at column {}", c, start + 1));
        tokens.push_back({TokenKind::op, *op, start + 1});
        i += op->size();
    }
    tokens.push_back({TokenKind::end, "", text.size() + 1});
    return tokens;
}

// ---------------------------------------------------------------------------- syntax tree

enum class NodeKind { literal, name, list, comprehension, for_clause, unary, binary, compare, and_, or_, not_,
                      conditional, call, index };

struct Node {
    NodeKind kind;
    PythonValue literal;
    std::string text;              // name, operator, function, loop variable
    std::vector<std::string> ops;  // compare: the operators between children
    std::vector<Node> children;
    int depth = 1;                 // this node's level count, itself included
};

// Every walk of the tree (evaluation, translation, destruction) recurses as deep as it goes,
// and so does the parser on each parenthesis, bracket and unary operator: both are bounded, so
// that "((((..." or "1+1+1+..." is an error rather than a stack overflow. T1 expressions nest
// a few levels.
constexpr int kMaxDepth = 100;

void check_depth(int depth)
{
    if (depth > kMaxDepth)
        throw PythonError("nested over 100 levels deep");
}

class Parser {
public:
    explicit Parser(const std::string& text) : tokens_(tokenize(text)) {}

    Node parse()
    {
        Node node = conditional();
        if (peek().kind != TokenKind::end)
            throw PythonError(fmt::format("unexpected '{}' at column {}", peek().text, peek().column));
        return node;
    }

private:
    const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
    bool is(const char* text, std::size_t ahead = 0) const
    {
        const Token& t = peek(ahead);
        return (t.kind == TokenKind::op || t.kind == TokenKind::name) && t.text == text;
    }
    bool accept(const char* text)
    {
        if (!is(text))
            return false;
        ++pos_;
        return true;
    }
    void expect(const char* text)
    {
        if (!accept(text))
            throw PythonError(fmt::format("expected '{}' at column {}, found {}", text, peek().column,
                                      peek().kind == TokenKind::end ? "the end" : "'" + peek().text + "'"));
    }
    // The children are moved in: an initializer list would copy them, and with them the whole
    // left operand of every `a + b + c + ...`, which made parsing quadratic in its length.
    template <typename... Children>
    static Node make(NodeKind kind, std::string text, Children&&... children)
    {
        Node node{kind, {}, std::move(text), {}, {}};
        node.children.reserve(sizeof...(children));
        (add(node, std::forward<Children>(children)), ...);
        return node;
    }
    static void add(Node& parent, Node child)
    {
        parent.depth = std::max(parent.depth, child.depth + 1);
        check_depth(parent.depth);
        parent.children.push_back(std::move(child));
    }
    // Held while the parser recurses into a nested expression: one level per parenthesis,
    // bracket, call, unary operator, `**`, `not` and `else`.
    class Nesting {
    public:
        explicit Nesting(int& level) : level_(level) { check_depth(++level_); }
        ~Nesting() { --level_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        int& level_;
    };

    Node conditional()
    {
        Node body = or_test();
        if (!accept("if"))
            return body;
        Node condition = or_test();
        expect("else");
        const Nesting nesting(nesting_);
        Node otherwise = conditional();
        return make(NodeKind::conditional, "", std::move(body), std::move(condition), std::move(otherwise));
    }
    Node or_test()
    {
        Node left = and_test();
        while (accept("or"))
            left = make(NodeKind::or_, "or", std::move(left), and_test());
        return left;
    }
    Node and_test()
    {
        Node left = not_test();
        while (accept("and"))
            left = make(NodeKind::and_, "and", std::move(left), not_test());
        return left;
    }
    Node not_test()
    {
        if (accept("not")) {
            const Nesting nesting(nesting_);
            return make(NodeKind::not_, "not", not_test());
        }
        return comparison();
    }
    Node comparison()
    {
        Node first = bit_or();
        std::optional<Node> node; // made at the first operator, so that a lone operand keeps its depth
        for (;;) {
            std::string op;
            for (const char* o : {"<=", ">=", "==", "!=", "<", ">", "in"})
                if (is(o))
                    op = o;
            if (op.empty() && is("not") && is("in", 1))
                op = "not in";
            if (op.empty())
                break;
            pos_ += op == "not in" ? 2 : 1;
            if (!node)
                node = make(NodeKind::compare, "", std::move(first));
            node->ops.push_back(op);
            add(*node, bit_or());
        }
        return node ? std::move(*node) : std::move(first);
    }
    // Python's bitwise levels, loosest first: |, ^, &, then the shifts.
    Node bit_or() { return left_associative({"|"}, &Parser::bit_xor); }
    Node bit_xor() { return left_associative({"^"}, &Parser::bit_and); }
    Node bit_and() { return left_associative({"&"}, &Parser::shift); }
    Node shift() { return left_associative({"<<", ">>"}, &Parser::arith); }
    Node left_associative(std::initializer_list<const char*> ops, Node (Parser::*operand)())
    {
        Node left = (this->*operand)();
        for (;;) {
            const char* op = nullptr;
            for (const char* o : ops)
                if (is(o))
                    op = o;
            if (!op)
                return left;
            ++pos_;
            left = make(NodeKind::binary, op, std::move(left), (this->*operand)());
        }
    }
    Node arith()
    {
        Node left = term();
        while (is("+") || is("-")) {
            std::string op = peek().text;
            ++pos_;
            left = make(NodeKind::binary, op, std::move(left), term());
        }
        return left;
    }
    Node term()
    {
        Node left = factor();
        while (is("*") || is("/") || is("//") || is("%")) {
            std::string op = peek().text;
            ++pos_;
            left = make(NodeKind::binary, op, std::move(left), factor());
        }
        return left;
    }
    Node factor()
    {
        if (is("-") || is("+") || is("~")) {
            std::string op = peek().text;
            ++pos_;
            const Nesting nesting(nesting_);
            return make(NodeKind::unary, op, factor());
        }
        Node base = postfix();
        if (accept("**")) {
            const Nesting nesting(nesting_);
            return make(NodeKind::binary, "**", std::move(base), factor());
        }
        return base;
    }
    Node postfix()
    {
        Node node = atom();
        for (;;) {
            if (accept("[")) {
                const Nesting nesting(nesting_);
                Node index = conditional();
                expect("]");
                node = make(NodeKind::index, "", std::move(node), std::move(index));
            } else if (is("(")) {
                if (node.kind != NodeKind::name)
                    throw PythonError(fmt::format("only functions can be called (column {})", peek().column));
                ++pos_;
                const Nesting nesting(nesting_);
                Node call = make(NodeKind::call, node.text);
                if (!accept(")")) {
                    do
                        add(call, conditional());
                    while (accept(","));
                    expect(")");
                }
                node = std::move(call);
            } else {
                return node;
            }
        }
    }
    Node atom()
    {
        const Token token = peek();
        if (token.kind == TokenKind::integer || token.kind == TokenKind::floating) {
            ++pos_;
            Node node = make(NodeKind::literal, "");
            try {
                std::size_t used = 0;
                if (token.kind == TokenKind::integer)
                    node.literal.value = static_cast<std::int64_t>(std::stoll(token.text, &used));
                else
                    node.literal.value = std::stod(token.text, &used);
                if (used != token.text.size())
                    throw std::invalid_argument(token.text);
            } catch (const std::exception&) {
                throw PythonError(fmt::format("'{}' is not a number (column {})", token.text, token.column));
            }
            return node;
        }
        if (token.kind == TokenKind::name) {
            static const std::set<std::string> keywords{"and", "or", "not", "if", "else", "for", "in", "None",
                                                        "lambda", "is"};
            if (token.text == "True" || token.text == "False") {
                ++pos_;
                Node node = make(NodeKind::literal, "");
                node.literal.value = token.text == "True";
                return node;
            }
            if (keywords.count(token.text))
                throw PythonError(fmt::format("unexpected '{}' at column {}", token.text, token.column));
            ++pos_;
            return make(NodeKind::name, token.text);
        }
        if (accept("(")) {
            const Nesting nesting(nesting_);
            Node inner = conditional();
            if (is(","))
                throw PythonError(fmt::format("tuples are not supported (column {})", peek().column));
            expect(")");
            return inner;
        }
        if (accept("[")) {
            const Nesting nesting(nesting_);
            return list();
        }
        throw PythonError(token.kind == TokenKind::end ? std::string("unexpected end")
                                                   : fmt::format("unexpected '{}' at column {}", token.text, token.column));
    }
    Node list()
    {
        Node node = make(NodeKind::list, "");
        if (accept("]"))
            return node;
        add(node, conditional());
        if (is("for")) {
            node.kind = NodeKind::comprehension;
            while (accept("for")) {
                if (peek().kind != TokenKind::name)
                    throw PythonError(fmt::format("expected a loop variable at column {}", peek().column));
                Node clause = make(NodeKind::for_clause, peek().text);
                ++pos_;
                expect("in");
                add(clause, or_test());
                while (accept("if"))
                    add(clause, or_test());
                add(node, std::move(clause));
            }
            expect("]");
            return node;
        }
        while (accept(",")) {
            if (is("]"))
                break;
            add(node, conditional());
        }
        expect("]");
        return node;
    }

    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    int nesting_ = 0;
};

// ---------------------------------------------------------------------------- values

using List = std::vector<PythonValue>;

// What one evaluation may build or loop over: a list (range(), list * n) and the iterations of
// a comprehension, whose nested loops multiply. T1 files list a few hundred values at most; the
// bound keeps a typo's (or a fuzzer's) 10**12 from running for hours.
constexpr std::int64_t kMaxListLength = 10'000'000;

PythonValue make_int(std::int64_t v) { return PythonValue{v}; }
PythonValue make_float(double v) { return PythonValue{v}; }
PythonValue make_bool(bool v) { return PythonValue{v}; }

bool is_int(const PythonValue& v) { return std::holds_alternative<std::int64_t>(v.value) || std::holds_alternative<bool>(v.value); }
bool is_number(const PythonValue& v) { return is_int(v) || std::holds_alternative<double>(v.value); }
const List& as_list(const PythonValue& v, const char* what)
{
    if (!v.is_list())
        throw PythonError(fmt::format("{} needs a list, not {}", what, v.to_string()));
    return std::get<List>(v.value);
}
std::int64_t as_int(const PythonValue& v, const char* what)
{
    if (const auto* b = std::get_if<bool>(&v.value))
        return *b ? 1 : 0;
    if (const auto* i = std::get_if<std::int64_t>(&v.value))
        return *i;
    throw PythonError(fmt::format("{} needs an integer, not {}", what, v.to_string()));
}
double as_double(const PythonValue& v, const char* what)
{
    if (const auto* d = std::get_if<double>(&v.value))
        return *d;
    if (is_int(v))
        return static_cast<double>(as_int(v, what));
    throw PythonError(fmt::format("{} needs a number, not {}", what, v.to_string()));
}
bool truthy(const PythonValue& v)
{
    if (v.is_list())
        return !std::get<List>(v.value).empty();
    return as_double(v, "a condition") != 0.0;
}
bool equal(const PythonValue& a, const PythonValue& b)
{
    if (a.is_list() || b.is_list()) {
        if (!a.is_list() || !b.is_list())
            return false;
        const List& x = std::get<List>(a.value);
        const List& y = std::get<List>(b.value);
        return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), equal);
    }
    if (is_int(a) && is_int(b))
        return as_int(a, "==") == as_int(b, "==");
    return as_double(a, "==") == as_double(b, "==");
}

void check_overflow(bool overflow)
{
    if (overflow)
        throw PythonError("integer overflow (beyond 64 bits)");
}

// Python's bitwise operators on integers; a shift past 64 bits is an overflow, as
// elsewhere here, and a negative count an error, as in Python.
PythonValue bitwise(const std::string& op, std::int64_t x, std::int64_t y)
{
    if (op == "&") return make_int(x & y);
    if (op == "|") return make_int(x | y);
    if (op == "^") return make_int(x ^ y);
    if (y < 0)
        throw PythonError("negative shift count");
    if (op == ">>") // floors, as Python's does for negative numbers
        return make_int(y >= 63 ? (x < 0 ? -1 : 0) : (x >> y));
    if (x == 0)
        return make_int(0);
    check_overflow(y >= 64 || x > (std::numeric_limits<std::int64_t>::max() >> y) ||
                   x < (std::numeric_limits<std::int64_t>::min() >> y));
    return make_int(static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y));
}

PythonValue arithmetic(const std::string& op, const PythonValue& a, const PythonValue& b)
{
    if (op == "+" && a.is_list() && b.is_list()) {
        List out = std::get<List>(a.value);
        const List& more = std::get<List>(b.value);
        out.insert(out.end(), more.begin(), more.end());
        return PythonValue{std::move(out)};
    }
    if (op == "*" && (a.is_list() || b.is_list())) {
        const List& items = as_list(a.is_list() ? a : b, "*");
        const std::int64_t times = as_int(a.is_list() ? b : a, "list * n");
        List out;
        if (items.empty() || times <= 0)
            return PythonValue{std::move(out)};
        if (times > kMaxListLength / static_cast<std::int64_t>(items.size()))
            throw PythonError("list * n is too long (over 10,000,000 values)");
        for (std::int64_t i = 0; i < times; ++i)
            out.insert(out.end(), items.begin(), items.end());
        return PythonValue{std::move(out)};
    }
    const std::string what = "'" + op + "'";
    if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>")
        return bitwise(op, as_int(a, what.c_str()), as_int(b, what.c_str()));
    if (!is_number(a) || !is_number(b))
        throw PythonError(fmt::format("{} needs numbers, not {} and {}", what, a.to_string(), b.to_string()));
    if (op == "/") {
        const double d = as_double(b, "/");
        if (d == 0)
            throw PythonError("division by zero");
        return make_float(as_double(a, "/") / d);
    }
    if (is_int(a) && is_int(b)) {
        const std::int64_t x = as_int(a, "");
        const std::int64_t y = as_int(b, "");
        std::int64_t r = 0;
        if (op == "+" || op == "-" || op == "*") {
            check_overflow(op == "+"   ? __builtin_add_overflow(x, y, &r)
                           : op == "-" ? __builtin_sub_overflow(x, y, &r)
                                       : __builtin_mul_overflow(x, y, &r));
            return make_int(r);
        }
        if (op == "//" || op == "%") {
            if (y == 0)
                throw PythonError(op == "//" ? "integer division by zero" : "modulo by zero");
            if (y == -1) { // x / -1 is undefined in C++ for the one x whose negation overflows
                if (op == "%")
                    return make_int(0);
                check_overflow(__builtin_sub_overflow(std::int64_t{0}, x, &r));
                return make_int(r);
            }
            std::int64_t q = x / y;
            std::int64_t m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) { // Python rounds toward negative infinity
                --q;
                m += y;
            }
            return make_int(op == "//" ? q : m);
        }
        if (op == "**") {
            if (y < 0)
                return make_float(std::pow(static_cast<double>(x), static_cast<double>(y)));
            // By squaring: as many steps as y has bits, where counting y down took 2^63 for 1 ** 2**62.
            std::int64_t result = 1;
            std::int64_t base = x;
            for (std::int64_t e = y; e > 0; e /= 2) {
                if (e % 2 == 1)
                    check_overflow(__builtin_mul_overflow(result, base, &result));
                if (e > 1)
                    check_overflow(__builtin_mul_overflow(base, base, &base));
            }
            return make_int(result);
        }
    }
    const double x = as_double(a, "");
    const double y = as_double(b, "");
    if (op == "+") return make_float(x + y);
    if (op == "-") return make_float(x - y);
    if (op == "*") return make_float(x * y);
    if (op == "**") return make_float(std::pow(x, y));
    if (y == 0)
        throw PythonError(op == "//" ? "float floor division by zero" : "float modulo");
    if (op == "//") return make_float(std::floor(x / y));
    double m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0)))
        m += y;
    return make_float(m);
}

bool compare(const std::string& op, const PythonValue& a, const PythonValue& b)
{
    if (op == "in" || op == "not in") {
        const List& items = as_list(b, "'in'");
        const bool found = std::any_of(items.begin(), items.end(), [&](const PythonValue& v) { return equal(a, v); });
        return op == "in" ? found : !found;
    }
    if (op == "==") return equal(a, b);
    if (op == "!=") return !equal(a, b);
    const double x = as_double(a, op.c_str());
    const double y = as_double(b, op.c_str());
    if (is_int(a) && is_int(b)) {
        const auto i = as_int(a, ""), j = as_int(b, "");
        return op == "<" ? i < j : op == ">" ? i > j : op == "<=" ? i <= j : i >= j;
    }
    return op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y;
}

PythonValue call(const std::string& function, const std::vector<PythonValue>& args)
{
    if (function == "range") {
        if (args.empty() || args.size() > 3)
            throw PythonError("range() takes 1 to 3 integers");
        const std::int64_t start = args.size() == 1 ? 0 : as_int(args[0], "range()");
        const std::int64_t stop = as_int(args[args.size() == 1 ? 0 : 1], "range()");
        const std::int64_t step = args.size() == 3 ? as_int(args[2], "range()") : 1;
        if (step == 0)
            throw PythonError("range() step must not be zero");
        List out;
        for (std::int64_t i = start; step > 0 ? i < stop : i > stop;) {
            if (static_cast<std::int64_t>(out.size()) >= kMaxListLength)
                throw PythonError("range() is too long (over 10,000,000 values)");
            out.push_back(make_int(i));
            if (__builtin_add_overflow(i, step, &i))
                break; // the next value lies beyond 64 bits, so beyond stop
        }
        return PythonValue{std::move(out)};
    }
    if (function == "list" && args.size() == 1) // list(range(...)): a range is a list here already
        return PythonValue{as_list(args[0], "list()")};
    if (args.size() == 1 && (function == "len" || function == "sum")) {
        const List& items = as_list(args[0], (function + "()").c_str());
        if (function == "len")
            return make_int(static_cast<std::int64_t>(items.size()));
        PythonValue total = make_int(0);
        for (const auto& v : items)
            total = arithmetic("+", total, v);
        return total;
    }
    if (function == "max" || function == "min") {
        // max(list) or max(a, b, ...), as Python has both.
        const List& items = args.size() == 1 ? as_list(args[0], (function + "()").c_str()) : args;
        if (items.empty())
            throw PythonError(function + "() of an empty list");
        PythonValue best = items[0];
        for (const auto& v : items)
            if (compare(function == "max" ? ">" : "<", v, best))
                best = v;
        return best;
    }
    if ((function == "abs" || function == "int" || function == "float") && args.size() == 1) {
        if (function == "float")
            return make_float(as_double(args[0], "float()"));
        if (is_int(args[0])) {
            const std::int64_t i = as_int(args[0], "");
            if (function == "abs" && i < 0)
                return arithmetic("-", make_int(0), args[0]); // overflow-checked, as abs(-2**63) overflows
            return make_int(i);
        }
        const double d = as_double(args[0], (function + "()").c_str());
        if (function == "abs")
            return make_float(std::fabs(d));
        // int() of a float beyond 64 bits (or inf, nan) has no value here; the cast would be undefined.
        const double whole = std::trunc(d);
        if (!(whole >= -0x1p63 && whole < 0x1p63))
            throw PythonError(fmt::format("int() of {} is beyond 64 bits", args[0].to_string()));
        return make_int(static_cast<std::int64_t>(whole));
    }
    throw PythonError(fmt::format("unknown function '{}' with {} argument(s) (known: range, list, len, sum, max, "
                              "min, abs, int, float)", function, args.size()));
}

class Evaluator {
public:
    explicit Evaluator(const PythonScope& scope) : env_(scope) {}

    PythonValue eval(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::literal:
            return n.literal;
        case NodeKind::name: {
            auto it = env_.find(n.text);
            if (it == env_.end()) {
                std::vector<std::string> known;
                for (const auto& [name, _] : env_)
                    known.push_back(name);
                throw UnknownPythonName(fmt::format("unknown name '{}' (known: {})", n.text,
                                          known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
            }
            return it->second;
        }
        case NodeKind::list: {
            List out;
            for (const auto& c : n.children)
                out.push_back(eval(c));
            return PythonValue{std::move(out)};
        }
        case NodeKind::comprehension: {
            List out;
            comprehend(n, 1, out);
            return PythonValue{std::move(out)};
        }
        case NodeKind::unary: {
            const PythonValue v = eval(n.children[0]);
            if (n.text == "+")
                return arithmetic("+", make_int(0), v);
            if (n.text == "~") // integers only; -v - 1, which no int64 overflows
                return make_int(~as_int(v, "'~'"));
            return arithmetic("-", make_int(0), v);
        }
        case NodeKind::binary:
            return arithmetic(n.text, eval(n.children[0]), eval(n.children[1]));
        case NodeKind::compare: {
            PythonValue left = eval(n.children[0]);
            for (std::size_t i = 0; i < n.ops.size(); ++i) {
                PythonValue right = eval(n.children[i + 1]);
                if (!compare(n.ops[i], left, right))
                    return make_bool(false);
                left = std::move(right);
            }
            return make_bool(true);
        }
        case NodeKind::and_: {
            PythonValue left = eval(n.children[0]);
            return truthy(left) ? eval(n.children[1]) : left;
        }
        case NodeKind::or_: {
            PythonValue left = eval(n.children[0]);
            return truthy(left) ? left : eval(n.children[1]);
        }
        case NodeKind::not_:
            return make_bool(!truthy(eval(n.children[0])));
        case NodeKind::conditional:
            return truthy(eval(n.children[1])) ? eval(n.children[0]) : eval(n.children[2]);
        case NodeKind::call: {
            std::vector<PythonValue> args;
            for (const auto& c : n.children)
                args.push_back(eval(c));
            return call(n.text, args);
        }
        case NodeKind::index: {
            const PythonValue target = eval(n.children[0]);
            const List& items = as_list(target, "indexing");
            const std::int64_t index = as_int(eval(n.children[1]), "an index");
            std::int64_t i = index;
            const auto size = static_cast<std::int64_t>(items.size());
            if (i < 0)
                i += size;
            if (i < 0 || i >= size)
                throw PythonError(fmt::format("index {} is out of range (the list has {})", index, size));
            return items[static_cast<std::size_t>(i)];
        }
        case NodeKind::for_clause:
            break;
        }
        throw PythonError("internal error: unexpected node");
    }

private:
    void comprehend(const Node& n, std::size_t clause, List& out)
    {
        if (clause == n.children.size()) {
            out.push_back(eval(n.children[0]));
            return;
        }
        const Node& c = n.children[clause];
        const List items = as_list(eval(c.children[0]), "'for ... in'");
        const auto saved = env_.find(c.text) == env_.end() ? std::optional<PythonValue>() : env_.at(c.text);
        for (const auto& item : items) {
            if (++iterations_ > kMaxListLength)
                throw PythonError("the comprehension runs over 10,000,000 iterations");
            env_[c.text] = item;
            bool keep = true;
            for (std::size_t k = 1; k < c.children.size() && keep; ++k)
                keep = truthy(eval(c.children[k]));
            if (keep)
                comprehend(n, clause + 1, out);
        }
        if (saved)
            env_[c.text] = *saved;
        else
            env_.erase(c.text);
    }

    PythonScope env_;
    std::int64_t iterations_ = 0; // of every comprehension's loops in this evaluation
};

// ---------------------------------------------------------------------------- translation

// Names a subtree uses that it does not bind itself (comprehension variables).
void free_names(const Node& n, std::set<std::string>& bound, std::set<std::string>& out)
{
    if (n.kind == NodeKind::name) {
        if (!bound.count(n.text))
            out.insert(n.text);
        return;
    }
    if (n.kind == NodeKind::comprehension) {
        std::set<std::string> inner = bound;
        for (std::size_t i = 1; i < n.children.size(); ++i) {
            const Node& clause = n.children[i];
            for (const auto& c : clause.children) {
                if (&c == &clause.children[0])
                    free_names(c, inner, out); // the iterable, before its variable is bound
                else {
                    inner.insert(clause.text);
                    free_names(c, inner, out);
                }
            }
            inner.insert(clause.text);
        }
        free_names(n.children[0], inner, out);
        return;
    }
    for (const auto& c : n.children)
        free_names(c, bound, out);
}

std::string literal_text(const PythonValue& v)
{
    if (const auto* b = std::get_if<bool>(&v.value))
        return *b ? "1" : "0";
    if (const auto* i = std::get_if<std::int64_t>(&v.value))
        return *i < 0 ? fmt::format("({})", *i) : std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v.value))
        return *d < 0 ? fmt::format("({})", *d) : fmt::format("{}", *d);
    throw PythonError(fmt::format("the list {} has no equivalent here (a number is needed)", v.to_string()));
}

class Translator {
public:
    explicit Translator(const PythonTranslation& names) : names_(names) {}

    std::string translate(const Node& n)
    {
        std::set<std::string> bound, used;
        free_names(n, bound, used);
        const bool constant = std::all_of(used.begin(), used.end(),
                                          [&](const std::string& name) { return names_.constants.count(name) != 0; });
        if (constant)
            return literal_text(Evaluator(names_.constants).eval(n));
        switch (n.kind) {
        case NodeKind::name:
            if (names_.variables.count(n.text))
                return n.text;
            throw UnknownPythonName(fmt::format("unknown name '{}' (known: {})", n.text, fmt::join(names_.variables, ", ")));
        case NodeKind::index: {
            if (n.children[0].kind == NodeKind::name) {
                auto it = names_.indexed.find(n.children[0].text);
                if (it != names_.indexed.end()) {
                    const std::int64_t i = as_int(Evaluator(names_.constants).eval(n.children[1]), "an index");
                    if (i < 0 || i >= static_cast<std::int64_t>(it->second.size()))
                        throw PythonError(fmt::format("{}[{}] is out of range (it has {})", it->first, i, it->second.size()));
                    return it->second[static_cast<std::size_t>(i)];
                }
            }
            throw PythonError("indexing is only supported on constant lists here");
        }
        case NodeKind::unary:
            if (n.text == "~")
                return fmt::format("(-{} - 1)", translate(n.children[0]));
            return n.text == "-" ? fmt::format("(-{})", translate(n.children[0])) : translate(n.children[0]);
        case NodeKind::binary: {
            const std::string a = translate(n.children[0]);
            const std::string b = translate(n.children[1]);
            if (n.text == "//")
                return fmt::format("floor_div({}, {})", a, b);
            if (n.text == "**")
                return fmt::format("({} ^ {})", a, b);
            static const std::map<std::string, const char*> bitwise{
                {"&", "bit_and"}, {"|", "bit_or"}, {"^", "bit_xor"}, {"<<", "shift_left"}, {">>", "shift_right"}};
            if (const auto it = bitwise.find(n.text); it != bitwise.end())
                return fmt::format("{}({}, {})", it->second, a, b);
            return fmt::format("({} {} {})", a, n.text, b);
        }
        case NodeKind::compare: {
            std::vector<std::string> parts;
            for (std::size_t i = 0; i < n.ops.size(); ++i) {
                const std::string left = translate(n.children[i]);
                const std::string& op = n.ops[i];
                if (op == "in" || op == "not in") {
                    const PythonValue items = Evaluator(names_.constants).eval(n.children[i + 1]);
                    std::vector<std::string> alternatives;
                    for (const auto& v : as_list(items, "'in'"))
                        alternatives.push_back(fmt::format("{} == {}", left, literal_text(v)));
                    const std::string any = alternatives.empty() ? "0" : fmt::format("({})", fmt::join(alternatives, " || "));
                    parts.push_back(op == "in" ? any : "!" + any);
                } else {
                    parts.push_back(fmt::format("{} {} {}", left, op, translate(n.children[i + 1])));
                }
            }
            return fmt::format("({})", fmt::join(parts, " && "));
        }
        case NodeKind::and_:
            return fmt::format("({} && {})", translate(n.children[0]), translate(n.children[1]));
        case NodeKind::or_:
            return fmt::format("({} || {})", translate(n.children[0]), translate(n.children[1]));
        case NodeKind::not_:
            return fmt::format("(!{})", translate(n.children[0]));
        case NodeKind::conditional:
            return fmt::format("({} ? {} : {})", translate(n.children[1]), translate(n.children[0]),
                               translate(n.children[2]));
        case NodeKind::call:
            if ((n.text == "max" || n.text == "min") && n.children.size() >= 2) {
                std::vector<std::string> args;
                for (const auto& c : n.children)
                    args.push_back(translate(c));
                return fmt::format("{}({})", n.text, fmt::join(args, ", "));
            }
            if (n.text == "abs" && n.children.size() == 1)
                return fmt::format("abs({})", translate(n.children[0]));
            throw PythonError(fmt::format("{}() of a per-configuration value has no equivalent (use it on constants)", n.text));
        case NodeKind::list:
        case NodeKind::comprehension:
            throw PythonError("a list of per-configuration values has no equivalent (a number is needed)");
        default:
            throw PythonError("internal error: unexpected node");
        }
    }

private:
    const PythonTranslation& names_;
};

// An error inside an expression as the caller sees it: the message says where and what;
// a name the scope lacks stays recognisable (UnknownNameError).
[[noreturn]] void fail_expression(const PythonError& e, const std::string& message)
{
    if (dynamic_cast<const UnknownPythonName*>(&e) != nullptr)
        throw UnknownNameError(message);
    throw ExpressionError(message);
}

Node parse(const std::string& text, const std::string& origin)
{
    try {
        return Parser(text).parse();
    } catch (const PythonError& e) {
        fail_expression(e, fmt::format("{}: cannot parse '{}': {}", origin, text, e.what()));
    }
}

} // namespace

std::string PythonValue::to_string() const
{
    if (const auto* b = std::get_if<bool>(&value))
        return *b ? "True" : "False";
    if (const auto* i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&value))
        return *d == std::floor(*d) && std::fabs(*d) < 1e16 ? fmt::format("{:.1f}", *d) : fmt::format("{}", *d);
    std::vector<std::string> items;
    for (const auto& v : std::get<std::vector<PythonValue>>(value))
        items.push_back(v.to_string());
    return fmt::format("[{}]", fmt::join(items, ", "));
}

bool python_truth(const PythonValue& value) { return truthy(value); }

PythonValue evaluate_python(const std::string& text, const PythonScope& scope, const std::string& origin)
{
    const Node tree = parse(text, origin);
    try {
        return Evaluator(scope).eval(tree);
    } catch (const PythonError& e) {
        fail_expression(e, fmt::format("{}: cannot evaluate '{}': {}", origin, text, e.what()));
    }
}

std::vector<std::int64_t> evaluate_python_integers(const std::string& text, const PythonScope& scope,
                                                   const std::string& origin)
{
    const PythonValue value = evaluate_python(text, scope, origin);
    auto fail = [&](const std::string& what) {
        throw ExpressionError(fmt::format("{}: '{}' {}", origin, text, what));
    };
    if (!value.is_list())
        fail(fmt::format("is {}, not a list of integers", value.to_string()));
    std::vector<std::int64_t> out;
    std::set<std::int64_t> seen; // a search of `out` made ten million values take days
    for (const auto& v : std::get<List>(value.value)) {
        if (!std::holds_alternative<std::int64_t>(v.value))
            fail(fmt::format("holds {}, which is not an integer", v.to_string()));
        if (!seen.insert(std::get<std::int64_t>(v.value)).second)
            fail(fmt::format("lists {} twice", v.to_string()));
        out.push_back(std::get<std::int64_t>(v.value));
    }
    if (out.empty())
        fail("is an empty list");
    return out;
}

std::string translate_python(const std::string& text, const PythonTranslation& names, const std::string& origin)
{
    const Node tree = parse(text, origin);
    try {
        return Translator(names).translate(tree);
    } catch (const PythonError& e) {
        fail_expression(e, fmt::format("{}: cannot translate '{}': {}", origin, text, e.what()));
    }
}

} // namespace autotune
