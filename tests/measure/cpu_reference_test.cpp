#include "measure/cpu_reference.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <set>
#include <stdexcept>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

HostBuffer floats(std::initializer_list<float> values)
{
    HostBuffer buffer{ElementType::f32, std::vector<std::byte>(values.size() * sizeof(float))};
    std::memcpy(buffer.bytes.data(), std::data(values), buffer.bytes.size());
    return buffer;
}

HostBuffer random_buffer(ElementType type, std::size_t n, std::uint64_t seed)
{
    HostBuffer buffer{type, std::vector<std::byte>(n * element_size(type))};
    fill_random_input(type, buffer.bytes, seed);
    return buffer;
}

float at(const HostBuffer& buffer, std::size_t index)
{
    float v;
    std::memcpy(&v, buffer.bytes.data() + index * sizeof v, sizeof v);
    return v;
}

// A GEMM problem with random inputs and the requests for its reference.
struct Gemm {
    std::size_t m, n, k;
    HostBuffer a = random_buffer(ElementType::f32, m * k, 1);
    HostBuffer b = random_buffer(ElementType::f32, k * n, 2);

    ReferenceRequest request(std::size_t max_samples, std::uint64_t seed = 1) const
    {
        return {"gemm", {{"A", &a}, {"B", &b}}, {{"M", m}, {"N", n}, {"K", k}}, "C", max_samples, seed};
    }
    // The whole product, in float as a kernel would compute it.
    HostBuffer product() const
    {
        HostBuffer c{ElementType::f32, std::vector<std::byte>(m * n * sizeof(float))};
        fill_poison(ElementType::f32, c.bytes); // every element must be written below
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                float sum = 0;
                for (std::size_t l = 0; l < k; ++l)
                    sum += at(a, i * k + l) * at(b, l * n + j);
                std::memcpy(c.bytes.data() + (i * n + j) * sizeof sum, &sum, sizeof sum);
            }
        return c;
    }
};

void expect_invalid(const std::function<void()>& f, std::initializer_list<const char*> parts)
{
    try {
        f();
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        for (const char* part : parts)
            EXPECT_THAT(e.what(), HasSubstr(part));
    }
}

} // namespace

TEST(CpuReference, NamesAreCopyAndGemm)
{
    EXPECT_EQ(cpu_reference_names(), (std::vector<std::string>{"copy", "gemm"}));
}

