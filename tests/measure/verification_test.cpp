#include "measure/verification.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

const std::vector<ElementType> all_types = {ElementType::f16, ElementType::bf16, ElementType::f32, ElementType::f64,
                                            ElementType::i8,  ElementType::i32,  ElementType::u32, ElementType::i64,
                                            ElementType::u8,  ElementType::i16,  ElementType::u16, ElementType::u64};

std::vector<std::byte> random_bytes(ElementType type, std::size_t n, std::uint64_t seed)
{
    std::vector<std::byte> bytes(n * element_size(type));
    fill_random_input(type, bytes, seed);
    return bytes;
}

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values)
{
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

template <class T>
void put(std::vector<std::byte>& bytes, std::size_t index, T value)
{
    std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

std::vector<double> values_of(ElementType type, const std::vector<std::byte>& bytes)
{
    std::vector<double> values;
    for (std::size_t i = 0; i < bytes.size() / element_size(type); ++i)
        values.push_back(element_value(type, bytes, i));
    return values;
}

double half(std::uint16_t bits) { return element_value(ElementType::f16, bytes_of(std::vector{bits}), 0); }
double bfloat(std::uint16_t bits) { return element_value(ElementType::bf16, bytes_of(std::vector{bits}), 0); }

// A NaN produced by arithmetic at run time, as a kernel would produce it.
float computed_nan()
{
    volatile float zero = 0.0f;
    return zero / zero;
}

} // namespace

TEST(ElementType, ParsesTheListedSpellings)
{
    EXPECT_EQ(parse_element_type("float"), ElementType::f32);
    EXPECT_EQ(parse_element_type("double"), ElementType::f64);
    EXPECT_EQ(parse_element_type("int"), ElementType::i32);
    EXPECT_EQ(parse_element_type("int32_t"), ElementType::i32);
    EXPECT_EQ(parse_element_type("unsigned"), ElementType::u32);
    EXPECT_EQ(parse_element_type("uint32_t"), ElementType::u32);
    EXPECT_EQ(parse_element_type("long long"), ElementType::i64);
    EXPECT_EQ(parse_element_type("int64_t"), ElementType::i64);
    EXPECT_EQ(parse_element_type("__half"), ElementType::f16);
    EXPECT_EQ(parse_element_type("half"), ElementType::f16);
    EXPECT_EQ(parse_element_type("__nv_bfloat16"), ElementType::bf16);
    EXPECT_EQ(parse_element_type("bfloat16"), ElementType::bf16);
    EXPECT_EQ(parse_element_type("signed char"), ElementType::i8);
    EXPECT_EQ(parse_element_type("int8_t"), ElementType::i8);
    EXPECT_EQ(parse_element_type("unsigned char"), ElementType::u8);
    EXPECT_EQ(parse_element_type("uint8_t"), ElementType::u8);
    EXPECT_EQ(parse_element_type("short"), ElementType::i16);
    EXPECT_EQ(parse_element_type("int16_t"), ElementType::i16);
    EXPECT_EQ(parse_element_type("unsigned short"), ElementType::u16);
    EXPECT_EQ(parse_element_type("uint16_t"), ElementType::u16);
    EXPECT_EQ(parse_element_type("unsigned long long"), ElementType::u64);
    EXPECT_EQ(parse_element_type("uint64_t"), ElementType::u64);
}

TEST(ElementType, ToStringRoundTripsAndSizesMatchTheCppTypes)
{
    for (const ElementType type : all_types)
        EXPECT_EQ(parse_element_type(to_string(type)), type) << to_string(type);
    EXPECT_EQ(to_string(ElementType::f32), "float");
    EXPECT_EQ(element_size(ElementType::f16), 2u);
    EXPECT_EQ(element_size(ElementType::bf16), 2u);
    EXPECT_EQ(element_size(ElementType::f32), sizeof(float));
    EXPECT_EQ(element_size(ElementType::f64), sizeof(double));
    EXPECT_EQ(element_size(ElementType::i8), 1u);
    EXPECT_EQ(element_size(ElementType::i32), sizeof(int));
    EXPECT_EQ(element_size(ElementType::u32), sizeof(unsigned));
    EXPECT_EQ(element_size(ElementType::i64), sizeof(long long));
    EXPECT_EQ(element_size(ElementType::u8), sizeof(unsigned char));
    EXPECT_EQ(element_size(ElementType::i16), sizeof(short));
    EXPECT_EQ(element_size(ElementType::u16), sizeof(unsigned short));
    EXPECT_EQ(element_size(ElementType::u64), sizeof(unsigned long long));
    EXPECT_TRUE(is_floating_point(ElementType::bf16));
    EXPECT_TRUE(is_floating_point(ElementType::f64));
    EXPECT_FALSE(is_floating_point(ElementType::i8));
    EXPECT_FALSE(is_floating_point(ElementType::u32));
}

TEST(ElementType, UnknownNameThrowsNamingItAndListingTheKnownOnes)
{
    try {
        (void)parse_element_type("float32");
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("float32"));
        EXPECT_THAT(e.what(), HasSubstr("__nv_bfloat16"));
        EXPECT_THAT(e.what(), HasSubstr("long long"));
    }
    EXPECT_THROW((void)parse_element_type("Float"), std::invalid_argument);
    EXPECT_THROW((void)parse_element_type(""), std::invalid_argument);
}

