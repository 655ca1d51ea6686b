// The report's one number formatter: three significant digits, never an exponent.
#include "emit/number_format.hpp"

#include <cmath>
#include <gtest/gtest.h>

using autotune::format_figure;

TEST(NumberFormat, ThreeSignificantDigitsInPlainDigitsBelowAMillion)
{
    EXPECT_EQ(format_figure(1099.5), "1100");
    EXPECT_EQ(format_figure(1365.3), "1370");
    EXPECT_EQ(format_figure(66900), "66900");
    EXPECT_EQ(format_figure(170.666), "171");
    EXPECT_EQ(format_figure(19.97), "20");
    EXPECT_EQ(format_figure(2.147483648), "2.15");
    EXPECT_EQ(format_figure(0.012345), "0.0123");
    EXPECT_EQ(format_figure(999.7), "1000");
    EXPECT_EQ(format_figure(-12.34), "-12.3");
    EXPECT_EQ(format_figure(0), "0");
}

TEST(NumberFormat, AnSiSuffixFromAMillionUp)
{
    EXPECT_EQ(format_figure(999999), "1M");
    EXPECT_EQ(format_figure(1.37e6), "1.37M");
    EXPECT_EQ(format_figure(1.1e12), "1.1T");
    EXPECT_EQ(format_figure(NAN), "–");
}