TEST(CpuReference, GemmOfASmallProblemEqualsTheHandComputation)
{
    // A (3×2) = [1 2; 3 4; 5 6], B (2×4) = [1 0 -1 2; 0.5 1 2 -3].
    const HostBuffer a = floats({1, 2, 3, 4, 5, 6});
    const HostBuffer b = floats({1, 0, -1, 2, 0.5f, 1, 2, -3});
    const ReferenceValues reference =
        cpu_reference({"gemm", {{"A", &a}, {"B", &b}}, {{"M", 3}, {"N", 4}, {"K", 2}}, "C", 4096, 1});
    // All 12 elements fit the budget, so all are there, in order.
    ASSERT_EQ(reference.indices.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(reference.indices[i], i);
    EXPECT_EQ(reference.values, (std::vector<double>{2, 2, 3, -4, 5, 4, 5, -6, 8, 6, 7, -8}));
}

TEST(CpuReference, GemmSampleHasTheBudgetTheCornersAndTheEdges)
{
    const Gemm gemm{100, 80, 3};
    const ReferenceValues reference = cpu_reference(gemm.request(64));
    ASSERT_EQ(reference.indices.size(), 64u);
    ASSERT_EQ(reference.values.size(), 64u);
    EXPECT_TRUE(std::ranges::is_sorted(reference.indices));
    EXPECT_EQ(std::set(reference.indices.begin(), reference.indices.end()).size(), 64u); // distinct
    EXPECT_LT(reference.indices.back(), 100u * 80);
    const std::set<std::size_t> chosen(reference.indices.begin(), reference.indices.end());
    for (const std::size_t corner : {0u, 79u, 99u * 80, 100u * 80 - 1})
        EXPECT_TRUE(chosen.contains(corner)) << corner;
    const auto on_edge = std::ranges::count_if(reference.indices, [](std::size_t i) { return i / 80 == 99 || i % 80 == 79; });
    EXPECT_GE(on_edge, 16); // a quarter of the budget, where tail bugs live
    EXPECT_LT(on_edge, 64); // and the rest spread over the matrix

    // Each sampled value is the double-precision dot product of its row and column.
    for (std::size_t s = 0; s < reference.indices.size(); ++s) {
        const std::size_t i = reference.indices[s] / 80, j = reference.indices[s] % 80;
        double sum = 0;
        for (std::size_t l = 0; l < 3; ++l)
            sum += double(at(gemm.a, i * 3 + l)) * double(at(gemm.b, l * 80 + j));
        EXPECT_DOUBLE_EQ(reference.values[s], sum);
    }
}

TEST(CpuReference, GemmSampleIsReproducibleFromTheSeed)
{
    const Gemm gemm{50, 60, 4};
    const ReferenceValues first = cpu_reference(gemm.request(100, 9));
    const ReferenceValues again = cpu_reference(gemm.request(100, 9));
    const ReferenceValues other = cpu_reference(gemm.request(100, 10));
    EXPECT_EQ(first.indices, again.indices);
    EXPECT_EQ(first.values, again.values);
    EXPECT_NE(first.indices, other.indices);
}

TEST(CpuReference, GemmSampleJustUnderTheWholeMatrixStillTerminatesDistinct)
{
    const Gemm gemm{9, 7, 2};
    const ReferenceValues reference = cpu_reference(gemm.request(62)); // 63 elements
    EXPECT_EQ(std::set(reference.indices.begin(), reference.indices.end()).size(), 62u);
}

TEST(CpuReference, GemmReferenceVerifiesACorrectProductAndCatchesAWrongSampledElement)
{
    const Gemm gemm{37, 29, 13};
    HostBuffer c = gemm.product();
    const ReferenceValues reference = cpu_reference(gemm.request(50, 3));
    ASSERT_EQ(reference.indices.size(), 50u);
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::normwise);

    const auto good = verify_output(ElementType::f32, c.bytes, reference, tolerance);
    EXPECT_TRUE(good.ok) << good.problem;
    EXPECT_EQ(good.checked, 50u);
    EXPECT_LT(good.error, 1e-6);

    // Corrupt a sampled element that is not a corner.
    const std::size_t victim = reference.indices[reference.indices.size() / 2];
    float wrong = at(c, victim) + 0.25f;
    std::memcpy(c.bytes.data() + victim * sizeof wrong, &wrong, sizeof wrong);
    const auto bad = verify_output(ElementType::f32, c.bytes, reference, tolerance);
    EXPECT_FALSE(bad.ok);
    EXPECT_THAT(bad.problem, HasSubstr("element " + std::to_string(victim)));
}

TEST(CpuReference, CopyReferenceIsEveryInputElement)
{
    const HostBuffer in = random_buffer(ElementType::i32, 1000, 4);
    const ReferenceValues reference = cpu_reference({"copy", {{"in", &in}}, {{"N", 1000}}, "out", 4096, 1});
    EXPECT_TRUE(reference.indices.empty());
    ASSERT_EQ(reference.values.size(), 1000u);
    for (std::size_t i = 0; i < 1000; ++i) {
        std::int32_t v;
        std::memcpy(&v, in.bytes.data() + i * 4, 4);
        ASSERT_EQ(reference.values[i], v);
    }
    // The input copied verifies; with one element off by one it does not.
    HostBuffer out = in;
    const Tolerance exact = default_tolerance(ElementType::i32, Tolerance::Kind::elementwise);
    EXPECT_TRUE(verify_output(ElementType::i32, out.bytes, reference, exact).ok);
    std::int32_t v;
    std::memcpy(&v, out.bytes.data() + 500 * 4, 4);
    v += 1;
    std::memcpy(out.bytes.data() + 500 * 4, &v, 4);
    const auto result = verify_output(ElementType::i32, out.bytes, reference, exact);
    EXPECT_FALSE(result.ok);
    EXPECT_THAT(result.problem, HasSubstr("element 500"));
}