TEST(ElementType, HalfBitPatternsConvertToTheirValues)
{
    EXPECT_EQ(half(0x3C00), 1.0);
    EXPECT_EQ(half(0xC000), -2.0);
    EXPECT_EQ(half(0x7BFF), 65504.0);             // largest finite
    EXPECT_EQ(half(0x0400), std::ldexp(1.0, -14)); // smallest normal
    EXPECT_EQ(half(0x0001), std::ldexp(1.0, -24)); // smallest subnormal
    EXPECT_EQ(half(0x03FF), std::ldexp(1023.0, -24));
    EXPECT_EQ(half(0x3555), 0.333251953125);
    EXPECT_EQ(half(0x7C00), std::numeric_limits<double>::infinity());
    EXPECT_EQ(half(0xFC00), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(half(0x7E00)));
    EXPECT_TRUE(std::isnan(half(0x7C01))); // signalling NaN, not inf
    EXPECT_EQ(half(0x8000), 0.0);
    EXPECT_TRUE(std::signbit(half(0x8000)));
}

TEST(ElementType, Bfloat16BitPatternsConvertToTheirValues)
{
    EXPECT_EQ(bfloat(0x3F80), 1.0);
    EXPECT_EQ(bfloat(0xC000), -2.0);
    EXPECT_EQ(bfloat(0x4049), 3.140625);
    EXPECT_EQ(bfloat(0x7F7F), 0x1.FEp127); // largest finite
    EXPECT_EQ(bfloat(0x0001), std::ldexp(1.0, -133)); // smallest subnormal
    EXPECT_EQ(bfloat(0x7F80), std::numeric_limits<double>::infinity());
    EXPECT_EQ(bfloat(0xFF80), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(bfloat(0x7FC0)));
}

TEST(ElementType, ElementValueReadsSignedAndUnsignedIntegers)
{
    const auto i8 = bytes_of(std::vector<std::int8_t>{-128, 127});
    EXPECT_EQ(element_value(ElementType::i8, i8, 0), -128.0);
    EXPECT_EQ(element_value(ElementType::i8, i8, 1), 127.0);
    const auto u32 = bytes_of(std::vector<std::uint32_t>{0xFFFFFFFFu});
    EXPECT_EQ(element_value(ElementType::u32, u32, 0), 4294967295.0);
    EXPECT_EQ(element_value(ElementType::i32, u32, 0), -1.0);
    EXPECT_THROW((void)element_value(ElementType::u32, u32, 1), std::out_of_range);
    const auto u8 = bytes_of(std::vector<std::uint8_t>{255});
    EXPECT_EQ(element_value(ElementType::u8, u8, 0), 255.0);
    EXPECT_EQ(element_value(ElementType::i8, u8, 0), -1.0);
    const auto u16 = bytes_of(std::vector<std::uint16_t>{0xFFFF});
    EXPECT_EQ(element_value(ElementType::u16, u16, 0), 65535.0);
    EXPECT_EQ(element_value(ElementType::i16, u16, 0), -1.0);
    const auto u64 = bytes_of(std::vector<std::uint64_t>{std::uint64_t{1} << 60});
    EXPECT_EQ(element_value(ElementType::u64, u64, 0), std::ldexp(1.0, 60));
}

