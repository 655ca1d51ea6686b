// The Python subset T1 files are written in: literal cases whose answers Python gives.
#include "spec/expression.hpp"
#include "spec/python_expression.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

std::string eval(const std::string& text, const PythonScope& scope = {})
{
    return evaluate_python(text, scope, "test").to_string();
}

std::string evaluation_error(const std::string& text)
{
    try {
        (void)evaluate_python(text, {}, "Values");
    } catch (const ExpressionError& e) {
        return e.what();
    }
    return "no error";
}

TEST(PythonExpression, EvaluatesTheValuesT1FilesWrite)
{
    EXPECT_EQ(eval("[0, 1, 2, 3]"), "[0, 1, 2, 3]");
    const auto blocks = evaluate_python_integers("[32 * i for i in range(1, 32)]", {}, "t");
    ASSERT_EQ(blocks.size(), 31u);
    EXPECT_EQ(blocks.front(), 32);
    EXPECT_EQ(blocks.back(), 992);
    EXPECT_THAT(evaluate_python_integers("[1] + [2 * i for i in range(1, 11)]", {}, "t"),
                ElementsAre(1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20));
    EXPECT_EQ(eval("[i for i in range(10, 0, -3) if i % 2 == 0]"), "[10, 4]");
    EXPECT_EQ(eval("[i * j for i in range(1, 3) for j in [10, 100]]"), "[10, 100, 20, 200]");
    EXPECT_EQ(eval("[2**i for i in range(5)]"), "[1, 2, 4, 8, 16]");
    EXPECT_THAT(evaluate_python_integers("[1, 2, 4, 8, 16] + list(range(32, 1024+1, 32))", {}, "t"),
                AllOf(testing::SizeIs(37), testing::Contains(1024), testing::Not(testing::Contains(1056))));
    EXPECT_EQ(eval("list([3, 1])"), "[3, 1]");
}

TEST(PythonExpression, BitwiseOperatorsFollowPython)
{
    EXPECT_EQ(eval("6 & 3"), "2");
    EXPECT_EQ(eval("6 | 3"), "7");
    EXPECT_EQ(eval("6 ^ 3"), "5");
    EXPECT_EQ(eval("~5"), "-6");
    EXPECT_EQ(eval("1 << 20"), "1048576");
    EXPECT_EQ(eval("-7 >> 1"), "-4");
    EXPECT_EQ(eval("-1 >> 100"), "-1");
    EXPECT_EQ(eval("1 | 2 ^ 3 & 4 << 1"), "3"); // 1 | (2 ^ (3 & (4 << 1)))
    EXPECT_EQ(eval("8 & 7 == 0"), "True");      // (8 & 7) == 0: & binds tighter than comparisons
    EXPECT_THAT(evaluate_python_integers("[1 << i for i in range(5, 11)]", {}, "t"), ElementsAre(32, 64, 128, 256, 512, 1024));
    EXPECT_THAT(evaluation_error("1 << 63"), HasSubstr("overflow"));
    EXPECT_THAT(evaluation_error("-1 << 64"), HasSubstr("overflow"));
    EXPECT_EQ(eval("-1 << 63"), "-9223372036854775808");
    EXPECT_THAT(evaluation_error("1 << -1"), HasSubstr("negative shift count"));
    EXPECT_THAT(evaluation_error("1.5 & 1"), HasSubstr("'&'"));
}

// A name the scope lacks is its own kind of error, whichever way the expression is read,
// so that a caller can say why no name is in scope (a T1 ProblemSize); others are not.
TEST(PythonExpression, AnUnknownNameIsItsOwnError)
{
    EXPECT_THROW((void)evaluate_python("tile * 64", {}, "ProblemSize[0]"), UnknownNameError);
    EXPECT_THROW((void)translate_python("tile * 64", PythonTranslation{}, "condition"), UnknownNameError);
    try {
        (void)evaluate_python("64 // 0", {}, "ProblemSize[0]");
        ADD_FAILURE() << "no error";
    } catch (const UnknownNameError&) {
        ADD_FAILURE() << "a division by zero is not an unknown name";
    } catch (const ExpressionError& e) {
        EXPECT_THAT(e.what(), HasSubstr("integer division by zero"));
    }
}

