// The "gemm_bf16" CPU reference (templates/gemm_bf16.cuh): C (M×N, float) = A (M×K bf16,
// row-major) times B stored N×K (bf16, k contiguous), in double, on gemm's sample.
#include "measure/cpu_reference.hpp"

#include "support/expect_invalid.hpp"
#include "support/host_buffers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <stdexcept>

using namespace autotune;
using autotune::test::random_buffer;
using ::testing::HasSubstr;

namespace {

// bf16 buffers from their bit patterns (the top half of an f32).
HostBuffer bfloat16s(std::initializer_list<std::uint16_t> bits)
{
    HostBuffer buffer{ElementType::bf16, std::vector<std::byte>(bits.size() * 2)};
    std::memcpy(buffer.bytes.data(), std::data(bits), buffer.bytes.size());
    return buffer;
}

// The bf16 bits of a float whose value bf16 holds exactly.
constexpr std::uint16_t bf16(float value) { return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16); }

ReferenceRequest request(const char* name, const HostBuffer& a, const HostBuffer& b, std::int64_t m, std::int64_t n,
                         std::int64_t k, std::size_t max_samples = 4096, std::uint64_t seed = 1)
{
    return {name, {{"A", &a}, {"B", &b}}, {{"M", m}, {"N", n}, {"K", k}}, "C", max_samples, seed};
}

using test::expect_invalid;

} // namespace

TEST(GemmBf16Reference, IsABuiltInReference)
{
    EXPECT_THAT(cpu_reference_names(), ::testing::Contains("gemm_bf16"));
}

TEST(GemmBf16Reference, SmallProblemEqualsTheHandComputationWithBStoredNByK)
{
    // A (2×4) = [1 2 3 4; -1 0.5 0.25 2]; B stored N×K (3×4) = [1 1 1 1; 1 0 -1 0; 0.5 0.5 2 -1].
    // C[i][j] = Σ_l A[i][l]·B[j][l]. Read as K×N instead, B would give other numbers.
    const HostBuffer a = bfloat16s({bf16(1), bf16(2), bf16(3), bf16(4), bf16(-1), bf16(0.5f), bf16(0.25f), bf16(2)});
    const HostBuffer b = bfloat16s({bf16(1), bf16(1), bf16(1), bf16(1), bf16(1), bf16(0), bf16(-1), bf16(0),
                                    bf16(0.5f), bf16(0.5f), bf16(2), bf16(-1)});
    const ReferenceValues reference = cpu_reference(request("gemm_bf16", a, b, 2, 3, 4));
    ASSERT_EQ(reference.indices, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5})); // all six fit the budget
    EXPECT_EQ(reference.values, (std::vector<double>{10, -2, 3.5, 1.75, -1.25, -1.75}));
}

TEST(GemmBf16Reference, ReadsEveryBitOfTheBfloat16Significand)
{
    // 0x3F81 = 1 + 2^-7 and 0xBF7F = -(1 - 2^-8): the lowest significand bits count.
    const HostBuffer a = bfloat16s({0x3F81, 0x4000});          // [1.0078125, 2]
    const HostBuffer b = bfloat16s({0x3F80, 0xBF7F});          // N = 1: [1, -0.99609375]
    const ReferenceValues reference = cpu_reference(request("gemm_bf16", a, b, 1, 1, 2));
    ASSERT_EQ(reference.values.size(), 1u);
    EXPECT_EQ(reference.values[0], 1.0078125 - 2 * 0.99609375);
}

TEST(GemmBf16Reference, SamplesTheElementsGemmSamplesAndComputesThemInDouble)
{
    const std::int64_t m = 40, n = 48, k = 64;
    const HostBuffer a = random_buffer(ElementType::bf16, m * k, 1);
    const HostBuffer b = random_buffer(ElementType::bf16, n * k, 2);
    const HostBuffer af = random_buffer(ElementType::f32, m * k, 1);
    const HostBuffer bf = random_buffer(ElementType::f32, k * n, 2);
    const ReferenceValues reference = cpu_reference(request("gemm_bf16", a, b, m, n, k, 300, 7));
    EXPECT_EQ(reference.indices, cpu_reference(request("gemm", af, bf, m, n, k, 300, 7)).indices);
    ASSERT_EQ(reference.indices.size(), 300u);
    ASSERT_EQ(reference.values.size(), 300u);
    EXPECT_NE(reference.indices, cpu_reference(request("gemm_bf16", a, b, m, n, k, 300, 8)).indices);
    for (std::size_t s = 0; s < reference.indices.size(); ++s) {
        const std::size_t row = reference.indices[s] / n, col = reference.indices[s] % n;
        double sum = 0;
        for (std::size_t l = 0; l < static_cast<std::size_t>(k); ++l)
            sum += element_value(ElementType::bf16, a.bytes, row * k + l) * element_value(ElementType::bf16, b.bytes, col * k + l);
        ASSERT_EQ(reference.values[s], sum) << "element " << reference.indices[s];
    }
}

TEST(GemmBf16Reference, BadInputsThrowNamingThem)
{
    const HostBuffer a = bfloat16s({1, 2, 3, 4, 5, 6});        // M·K = 3·2
    const HostBuffer b = bfloat16s({1, 2, 3, 4, 5, 6, 7, 8});  // N·K = 4·2
    const HostBuffer floats = random_buffer(ElementType::f32, 6, 1);
    const std::map<std::string, std::int64_t> mnk{{"M", 3}, {"N", 4}, {"K", 2}};
    const auto reference = [&](std::map<std::string, const HostBuffer*> inputs, std::string output = "C") {
        return [=] { (void)cpu_reference({"gemm_bf16", inputs, mnk, output, 4096, 1}); };
    };
    expect_invalid(reference({{"A", &floats}, {"B", &b}}), {"gemm_bf16", "\"A\"", "is float", "expected __nv_bfloat16"});
    expect_invalid(reference({{"A", &a}, {"B", &floats}}), {"gemm_bf16", "\"B\"", "is float", "expected __nv_bfloat16"});
    expect_invalid(reference({{"A", &a}}), {"gemm_bf16", "\"B\"", "missing"});
    expect_invalid(reference({{"A", &b}, {"B", &b}}), {"gemm_bf16", "\"A\"", "M·K", "6 elements"});
    expect_invalid(reference({{"A", &a}, {"B", &a}}), {"gemm_bf16", "\"B\"", "N·K", "8 elements"});
    expect_invalid(reference({{"A", &a}, {"B", &b}}, "D"), {"gemm_bf16", "\"D\""});
    expect_invalid([&] { (void)cpu_reference({"gemm_bf16", {{"A", &a}, {"B", &b}}, {{"M", 3}, {"N", 4}}, "C", 1, 1}); },
                   {"gemm_bf16", "K", "missing"});
}