TEST(Inputs, AreReproducibleFromTheSeedAndDifferAcrossSeeds)
{
    for (const ElementType type : all_types) {
        SCOPED_TRACE(to_string(type));
        EXPECT_EQ(random_bytes(type, 1000, 42), random_bytes(type, 1000, 42));
        EXPECT_NE(random_bytes(type, 1000, 42), random_bytes(type, 1000, 43));
    }
}

TEST(Inputs, AreNeverZeroNorPoisonAndStayInRange)
{
    for (const ElementType type : all_types) {
        SCOPED_TRACE(to_string(type));
        const std::size_t size = element_size(type);
        const auto bytes = random_bytes(type, 20000, 7);
        for (std::size_t i = 0; i < 20000; ++i) {
            const double v = element_value(type, bytes, i);
            ASSERT_NE(v, 0.0) << i;
            ASSERT_FALSE(is_poison(type, bytes.data() + i * size)) << i;
            ASSERT_TRUE(std::isfinite(v)) << i;
            if (is_floating_point(type)) {
                ASSERT_LE(std::abs(v), 1.0) << i;
            }
        }
    }
    // i64 stays where doubles are exact, so a reference can tell neighbours apart.
    for (const double v : values_of(ElementType::i64, random_bytes(ElementType::i64, 1000, 3)))
        ASSERT_LT(std::abs(v), 0x1p53);
}

TEST(Inputs, FloatsSpreadOverMinusOneToOne)
{
    for (const ElementType type : {ElementType::f16, ElementType::bf16, ElementType::f32, ElementType::f64}) {
        SCOPED_TRACE(to_string(type));
        const auto values = values_of(type, random_bytes(type, 10000, 11));
        double lo = 1, hi = -1, sum = 0;
        for (const double v : values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            sum += v;
        }
        EXPECT_LT(lo, -0.99);
        EXPECT_GT(hi, 0.99);
        EXPECT_NEAR(sum / values.size(), 0.0, 0.03); // symmetric
        EXPECT_GT(std::set<double>(values.begin(), values.end()).size(), 400u);
    }
}

TEST(Inputs, AreNeverConstantEvenForTwoElementsOfANarrowType)
{
    // Two i8 elements agree by chance once in ~250 seeds; none of these may come out equal.
    for (std::uint64_t seed = 0; seed < 2000; ++seed) {
        const auto bytes = random_bytes(ElementType::i8, 2, seed);
        ASSERT_NE(bytes[0], bytes[1]) << "seed " << seed;
        const auto bf = random_bytes(ElementType::bf16, 2, seed);
        ASSERT_NE(element_value(ElementType::bf16, bf, 0), element_value(ElementType::bf16, bf, 1)) << "seed " << seed;
    }
}

// A T1 file's Constant fill of an input: every element the value, the nearest one a
// floating-point type holds; what a type cannot hold is refused, saying why.
TEST(Inputs, AConstantFillIsTheValueOrRefusedSayingWhy)
{
    const auto filled = [](ElementType type, double value) {
        std::vector<std::byte> bytes(3 * element_size(type));
        fill_constant_input(type, bytes, value);
        return values_of(type, bytes);
    };
    EXPECT_EQ(filled(ElementType::f32, 2.5), (std::vector<double>{2.5, 2.5, 2.5}));
    EXPECT_EQ(filled(ElementType::f32, 0.1), std::vector<double>(3, static_cast<double>(0.1f)));
    EXPECT_EQ(filled(ElementType::f64, -1e300), std::vector<double>(3, -1e300));
    EXPECT_EQ(filled(ElementType::f16, 1.0 / 3), std::vector<double>(3, 0.333251953125)); // 0x3555
    EXPECT_EQ(filled(ElementType::f16, 65504), std::vector<double>(3, 65504));
    EXPECT_EQ(filled(ElementType::bf16, 1e6), std::vector<double>(3, 999424)); // 8 significand bits
    EXPECT_EQ(filled(ElementType::i32, -7), std::vector<double>(3, -7));
    EXPECT_EQ(filled(ElementType::u32, 4294967295.0), std::vector<double>(3, 4294967295.0));
    EXPECT_EQ(filled(ElementType::i64, -0x1p63), std::vector<double>(3, -0x1p63));
    EXPECT_EQ(filled(ElementType::i8, -128), std::vector<double>(3, -128));
    EXPECT_EQ(filled(ElementType::u8, 255), std::vector<double>(3, 255));
    EXPECT_EQ(filled(ElementType::i16, -32768), std::vector<double>(3, -32768));
    EXPECT_EQ(filled(ElementType::u16, 65535), std::vector<double>(3, 65535));
    EXPECT_EQ(filled(ElementType::u64, 0x1p60), std::vector<double>(3, 0x1p60));

    const auto why = [](ElementType type, double value) {
        try {
            check_constant_input(type, value);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(why(ElementType::i32, 2.5), "2.5 does not fit a buffer of int: not a whole number");
    EXPECT_THAT(why(ElementType::i8, 128), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u32, -1), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u32, 4294967296.0), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::i64, 0x1p63), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u8, 256), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u8, -1), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::i16, 32768), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u16, 65536), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u64, -1), HasSubstr("beyond the type's range"));
    EXPECT_THAT(why(ElementType::u16, 0xDEAD), HasSubstr("marks an output element never written"));
    EXPECT_THAT(why(ElementType::i32, static_cast<double>(static_cast<std::int32_t>(0xDEADBEEF))),
                HasSubstr("marks an output element never written"));
    EXPECT_THAT(why(ElementType::f32, 1e40), HasSubstr("1e+40 does not fit a buffer of float: beyond the type's range"));
    EXPECT_THAT(why(ElementType::f16, 70000), HasSubstr("beyond the type's range (largest 65504)"));
    EXPECT_THAT(why(ElementType::f64, std::numeric_limits<double>::quiet_NaN()), HasSubstr("not a finite number"));
    EXPECT_EQ(why(ElementType::bf16, 3e38), "accepted");
    std::vector<std::byte> bytes(8);
    EXPECT_THROW(fill_constant_input(ElementType::i32, bytes, 0.5), std::invalid_argument);
}