TEST(PythonExpression, FollowsPythonArithmetic)
{
    EXPECT_EQ(eval("7 // 2"), "3");
    EXPECT_EQ(eval("-7 // 2"), "-4");   // toward negative infinity
    EXPECT_EQ(eval("-7 % 3"), "2");     // the sign of the divisor
    EXPECT_EQ(eval("7 % -3"), "-2");
    EXPECT_EQ(eval("7 / 2"), "3.5");
    EXPECT_EQ(eval("6 / 2"), "3.0");    // true division is a float
    EXPECT_EQ(eval("-2 ** 2"), "-4");   // ** binds tighter than unary minus
    EXPECT_EQ(eval("2 ** 3 ** 2"), "512"); // and to the right
    EXPECT_EQ(eval("2 ** -1"), "0.5");
    EXPECT_EQ(eval("1 + 2 * 3 - 4"), "3");
    EXPECT_EQ(eval("7.5 // 2"), "3.0");
    EXPECT_EQ(eval("[1, 2] * 2"), "[1, 2, 1, 2]");
}

TEST(PythonExpression, ComparesInChainsWithAndOrNot)
{
    EXPECT_EQ(eval("1 < 2 <= 2 < 3"), "True");
    EXPECT_EQ(eval("1 < 3 <= 2"), "False");
    EXPECT_EQ(eval("not 1 < 2 or 3 == 3"), "True");
    EXPECT_EQ(eval("0 or 5"), "5"); // or returns an operand, as in Python
    EXPECT_EQ(eval("2 and 0"), "0");
    EXPECT_EQ(eval("3 in [1, 2, 3]"), "True");
    EXPECT_EQ(eval("3 not in [1, 2, 3]"), "False");
    EXPECT_EQ(eval("10 if 1 > 2 else 20"), "20");
    EXPECT_EQ(eval("True + True"), "2");
}

TEST(PythonExpression, IndexesAndCallsTheBuiltins)
{
    const PythonScope scope{{"ProblemSize", PythonValue{std::vector<PythonValue>{{std::int64_t{4096}}, {std::int64_t{2048}}}}},
                            {"filter_width", PythonValue{std::vector<PythonValue>{{std::int64_t{3}}, {std::int64_t{15}}}}}};
    EXPECT_EQ(eval("(ProblemSize[0]+max(filter_width)-1) * (ProblemSize[1]+max(filter_width)-1)", scope),
              std::to_string((4096 + 14) * (2048 + 14)));
    EXPECT_EQ(eval("ProblemSize[-1]", scope), "2048");
    EXPECT_EQ(eval("min(4, 2, 8)"), "2");
    EXPECT_EQ(eval("max([15])"), "15");
    EXPECT_EQ(eval("max([3, 15, 7])"), "15");
    EXPECT_EQ(eval("len([1, 2, 3]) + sum([1, 2, 3])"), "9");
    EXPECT_EQ(eval("abs(-3) + int(2.7)"), "5");
}

