#include "measure/cpu_reference.hpp"

#include "spec/load_spec.hpp"
#include "support/expect_invalid.hpp"
#include "support/test_support.hpp"
#include "support/host_buffers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <set>
#include <stdexcept>

using namespace autotune;
using autotune::test::random_buffer;
using ::testing::HasSubstr;

namespace {

HostBuffer floats(std::initializer_list<float> values)
{
    HostBuffer buffer{ElementType::f32, std::vector<std::byte>(values.size() * sizeof(float))};
    std::memcpy(buffer.bytes.data(), std::data(values), buffer.bytes.size());
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

using test::expect_invalid;

} // namespace

TEST(CpuReference, NamesAreTheBuiltInReferences)
{
    EXPECT_EQ(cpu_reference_names(), (std::vector<std::string>{"copy", "gemm", "triad", "transpose", "reduce", "gemm_bf16"}));
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

    expect_invalid([] { (void)cpu_reference({"stencil", {}, {}, "out", 1, 1}); }, {"stencil", "copy", "gemm", "transpose"});
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

// The memory-bound kernels: triad, transpose, reduce.
namespace {

ReferenceRequest triad_request(const HostBuffer& b, const HostBuffer& c, std::int64_t n, double s,
                               std::size_t max_samples = 4096, std::uint64_t seed = 1)
{
    ReferenceRequest request{"triad", {{"b", &b}, {"c", &c}}, {{"N", n}}, "a", max_samples, seed};
    request.scalars = {{"s", s}};
    return request;
}

void put_float(HostBuffer& buffer, std::size_t index, float value)
{
    std::memcpy(buffer.bytes.data() + index * sizeof value, &value, sizeof value);
}

} // namespace

TEST(CpuReference, TriadIsBPlusSTimesCWithTheScalarItIsGiven)
{
    const HostBuffer b = floats({1, 2, -0.5f});
    const HostBuffer c = floats({0.25f, -1, 4});
    const ReferenceValues three = cpu_reference(triad_request(b, c, 3, 3.0));
    EXPECT_TRUE(three.indices.empty());
    EXPECT_EQ(three.values, (std::vector<double>{1.75, -1, 11.5}));
    EXPECT_EQ(cpu_reference(triad_request(b, c, 3, 0.5)).values, (std::vector<double>{1.125, 1.5, 1.5}));
}

TEST(CpuReference, TriadVerifiesTheKernelsFmaResultAndCatchesAWrongElement)
{
    const std::size_t n = 1000;
    const HostBuffer b = random_buffer(ElementType::f32, n, 1);
    const HostBuffer c = random_buffer(ElementType::f32, n, 2);
    const ReferenceValues reference = cpu_reference(triad_request(b, c, n, 3.0));
    ASSERT_EQ(reference.values.size(), n);
    HostBuffer a{ElementType::f32, std::vector<std::byte>(n * sizeof(float))};
    for (std::size_t i = 0; i < n; ++i)
        put_float(a, i, std::fma(3.0f, at(c, i), at(b, i))); // the template's fmaf: one rounding
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::elementwise);
    const auto good = verify_output(ElementType::f32, a.bytes, reference, tolerance);
    EXPECT_TRUE(good.ok) << good.problem;

    put_float(a, 777, at(a, 777) * (1 + 1e-4f));
    const auto bad = verify_output(ElementType::f32, a.bytes, reference, tolerance);
    EXPECT_FALSE(bad.ok);
    EXPECT_THAT(bad.problem, HasSubstr("element 777"));
}

TEST(CpuReference, LargeTriadSamplesLikeCopyReproduciblyFromTheSeed)
{
    const HostBuffer b = random_buffer(ElementType::f32, 100000, 3);
    const HostBuffer c = random_buffer(ElementType::f32, 100000, 4);
    const ReferenceValues reference = cpu_reference(triad_request(b, c, 100000, 3.0, 4, 5));
    ASSERT_EQ(reference.indices.size(), 256u); // 64 · max_samples
    EXPECT_TRUE(std::ranges::is_sorted(reference.indices));
    EXPECT_EQ(std::set(reference.indices.begin(), reference.indices.end()).size(), 256u);
    EXPECT_EQ(reference.indices.front(), 0u);
    EXPECT_EQ(reference.indices.back(), 99999u);
    for (std::size_t k = 0; k < reference.indices.size(); ++k) {
        const std::size_t i = reference.indices[k];
        ASSERT_EQ(reference.values[k], double(at(b, i)) + 3.0 * double(at(c, i))) << i;
    }
    EXPECT_EQ(cpu_reference(triad_request(b, c, 100000, 3.0, 4, 5)).indices, reference.indices);
    EXPECT_NE(cpu_reference(triad_request(b, c, 100000, 3.0, 4, 6)).indices, reference.indices);
}

TEST(CpuReference, TransposeOfASmallMatrixSwapsRowsAndColumns)
{
    // in (M = 2 rows, N = 3 columns) = [1 2 3; 4 5 6]; out (3 × 2) = [1 4; 2 5; 3 6].
    const HostBuffer in = floats({1, 2, 3, 4, 5, 6});
    const ReferenceValues reference = cpu_reference({"transpose", {{"in", &in}}, {{"M", 2}, {"N", 3}}, "out", 4096, 1});
    EXPECT_TRUE(reference.indices.empty());
    EXPECT_EQ(reference.values, (std::vector<double>{1, 4, 2, 5, 3, 6}));

    // A host transpose of a non-square random matrix verifies; one with two elements
    // swapped does not.
    const std::size_t m = 7, n = 5;
    const HostBuffer matrix = random_buffer(ElementType::f32, m * n, 8);
    HostBuffer out{ElementType::f32, std::vector<std::byte>(m * n * sizeof(float))};
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            put_float(out, j * m + i, at(matrix, i * n + j));
    const ReferenceValues whole = cpu_reference({"transpose", {{"in", &matrix}}, {{"M", 7}, {"N", 5}}, "out", 4096, 1});
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::elementwise);
    EXPECT_TRUE(verify_output(ElementType::f32, out.bytes, whole, tolerance).ok);
    const float first = at(out, 1);
    put_float(out, 1, at(out, 7));
    put_float(out, 7, first);
    EXPECT_FALSE(verify_output(ElementType::f32, out.bytes, whole, tolerance).ok);
}