// A T1 file's Generator fill: element i is the expression's value at i, checked as a
// Constant fill's value is, the element that does not fit named.
TEST(Inputs, AGeneratedFillIsTheExpressionOfEachIndexOrRefusedNamingTheElement)
{
    const auto filled = [](ElementType type, const std::string& expression) {
        std::vector<std::byte> bytes(4 * element_size(type));
        fill_generated_input(type, bytes, expression);
        return values_of(type, bytes);
    };
    EXPECT_EQ(filled(ElementType::f32, "i"), (std::vector<double>{0, 1, 2, 3}));
    EXPECT_EQ(filled(ElementType::f64, "i * 0.5 + 1"), (std::vector<double>{1, 1.5, 2, 2.5}));
    EXPECT_EQ(filled(ElementType::i32, "i - 2"), (std::vector<double>{-2, -1, 0, 1}));
    const auto why = [](ElementType type, const std::string& expression) {
        std::vector<std::byte> bytes(4 * element_size(type));
        try {
            fill_generated_input(type, bytes, expression);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(why(ElementType::i32, "i / 2"), "element 1: 0.5 does not fit a buffer of int: not a whole number");
    EXPECT_THAT(why(ElementType::i8, "i * 60"), HasSubstr("element 3: 180 does not fit a buffer of signed char"));
    EXPECT_THAT(why(ElementType::f32, "1 / i"), HasSubstr("element 0: "));
}

TEST(Inputs, IntegersCoverTheirRange)
{
    const auto values = values_of(ElementType::i32, random_bytes(ElementType::i32, 10000, 5));
    EXPECT_LT(*std::ranges::min_element(values), -1.5e9);
    EXPECT_GT(*std::ranges::max_element(values), 1.5e9);
    const auto u = values_of(ElementType::u32, random_bytes(ElementType::u32, 10000, 5));
    EXPECT_GT(*std::ranges::max_element(u), 3.5e9);
}

// A T1 file's Random FillValue: the upper end of the range (KTT's [0, FillValue), no zeros).
TEST(Inputs, AnUpperBoundGivesPositiveValuesUpToIt)
{
    for (const ElementType type : {ElementType::f32, ElementType::f64}) {
        for (const double upper : {1.0, 0.25, 1000.0}) {
            SCOPED_TRACE(to_string(type) + " up to " + std::to_string(upper));
            std::vector<std::byte> bytes(10000 * element_size(type));
            fill_random_input(type, bytes, 9, upper);
            const auto values = values_of(type, bytes);
            EXPECT_GT(*std::ranges::min_element(values), 0.0);
            EXPECT_LE(*std::ranges::max_element(values), upper);
            EXPECT_GT(*std::ranges::max_element(values), 0.99 * upper); // the whole range, not a corner
            EXPECT_LT(*std::ranges::min_element(values), 0.01 * upper);
            EXPECT_GT(std::set<double>(values.begin(), values.end()).size(), 9000u);
            std::vector<std::byte> again(bytes.size());
            fill_random_input(type, again, 9, upper);
            EXPECT_EQ(again, bytes);
        }
    }
    std::vector<std::byte> ints(16 * element_size(ElementType::i32));
    EXPECT_THROW(fill_random_input(ElementType::i32, ints, 1, 10.0), std::invalid_argument);
}

TEST(Poison, IsRecognisedForEveryTypeAndIsANaNForFloats)
{
    for (const ElementType type : all_types) {
        SCOPED_TRACE(to_string(type));
        std::vector<std::byte> bytes(5 * element_size(type));
        fill_poison(type, bytes);
        for (std::size_t i = 0; i < 5; ++i)
            EXPECT_TRUE(is_poison(type, bytes.data() + i * element_size(type)));
        if (is_floating_point(type)) {
            EXPECT_TRUE(std::isnan(element_value(type, bytes, 2)));
        }
    }
    std::vector<std::byte> i32(4);
    fill_poison(ElementType::i32, i32);
    EXPECT_EQ(element_value(ElementType::u32, i32, 0), 0xDEADBEEF);
}

TEST(Poison, IsDistinctFromNaNsThatArithmeticProduces)
{
    const float nan = computed_nan();
    ASSERT_TRUE(std::isnan(nan));
    EXPECT_FALSE(is_poison(ElementType::f32, bytes_of(std::vector{nan}).data()));
    EXPECT_FALSE(is_poison(ElementType::f32, bytes_of(std::vector{-nan}).data()));
    EXPECT_FALSE(is_poison(ElementType::f32, bytes_of(std::vector{std::numeric_limits<float>::quiet_NaN()}).data()));
    const double dnan = static_cast<double>(nan);
    EXPECT_FALSE(is_poison(ElementType::f64, bytes_of(std::vector{dnan}).data()));
    EXPECT_FALSE(is_poison(ElementType::f64, bytes_of(std::vector{std::numeric_limits<double>::quiet_NaN()}).data()));
    // The canonical NaNs CUDA's conversions produce for f16 and bf16.
    for (const std::uint16_t bits : {0x7E00, 0xFE00, 0x7FFF})
        EXPECT_FALSE(is_poison(ElementType::f16, bytes_of(std::vector{bits}).data()));
    for (const std::uint16_t bits : {0x7FC0, 0xFFC0, 0x7FFF})
        EXPECT_FALSE(is_poison(ElementType::bf16, bytes_of(std::vector{bits}).data()));
    EXPECT_FALSE(is_poison(ElementType::i32, bytes_of(std::vector<std::int32_t>{-1}).data()));
}

TEST(Verification, CorrectOutputPasses)
{
    const auto input = random_bytes(ElementType::f32, 4096, 1);
    ReferenceValues reference{{}, values_of(ElementType::f32, input)};
    const auto result = verify_output(ElementType::f32, input, reference, default_tolerance(ElementType::f32, Tolerance::Kind::elementwise));
    EXPECT_TRUE(result.ok) << result.problem;
    EXPECT_EQ(result.problem, "");
    EXPECT_EQ(result.checked, 4096u);
    EXPECT_EQ(result.error, 0.0);
}

TEST(Verification, UnwrittenElementFailsNamingItsIndex)
{
    const auto input = random_bytes(ElementType::f32, 4096, 1);
    std::vector<std::byte> output(input.size());
    fill_poison(ElementType::f32, output);
    std::memcpy(output.data(), input.data(), 1234 * 4);
    std::memcpy(output.data() + 1235 * 4, input.data() + 1235 * 4, (4096 - 1235) * 4);
    // Only a few elements are compared, none of them 1234: the scan still finds it.
    const ReferenceValues reference{{0, 4095}, {element_value(ElementType::f32, input, 0), element_value(ElementType::f32, input, 4095)}};
    const auto result = verify_output(ElementType::f32, output, reference, {});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.problem, "element 1234 was never written (still poisoned)");
}

TEST(Verification, UnwrittenIntegerElementFailsNamingItsIndex)
{
    std::vector<std::byte> output(100 * 8);
    fill_poison(ElementType::i64, output);
    for (std::size_t i = 0; i < 99; ++i)
        put<std::int64_t>(output, i, 5);
    const auto result = verify_output(ElementType::i64, output, {{}, std::vector<double>(100, 5.0)}, {});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.problem, "element 99 was never written (still poisoned)");
}

