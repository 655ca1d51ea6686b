#include "spec/expression.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

TEST(Expression, EvaluatesArithmeticWithTheScopeValuesAtEvaluationTime)
{
    ExpressionScope scope({"BM", "TM", "N"});
    const Expression threads("(BM / TM) * 32 + N % 7", "test", scope);
    scope.set("BM", 128);
    scope.set("TM", 8);
    scope.set("N", 100);
    EXPECT_EQ(threads.evaluate_integer(), 16 * 32 + 2);
    scope.set("BM", 64);
    EXPECT_EQ(threads.evaluate_integer(), 8 * 32 + 2);
}

TEST(Expression, HasCeilDivFloorDivAndPowerOfTwo)
{
    ExpressionScope scope({"N"});
    const Expression up("ceil_div(N, 64)", "t", scope);
    const Expression down("floor_div(N, 64)", "t", scope);
    const Expression pow2("is_power_of_two(N)", "t", scope);
    scope.set("N", 100);
    EXPECT_EQ(up.evaluate_integer(), 2);
    EXPECT_EQ(down.evaluate_integer(), 1);
    EXPECT_FALSE(pow2.evaluate_condition());
    scope.set("N", 128);
    EXPECT_EQ(up.evaluate_integer(), 2);
    EXPECT_TRUE(pow2.evaluate_condition());
}

// is_power_of_two converted any whole double to uint64, undefined from 2^64 on (UBSan: "1e+300
// is outside the range of representable values"). Powers of two stay powers of two up there.
TEST(Expression, PowerOfTwoAnswersBeyondSixtyFourBits)
{
    ExpressionScope scope({"N"});
    const Expression pow2("is_power_of_two(N)", "t", scope);
    for (const double n : {0x1p64, 0x1p100, 0x1p1000}) {
        scope.set("N", n);
        EXPECT_TRUE(pow2.evaluate_condition()) << n;
    }
    for (const double n : {1e300, 0x1p64 * 3, 0x1p63 * 3}) {
        scope.set("N", n);
        EXPECT_FALSE(pow2.evaluate_condition()) << n;
    }
    scope.set("N", 0x1p63);
    EXPECT_TRUE(pow2.evaluate_condition());
}

TEST(Expression, ConditionsUseComparisonAndLogic)
{
    ExpressionScope scope({"A", "B"});
    const Expression c("A % B == 0 && !(A < B) || A == 1", "t", scope);
    scope.set("A", 8);
    scope.set("B", 4);
    EXPECT_TRUE(c.evaluate_condition());
    scope.set("A", 6);
    EXPECT_FALSE(c.evaluate_condition());
    scope.set("A", 1);
    EXPECT_TRUE(c.evaluate_condition());
}

TEST(Expression, UnknownNameIsReportedWhenParsedWithTheOriginAndTheKnownNames)
{
    ExpressionScope scope({"BM", "BN"});
    try {
        Expression("BM * BX", "launch.grid[0]", scope);
        FAIL() << "an unknown name was accepted";
    } catch (const ExpressionError& e) {
        EXPECT_THAT(e.what(), HasSubstr("launch.grid[0]"));
        EXPECT_THAT(e.what(), HasSubstr("'BX'"));
        EXPECT_THAT(e.what(), HasSubstr("BM, BN"));
    }
}

TEST(Expression, SyntaxErrorNamesTheExpression)
{
    ExpressionScope scope({"A"});
    try {
        Expression("A * (2 +", "constraint x", scope);
        FAIL() << "a syntax error was accepted";
    } catch (const ExpressionError& e) {
        EXPECT_THAT(e.what(), HasSubstr("constraint x"));
        EXPECT_THAT(e.what(), HasSubstr("A * (2 +"));
    }
}

TEST(Expression, NonIntegerResultIsAnErrorThatSuggestsCeilDiv)
{
    ExpressionScope scope({"N"});
    const Expression e("N / 64", "launch.grid[0]", scope);
    scope.set("N", 100);
    EXPECT_EQ(e.evaluate(), 100.0 / 64.0);
    try {
        (void)e.evaluate_integer();
        FAIL() << "a fractional grid was accepted";
    } catch (const ExpressionError& error) {
        EXPECT_THAT(error.what(), HasSubstr("not an integer"));
        EXPECT_THAT(error.what(), HasSubstr("ceil_div"));
    }
}

TEST(Expression, DivisionByZeroIsAnErrorNotInfinity)
{
    ExpressionScope scope({"A", "B"});
    const Expression quotient("A / B", "t", scope);
    const Expression rounded("ceil_div(A, B)", "t", scope);
    const Expression remainder("A % B", "t", scope);
    scope.set("A", 4);
    scope.set("B", 0);
    EXPECT_THROW((void)quotient.evaluate(), ExpressionError);
    EXPECT_THROW((void)rounded.evaluate(), ExpressionError);
    EXPECT_THROW((void)remainder.evaluate(), ExpressionError);
}

TEST(ExpressionScope, RejectsInvalidAndDuplicateNames)
{
    EXPECT_THROW(ExpressionScope({"1X"}), ExpressionError);
    EXPECT_THROW(ExpressionScope({"A-B"}), ExpressionError);
    EXPECT_THROW(ExpressionScope({"N", "N"}), ExpressionError);
    EXPECT_TRUE(is_identifier("_block_2"));
    EXPECT_FALSE(is_identifier(""));
}

} // namespace