TEST(CpuReference, LargeCopySamplesSixtyFourTimesMaxSamples)
{
    // max_samples 4 → up to 256 elements whole; 257 is sampled.
    const HostBuffer whole = random_buffer(ElementType::i32, 256, 4);
    EXPECT_TRUE(cpu_reference({"copy", {{"in", &whole}}, {{"N", 256}}, "out", 4, 1}).indices.empty());

    // Large enough that the first and last element are there by rule, not by chance.
    const HostBuffer in = random_buffer(ElementType::i32, 100000, 4);
    const ReferenceRequest request{"copy", {{"in", &in}}, {{"N", 100000}}, "out", 4, 5};
    const ReferenceValues reference = cpu_reference(request);
    ASSERT_EQ(reference.indices.size(), 256u);
    EXPECT_TRUE(std::ranges::is_sorted(reference.indices));
    EXPECT_EQ(std::set(reference.indices.begin(), reference.indices.end()).size(), 256u);
    EXPECT_EQ(reference.indices.front(), 0u);
    EXPECT_EQ(reference.indices.back(), 99999u);
    for (std::size_t s = 0; s < reference.indices.size(); ++s) {
        std::int32_t v;
        std::memcpy(&v, in.bytes.data() + reference.indices[s] * 4, 4);
        ASSERT_EQ(reference.values[s], v);
    }
    EXPECT_EQ(cpu_reference(request).indices, reference.indices);
    auto other = request;
    other.seed = 6;
    EXPECT_NE(cpu_reference(other).indices, reference.indices);
}

TEST(CpuReference, BadRequestsThrowNamingTheProblem)
{
    const HostBuffer a = floats({1, 2, 3, 4, 5, 6});
    const HostBuffer b = floats({1, 2, 3, 4, 5, 6, 7, 8});
    const HostBuffer ints = random_buffer(ElementType::i32, 6, 1);
    const std::map<std::string, std::int64_t> mnk{{"M", 3}, {"N", 4}, {"K", 2}};
    const auto gemm = [&](std::map<std::string, const HostBuffer*> inputs, std::map<std::string, std::int64_t> problem,
                          std::string output = "C") {
        return [=] { (void)cpu_reference({"gemm", inputs, problem, output, 4096, 1}); };
    };

    expect_invalid([] { (void)cpu_reference({"transpose", {}, {}, "out", 1, 1}); }, {"transpose", "copy", "gemm"});
    expect_invalid(gemm({{"B", &b}}, mnk), {"gemm", "\"A\"", "missing"});
    expect_invalid(gemm({{"A", &ints}, {"B", &b}}, mnk), {"gemm", "\"A\"", "int", "float"});
    expect_invalid(gemm({{"A", &a}, {"B", &b}}, {{"M", 3}, {"N", 4}}), {"gemm", "K", "missing"});
    expect_invalid(gemm({{"A", &a}, {"B", &b}}, {{"M", 3}, {"N", 4}, {"K", 0}}), {"K", "positive"});
    expect_invalid(gemm({{"A", &b}, {"B", &b}}, mnk), {"gemm", "\"A\"", "M·K", "6 elements"});
    expect_invalid(gemm({{"A", &a}, {"B", &a}}, mnk), {"gemm", "\"B\"", "K·N", "8 elements"});
    expect_invalid(gemm({{"A", &a}, {"B", &b}}, mnk, "D"), {"gemm", "\"D\""});

    const HostBuffer in = floats({1, 2, 3});
    expect_invalid([&] { (void)cpu_reference({"copy", {{"in", &in}}, {{"N", 3}}, "out", 1, 1}); }, {"copy", "\"in\"", "float", "int"});
    expect_invalid([&] { (void)cpu_reference({"copy", {{"in", &ints}}, {{"N", 7}}, "out", 1, 1}); }, {"copy", "\"in\"", "7 elements"});
    expect_invalid([&] { (void)cpu_reference({"copy", {{"in", &ints}}, {}, "out", 1, 1}); }, {"copy", "N", "missing"});
    expect_invalid([&] { (void)cpu_reference({"copy", {}, {{"N", 6}}, "out", 1, 1}); }, {"copy", "\"in\"", "missing"});
}