TEST(Verification, ComputedNaNIsReportedAsNaNNotAsUnwritten)
{
    std::vector<float> values(16, 0.5f);
    values[7] = computed_nan();
    const auto result = verify_output(ElementType::f32, bytes_of(values), {{}, std::vector<double>(16, 0.5)}, {});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.problem, "element 7 is NaN");
}

TEST(Verification, InfinityFails)
{
    std::vector<double> values(16, 0.5);
    values[3] = -std::numeric_limits<double>::infinity();
    const auto result = verify_output(ElementType::f64, bytes_of(values), {{}, std::vector<double>(16, 0.5)}, {});
    EXPECT_FALSE(result.ok);
    EXPECT_THAT(result.problem, HasSubstr("element 3 is infinite"));
}

TEST(Verification, FirstBadElementIsReported)
{
    std::vector<float> values(16, 0.5f);
    values[9] = computed_nan();
    auto bytes = bytes_of(values);
    fill_poison(ElementType::f32, std::span(bytes).subspan(12 * 4, 4));
    fill_poison(ElementType::f32, std::span(bytes).subspan(4 * 4, 4));
    const auto result = verify_output(ElementType::f32, bytes, {{}, std::vector<double>(16, 0.5)}, {});
    EXPECT_EQ(result.problem, "element 4 was never written (still poisoned)");
}