TEST(CpuReference, LargeTransposeSamplesWithOutsCornersReproduciblyFromTheSeed)
{
    const std::size_t m = 300, n = 500; // out is 500 × 300
    const HostBuffer in = random_buffer(ElementType::f32, m * n, 6);
    const ReferenceRequest request{"transpose", {{"in", &in}}, {{"M", 300}, {"N", 500}}, "out", 4, 7};
    const ReferenceValues reference = cpu_reference(request);
    ASSERT_EQ(reference.indices.size(), 256u);
    EXPECT_TRUE(std::ranges::is_sorted(reference.indices));
    const std::set<std::size_t> chosen(reference.indices.begin(), reference.indices.end());
    EXPECT_EQ(chosen.size(), 256u);
    for (const std::size_t corner : {std::size_t{0}, m - 1, (n - 1) * m, n * m - 1})
        EXPECT_TRUE(chosen.contains(corner)) << corner;
    for (std::size_t k = 0; k < reference.indices.size(); ++k) {
        const std::size_t row = reference.indices[k] / m, col = reference.indices[k] % m;
        ASSERT_EQ(reference.values[k], at(in, col * n + row)) << reference.indices[k];
    }
    EXPECT_EQ(cpu_reference(request).indices, reference.indices);
    auto other = request;
    other.seed = 8;
    EXPECT_NE(cpu_reference(other).indices, reference.indices);
}

TEST(CpuReference, ReduceIsTheStartingValuePlusTheSumWithTheSumsScale)
{
    const HostBuffer in = floats({1, 2, -4, 0.5f});
    const HostBuffer start = floats({0.25f});
    const ReferenceValues reference = cpu_reference({"reduce", {{"in", &in}, {"out", &start}}, {{"N", 4}}, "out", 4096, 1});
    EXPECT_TRUE(reference.indices.empty());
    EXPECT_EQ(reference.values, (std::vector<double>{-0.25}));
    EXPECT_EQ(reference.scales, (std::vector<double>{7.75})); // |0.25| + 1 + 2 + 4 + 0.5
}