TEST(PythonExpression, ErrorsAreOneLineNamingTheExpression)
{
    auto error = [](const std::string& text) {
        try {
            (void)evaluate_python(text, {}, "Values");
        } catch (const ExpressionError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_THAT(error("[1, 2"), AllOf(HasSubstr("Values: cannot parse '[1, 2'"), HasSubstr("expected ']'")));
    EXPECT_THAT(error("1 +* 2"), HasSubstr("cannot parse '1 +* 2'"));
    EXPECT_THAT(error("[x for x in range(3)] + y"), HasSubstr("unknown name 'y'"));
    EXPECT_THAT(error("1 // 0"), AllOf(HasSubstr("cannot evaluate '1 // 0'"), HasSubstr("division by zero")));
    EXPECT_THAT(error("[1][3]"), HasSubstr("out of range"));
    EXPECT_THAT(error("foo(1)"), HasSubstr("unknown function 'foo'"));
    EXPECT_THAT(error("list(5)"), HasSubstr("list() needs a list"));
    EXPECT_THAT(error("2 ** 64"), HasSubstr("overflow"));
    EXPECT_THAT(error("1 $ 2"), HasSubstr("unexpected '$'"));
    for (const auto& text : {"[1, 2", "1 // 0", "foo(1)"})
        EXPECT_EQ(error(text).find('\n'), std::string::npos) << text;

    EXPECT_THAT([] { (void)evaluate_python_integers("[1, 2.5]", {}, "Values"); },
                ::testing::ThrowsMessage<ExpressionError>(HasSubstr("2.5, which is not an integer")));
    EXPECT_THAT([] { (void)evaluate_python_integers("[1, 1]", {}, "Values"); },
                ::testing::ThrowsMessage<ExpressionError>(HasSubstr("lists 1 twice")));
    EXPECT_THAT([] { (void)evaluate_python_integers("[]", {}, "Values"); },
                ::testing::ThrowsMessage<ExpressionError>(HasSubstr("empty list")));
}

// Found by the expression fuzz target: "[...] * 9223337233333" ran for hours. Every loop an
// expression can start is bounded, each bound an error saying which; what Python computes within
// them is computed as before.
TEST(PythonExpression, EvaluationIsBoundedInWork)
{
    EXPECT_THAT(evaluation_error("[1] * 9223337233333"), HasSubstr("list * n is too long (over 10,000,000 values)"));
    EXPECT_EQ(eval("[] * 9223372036854775807"), "[]");
    EXPECT_EQ(eval("[1, 2] * -3"), "[]");
    // x ** n by squaring: counting n down took 2^63 steps for 1 ** (2**63 - 1).
    EXPECT_EQ(eval("1 ** 9223372036854775807"), "1");
    EXPECT_EQ(eval("(-1) ** 9223372036854775807"), "-1");
    EXPECT_EQ(eval("0 ** 9223372036854775807"), "0");
    EXPECT_EQ(eval("3 ** 39"), "4052555153018976267");
    EXPECT_EQ(eval("(-2) ** 63"), "-9223372036854775808");
    EXPECT_THAT(evaluation_error("2 ** 63"), HasSubstr("overflow"));
    EXPECT_THAT(evaluation_error("[1 for a in range(10000) for b in range(10000) if 0]"),
                HasSubstr("the comprehension runs over 10,000,000 iterations"));
    // A million Values are checked for repeats at once (a search per value took hours).
    EXPECT_EQ(evaluate_python_integers("[i for i in range(1000000)]", {}, "Values").size(), 1000000u);
}

// Integer arithmetic at the edges of 64 bits, each undefined in C++ before (UBSan): Python's
// answer where it fits, an overflow error where it does not.
TEST(PythonExpression, ArithmeticAtTheEdgesOfSixtyFourBitsIsDefined)
{
    EXPECT_THAT(evaluation_error("(-9223372036854775807 - 1) // -1"), HasSubstr("overflow"));
    EXPECT_EQ(eval("(-9223372036854775807 - 1) % -1"), "0");
    EXPECT_EQ(eval("7 // -1"), "-7");
    EXPECT_EQ(eval("-7 % -1"), "0");
    EXPECT_THAT(evaluation_error("abs(-9223372036854775807 - 1)"), HasSubstr("overflow"));
    EXPECT_EQ(eval("abs(-9223372036854775807)"), "9223372036854775807");
    EXPECT_THAT(evaluation_error("int(1e300)"), HasSubstr("int() of 1e+300 is beyond 64 bits"));
    EXPECT_THAT(evaluation_error("int(1e300 * 1e300)"), HasSubstr("beyond 64 bits"));
    EXPECT_EQ(eval("int(-9.2e18)"), "-9200000000000000000");
    // range() stops where the next value would pass 64 bits, as it passes any stop.
    EXPECT_EQ(eval("range(9223372036854775800, 9223372036854775807, 5)"), "[9223372036854775800, 9223372036854775805]");
    EXPECT_EQ(eval("range(-9223372036854775800, -9223372036854775807 - 1, -5)"),
              "[-9223372036854775800, -9223372036854775805]");
}

// The parser recursed on each parenthesis, bracket and unary operator, and every walk of the
// tree on each level: "((((...1))))" overflowed the stack. Both stop at 100 levels.
TEST(PythonExpression, NestingIsBoundedInDepth)
{
    auto nested = [](int levels, const std::string& open, const std::string& inner, const std::string& close) {
        std::string text;
        for (int i = 0; i < levels; ++i)
            text += open;
        text += inner;
        for (int i = 0; i < levels; ++i)
            text += close;
        return text;
    };
    EXPECT_EQ(eval(nested(90, "(", "1", ")")), "1");
    EXPECT_EQ(eval(nested(99, "1 + ", "1", "")), "100");
    for (const std::string& deep : {nested(2000, "(", "1", ")"), nested(4000, "-", "1", ""), nested(2000, "[", "", "]"),
                                    nested(500, "1 + ", "1", ""), nested(500, "not ", "1", ""),
                                    nested(500, "1 if 1 else ", "1", ""), nested(500, "2 ** ", "1", "")}) {
        EXPECT_THAT(evaluation_error(deep), HasSubstr("nested over 100 levels deep")) << deep.substr(0, 40);
        EXPECT_THAT([&] { (void)translate_python(deep, {}, "Values"); },
                    ::testing::ThrowsMessage<ExpressionError>(HasSubstr("nested over 100 levels deep")));
    }
}

// The translation is checked by evaluating both sides: Python here, muparser there.
TEST(PythonExpression, TranslatesIntoTheSpecExpressionLanguageWithTheSameValues)
{
    PythonTranslation names;
    names.variables = {"a", "b", "problem_size_x"};
    names.indexed["ProblemSize"] = {"problem_size_x"};
    names.constants["filter"] = PythonValue{std::vector<PythonValue>{{std::int64_t{3}}, {std::int64_t{15}}}};
    const std::vector<std::string> cases{
        "a*b>=64",
        "a // b + a % b",
        "-a // b",
        "a ** 2 - b",
        "1 <= a < b <= 64",
        "not (a > 4 and b > 4) or a == b",
        "a in [2, 8, 32]",
        "a not in [2, 8]",
        "a if a > b else b // 2",
        "max(a, b) - min(a, 3) + abs(a - b)",
        "(ProblemSize[0] + max(filter) - 1) // a",
        "a / 4 * 2",
        "a & (a - 1) == 0",               // & binds tighter than ==, as in Python
        "(a & (a - 1)) == 0",
        "a | b ^ 3 & 5",                  // |, ^, & in Python's order
        "(a << 2) + (b >> 1) - (-a >> 1)", // >> floors, as Python's
        "1 << a % 7 <= 64 * b",
        "~a + ~(-b)",
    };
    ExpressionScope scope({"a", "b", "problem_size_x"});
    for (const auto& text : cases)
        for (std::int64_t a : {1, 2, 8, 32, 48})
            for (std::int64_t b : {1, 3, 8, 64}) {
                PythonScope python = names.constants;
                python["a"] = PythonValue{a};
                python["b"] = PythonValue{b};
                python["problem_size_x"] = PythonValue{std::int64_t{1000}};
                python["ProblemSize"] = PythonValue{std::vector<PythonValue>{{std::int64_t{1000}}}};
                const PythonValue expected = evaluate_python(text, python, "t");
                const std::string translated = translate_python(text, names, "t");
                scope.set("a", static_cast<double>(a));
                scope.set("b", static_cast<double>(b));
                scope.set("problem_size_x", 1000);
                const double got = Expression(translated, "t", scope).evaluate();
                double want = 0;
                if (const auto* i = std::get_if<std::int64_t>(&expected.value)) want = static_cast<double>(*i);
                else if (const auto* d = std::get_if<double>(&expected.value)) want = *d;
                else want = std::get<bool>(expected.value) ? 1 : 0;
                EXPECT_DOUBLE_EQ(got, want) << text << " -> " << translated << " with a=" << a << " b=" << b;
            }
    EXPECT_EQ(translate_python("(ProblemSize[0]+max(filter)-1)", names, "t"), "((problem_size_x + 15) - 1)");
}

TEST(PythonExpression, TranslationRefusesWhatHasNoEquivalentInOneLine)
{
    PythonTranslation names;
    names.variables = {"a"};
    auto error = [&](const std::string& text) {
        try {
            (void)translate_python(text, names, "Conditions[0]");
        } catch (const ExpressionError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_THAT(error("a > c"), AllOf(HasSubstr("Conditions[0]: cannot translate 'a > c'"), HasSubstr("unknown name 'c'")));
    EXPECT_THAT(error("[a, 1]"), HasSubstr("list"));
    EXPECT_THAT(error("len([a])"), HasSubstr("len()"));
    EXPECT_THAT(error("a >"), HasSubstr("cannot parse"));
}

} // namespace