TEST(Verification, ElementwiseErrorJustInsideTolerancePassesAndJustOutsideFails)
{
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::elementwise);
    ASSERT_EQ(tolerance.relative, 1e-5);
    const ReferenceValues reference{{}, {2.0, -4.0, 1.0, 8.0}};
    const auto verify = [&](float scale) {
        return verify_output(ElementType::f32, bytes_of(std::vector<float>{2.0f, -4.0f * scale, 1.0f, 8.0f}), reference, tolerance);
    };
    const auto inside = verify(1.0f + 0.9e-5f);
    EXPECT_TRUE(inside.ok) << inside.problem;
    EXPECT_NEAR(inside.error, 0.9e-5, 1e-7);
    EXPECT_EQ(inside.checked, 4u);

    const auto outside = verify(1.0f + 1.1e-5f);
    EXPECT_FALSE(outside.ok);
    EXPECT_NEAR(outside.error, 1.1e-5, 1e-7);
    EXPECT_THAT(outside.problem, HasSubstr("element 1:"));
    EXPECT_THAT(outside.problem, HasSubstr("expected -4"));
    EXPECT_THAT(outside.problem, HasSubstr("1 of 4 checked"));
}

TEST(Verification, ElementwiseAbsoluteTermCoversZeroReferences)
{
    const auto output = bytes_of(std::vector<double>{1e-7, 3.0});
    const ReferenceValues reference{{}, {0.0, 3.0}};
    EXPECT_TRUE(verify_output(ElementType::f64, output, reference, {Tolerance::Kind::elementwise, 1e-12, 2e-7}).ok);
    EXPECT_FALSE(verify_output(ElementType::f64, output, reference, {Tolerance::Kind::elementwise, 1e-12, 0.5e-7}).ok);
}

TEST(Verification, ElementwiseNamesTheWorstFailingElement)
{
    const auto output = bytes_of(std::vector<double>{1.1, 2.0, 3.9, 4.2});
    const auto result = verify_output(ElementType::f64, output, {{}, {1.0, 2.0, 3.0, 4.0}}, {Tolerance::Kind::elementwise, 0.01, 0});
    EXPECT_FALSE(result.ok);
    EXPECT_THAT(result.problem, HasSubstr("element 2: got 3.9, expected 3"));
    EXPECT_THAT(result.problem, HasSubstr("3 of 4 checked"));
    EXPECT_NEAR(result.error, 0.3, 1e-12);
}