TEST(CpuReference, ReduceToleranceAcceptsReorderedFp32SumsAndRejectsWrongOnes)
{
    // The spec's own tolerance, against the reference's scale.
    const std::optional<double> relative = load_spec(test::source_dir() / "kernels" / "reduce.toml").reference.relative;
    ASSERT_TRUE(relative.has_value());
    const Tolerance tolerance{Tolerance::Kind::elementwise, *relative, 0};

    // Random values followed by their negations: the exact sum is the starting value
    // alone, while fp32 partial sums grow to ~100 and round all along the way.
    const std::size_t half = 8192, n = 2 * half;
    HostBuffer in = random_buffer(ElementType::f32, n, 11);
    for (std::size_t i = 0; i < half; ++i)
        put_float(in, half + i, -at(in, i));
    const HostBuffer start = random_buffer(ElementType::f32, 1, 12);
    const float v0 = at(start, 0);
    ASSERT_GT(std::abs(v0), 0.1f); // so that forgetting it is an error the check must see
    const ReferenceValues reference =
        cpu_reference({"reduce", {{"in", &in}, {"out", &start}}, {{"N", std::int64_t(n)}}, "out", 4096, 1});
    ASSERT_EQ(reference.values, (std::vector<double>{v0}));

    const auto as_output = [](float sum) { return floats({sum}); };
    const auto verify = [&](float sum) { return verify_output(ElementType::f32, as_output(sum).bytes, reference, tolerance); };

    // In order, one element after another.
    float forward = v0;
    for (std::size_t i = 0; i < n; ++i)
        forward += at(in, i);
    // The kernel's shape: 256 strided per-thread partials, each folded as a tree, added
    // to the start value last to first.
    std::vector<float> partial(256, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        partial[i % 256] += at(in, i);
    for (std::size_t width = 128; width > 0; width /= 2)
        for (std::size_t t = 0; t < width; ++t)
            partial[t] += partial[t + width];
    const float tree = v0 + partial[0];
    float backward = v0;
    for (std::size_t i = n; i-- > 0;)
        backward += at(in, i);

    for (const float sum : {forward, tree, backward}) {
        const auto result = verify(sum);
        EXPECT_TRUE(result.ok) << sum << ": " << result.problem;
    }
    // The scale is what makes that honest: against |v0| alone, the ordinary fp32
    // tolerance would reject the in-order sum.
    EXPECT_NE(forward, v0);
    EXPECT_FALSE(verify_output(ElementType::f32, as_output(forward).bytes, {{}, {double(v0)}},
                               default_tolerance(ElementType::f32, Tolerance::Kind::elementwise)).ok);

    // Wrong sums: one element dropped, one counted twice, the start value overwritten.
    std::size_t big = 0;
    while (std::abs(at(in, big)) < 0.25f)
        ++big;
    EXPECT_FALSE(verify(forward - at(in, big)).ok);
    EXPECT_FALSE(verify(forward + at(in, big)).ok);
    EXPECT_FALSE(verify(forward - v0).ok);
}

TEST(CpuReference, MemoryBoundReferencesNameWhatIsMissing)
{
    const HostBuffer three = floats({1, 2, 3});
    const HostBuffer six = floats({1, 2, 3, 4, 5, 6});
    const HostBuffer one = floats({0.5f});
    const HostBuffer ints = random_buffer(ElementType::i32, 3, 1);

    auto triad = triad_request(three, three, 3, 3.0);
    triad.scalars.clear();
    expect_invalid([&] { (void)cpu_reference(triad); }, {"triad", "scalar argument \"s\"", "missing"});
    expect_invalid([&] { (void)cpu_reference({"triad", {{"b", &three}}, {{"N", 3}}, "a", 1, 1, {{"s", 3.0}}}); },
                   {"triad", "\"c\"", "missing"});
    expect_invalid([&] { (void)cpu_reference({"triad", {{"b", &three}, {"c", &ints}}, {{"N", 3}}, "a", 1, 1, {{"s", 3.0}}}); },
                   {"triad", "\"c\"", "int", "float"});
    expect_invalid([&] { (void)cpu_reference({"triad", {{"b", &three}, {"c", &three}}, {}, "a", 1, 1, {{"s", 3.0}}}); },
                   {"triad", "N", "missing"});
    auto wrong_output = triad_request(three, three, 3, 3.0);
    wrong_output.output = "b";
    expect_invalid([&] { (void)cpu_reference(wrong_output); }, {"triad", "\"a\"", "\"b\""});

    expect_invalid([&] { (void)cpu_reference({"transpose", {{"in", &six}}, {{"M", 2}}, "out", 1, 1}); },
                   {"transpose", "N", "missing"});
    expect_invalid([&] { (void)cpu_reference({"transpose", {{"in", &six}}, {{"M", 2}, {"N", 4}}, "out", 1, 1}); },
                   {"transpose", "\"in\"", "M·N", "8 elements"});
    expect_invalid([&] { (void)cpu_reference({"transpose", {}, {{"M", 2}, {"N", 3}}, "out", 1, 1}); },
                   {"transpose", "\"in\"", "missing"});

    expect_invalid([&] { (void)cpu_reference({"reduce", {{"in", &three}}, {{"N", 3}}, "out", 1, 1}); },
                   {"reduce", "\"out\"", "missing", "input_output"});
    expect_invalid([&] { (void)cpu_reference({"reduce", {{"in", &three}, {"out", &three}}, {{"N", 3}}, "out", 1, 1}); },
                   {"reduce", "\"out\"", "1 elements"});
    expect_invalid([&] { (void)cpu_reference({"reduce", {{"out", &one}}, {{"N", 3}}, "out", 1, 1}); },
                   {"reduce", "\"in\"", "missing"});
    expect_invalid([&] { (void)cpu_reference({"reduce", {{"in", &three}, {"out", &one}}, {}, "out", 1, 1}); },
                   {"reduce", "N", "missing"});
}