TEST(Verification, NormwiseErrorJustInsideTolerancePassesAndJustOutsideFails)
{
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::normwise);
    ASSERT_EQ(tolerance.relative, 1e-4);
    // ‖ref‖ = 5, so a difference d on one element is a norm-wise error of d / 5.
    const ReferenceValues reference{{}, {3.0, 4.0}};
    const auto verify = [&](double d) {
        return verify_output(ElementType::f64, bytes_of(std::vector<double>{3.0 + d, 4.0}), reference, tolerance);
    };
    const auto inside = verify(5 * 0.99e-4);
    EXPECT_TRUE(inside.ok) << inside.problem;
    EXPECT_NEAR(inside.error, 0.99e-4, 1e-12);
    const auto outside = verify(5 * 1.01e-4);
    EXPECT_FALSE(outside.ok);
    EXPECT_NEAR(outside.error, 1.01e-4, 1e-12);
    EXPECT_THAT(outside.problem, HasSubstr("norm-wise relative error"));
    EXPECT_THAT(outside.problem, HasSubstr("element 0"));

    // Many small errors that each pass elementwise add up in the norm.
    std::vector<double> got(100, 1.0), expected(100, 1.0);
    for (auto& g : got)
        g += 2e-4;
    EXPECT_FALSE(verify_output(ElementType::f64, bytes_of(got), {{}, expected}, {Tolerance::Kind::normwise, 1e-4, 0}).ok);
    EXPECT_TRUE(verify_output(ElementType::f64, bytes_of(got), {{}, expected}, {Tolerance::Kind::normwise, 3e-4, 0}).ok);
}

TEST(Verification, NormwiseAgainstAZeroReferenceUsesTheAbsoluteNorm)
{
    const auto output = bytes_of(std::vector<double>{3e-4, 4e-4});
    const ReferenceValues reference{{}, {0.0, 0.0}};
    const auto inside = verify_output(ElementType::f64, output, reference, {Tolerance::Kind::normwise, 1e-4, 5.1e-4});
    EXPECT_TRUE(inside.ok) << inside.problem;
    EXPECT_NEAR(inside.error, 5e-4, 1e-15);
    const auto outside = verify_output(ElementType::f64, output, reference, {Tolerance::Kind::normwise, 1e-4, 4.9e-4});
    EXPECT_FALSE(outside.ok);
    EXPECT_THAT(outside.problem, HasSubstr("absolute"));
}

TEST(Verification, NormwiseOnlyCountsTheReferencesElements)
{
    // Element 1 is wrong but not in the reference: a sample cannot see it.
    const auto output = bytes_of(std::vector<float>{1.0f, 99.0f, 3.0f});
    const auto result = verify_output(ElementType::f32, output, {{0, 2}, {1.0, 3.0}}, default_tolerance(ElementType::f32, Tolerance::Kind::normwise));
    EXPECT_TRUE(result.ok);
    EXPECT_EQ(result.checked, 2u);
}

TEST(Verification, ReferenceScalesStandInForTheReferenceMagnitude)
{
    // A sum that cancelled to 0.5 from terms of total magnitude 1000: an error of 1e-3 is
    // 2e-3 of the value, yet 1e-6 of the scale a summation error grows with.
    const auto output = bytes_of(std::vector<double>{0.501});
    const Tolerance tolerance{Tolerance::Kind::elementwise, 2e-6, 0};
    EXPECT_FALSE(verify_output(ElementType::f64, output, {{}, {0.5}}, tolerance).ok);
    const auto scaled = verify_output(ElementType::f64, output, {{}, {0.5}, {1000.0}}, tolerance);
    EXPECT_TRUE(scaled.ok) << scaled.problem;
    EXPECT_NEAR(scaled.error, 1e-6, 1e-12);

    const auto outside = verify_output(ElementType::f64, output, {{}, {0.5}, {1000.0}}, {Tolerance::Kind::elementwise, 0.5e-6, 0});
    EXPECT_FALSE(outside.ok);
    EXPECT_THAT(outside.problem, HasSubstr("of the reference's scale"));

    // Norm-wise, the scales' norm replaces the reference's.
    EXPECT_TRUE(verify_output(ElementType::f64, output, {{}, {0.5}, {1000.0}}, {Tolerance::Kind::normwise, 2e-6, 0}).ok);
    EXPECT_FALSE(verify_output(ElementType::f64, output, {{}, {0.5}}, {Tolerance::Kind::normwise, 2e-6, 0}).ok);
}

TEST(Verification, ScalesMustMatchTheValues)
{
    const auto output = bytes_of(std::vector<float>{1, 2});
    try {
        (void)verify_output(ElementType::f32, output, {{}, {1.0, 2.0}, {1.0}}, {});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("1 scales for 2 values"));
    }
}

TEST(Verification, IntegersMustMatchExactly)
{
    const Tolerance exact = default_tolerance(ElementType::i32, Tolerance::Kind::elementwise);
    EXPECT_EQ(exact.relative, 0.0);
    EXPECT_EQ(exact.absolute, 0.0);
    const std::vector<std::int32_t> values{100000000, -7, 42};
    EXPECT_TRUE(verify_output(ElementType::i32, bytes_of(values), {{}, {100000000, -7, 42}}, exact).ok);
    const auto off = verify_output(ElementType::i32, bytes_of(values), {{}, {100000001, -7, 42}}, exact);
    EXPECT_FALSE(off.ok);
    EXPECT_THAT(off.problem, HasSubstr("element 0: got 100000000, expected 100000001"));

    // Off by one at the top of the i64 input range is still visible through doubles.
    const std::int64_t big = (std::int64_t{1} << 53) - 1;
    EXPECT_FALSE(verify_output(ElementType::i64, bytes_of(std::vector<std::int64_t>{big - 1}), {{}, {static_cast<double>(big)}},
                               default_tolerance(ElementType::i64, Tolerance::Kind::normwise))
                     .ok);
    EXPECT_FALSE(verify_output(ElementType::u32, bytes_of(std::vector<std::uint32_t>{4000000001u}), {{}, {4000000000.0}}, exact).ok);
}

TEST(Verification, DefaultTolerancesFollowTheDesign)
{
    using K = Tolerance::Kind;
    EXPECT_EQ(default_tolerance(ElementType::f32, K::elementwise).relative, 1e-5);
    EXPECT_EQ(default_tolerance(ElementType::f32, K::normwise).relative, 1e-4);
    EXPECT_EQ(default_tolerance(ElementType::f32, K::normwise).kind, K::normwise);
    EXPECT_EQ(default_tolerance(ElementType::f64, K::elementwise).relative, 1e-12);
    EXPECT_EQ(default_tolerance(ElementType::f64, K::normwise).relative, 1e-10);
    EXPECT_EQ(default_tolerance(ElementType::f16, K::elementwise).relative, 1e-2);
    EXPECT_EQ(default_tolerance(ElementType::bf16, K::normwise).relative, 1e-2);
    for (const ElementType type : {ElementType::i8, ElementType::i32, ElementType::u32, ElementType::i64})
        EXPECT_EQ(default_tolerance(type, K::elementwise).relative, 0.0);
}

TEST(Verification, HalfPrecisionUsesTheLooserTolerance)
{
    // 1.0 and the next f16 below it (1 − 2^-11): 4.9e-4 apart, inside 1e-2.
    const auto output = bytes_of(std::vector<std::uint16_t>{0x3BFF, 0x4000});
    const auto tolerance = default_tolerance(ElementType::f16, Tolerance::Kind::elementwise);
    EXPECT_TRUE(verify_output(ElementType::f16, output, {{}, {1.0, 2.0}}, tolerance).ok);
    EXPECT_FALSE(verify_output(ElementType::f16, output, {{}, {1.0, 2.1}}, tolerance).ok);
}

TEST(Verification, WithoutReferenceValuesOnlyTheScanApplies)
{
    const auto output = random_bytes(ElementType::f32, 64, 1);
    const auto result = verify_output(ElementType::f32, output, {}, {});
    EXPECT_TRUE(result.ok) << result.problem;
    EXPECT_EQ(result.checked, 0u);
    auto poisoned = output;
    fill_poison(ElementType::f32, std::span(poisoned).subspan(10 * 4, 4));
    EXPECT_EQ(verify_output(ElementType::f32, poisoned, {}, {}).problem, "element 10 was never written (still poisoned)");
}

TEST(Verification, MalformedArgumentsThrow)
{
    const std::vector<std::byte> seven(7);
    try {
        (void)verify_output(ElementType::f32, seven, {}, {});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("7 bytes"));
    }
    const auto four = bytes_of(std::vector<float>{1, 2, 3, 4});
    try {
        (void)verify_output(ElementType::f32, four, {{1, 4}, {2.0, 5.0}}, {});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("index 4"));
    }
    EXPECT_THROW((void)verify_output(ElementType::f32, four, {{1, 2}, {2.0}}, {}), std::invalid_argument);
    EXPECT_THROW((void)verify_output(ElementType::f32, four, {{}, {1.0, 2.0}}, {}), std::invalid_argument);
}
