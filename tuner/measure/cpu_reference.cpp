#include "measure/cpu_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace autotune {

namespace {

// Copies of up to this many times max_samples elements are checked whole; beyond it a
// sample is (a 2^28-element int copy would need 2 GiB of doubles).
constexpr std::size_t copy_sample_factor = 64;

[[noreturn]] void fail(const ReferenceRequest& request, const std::string& what)
{
    throw std::invalid_argument(fmt::format("cpu reference \"{}\": {}", request.name, what));
}

void expect_output(const ReferenceRequest& request, const std::string& name)
{
    if (request.output != name)
        fail(request, fmt::format("computes output \"{}\", not \"{}\"", name, request.output));
}

std::size_t problem_value(const ReferenceRequest& request, const std::string& name)
{
    const auto it = request.problem.find(name);
    if (it == request.problem.end())
        fail(request, fmt::format("problem variable {} is missing", name));
    if (it->second <= 0)
        fail(request, fmt::format("problem variable {} = {} must be positive", name, it->second));
    return static_cast<std::size_t>(it->second);
}

std::size_t product(const ReferenceRequest& request, std::size_t a, std::size_t b)
{
    if (a > std::numeric_limits<std::size_t>::max() / b)
        fail(request, fmt::format("{} · {} elements overflow", a, b));
    return a * b;
}

// The named input, checked for its type and for holding `elements` elements.
const HostBuffer& input(const ReferenceRequest& request, const std::string& name, ElementType type,
                        std::size_t elements, const std::string& shape)
{
    const auto it = request.inputs.find(name);
    if (it == request.inputs.end() || it->second == nullptr)
        fail(request, fmt::format("input \"{}\" is missing", name));
    const HostBuffer& buffer = *it->second;
    if (buffer.type != type)
        fail(request, fmt::format("input \"{}\" is {}, expected {}", name, to_string(buffer.type), to_string(type)));
    const std::size_t size = element_size(type);
    if (buffer.bytes.size() != elements * size)
        fail(request, fmt::format("input \"{}\" has {} bytes, expected {} = {} elements of {} bytes", name,
                                  buffer.bytes.size(), shape, elements, size));
    return buffer;
}

// Uniform in [0, n), by rejection: std::uniform_int_distribution differs between
// standard libraries, and the sample must be reproducible from the seed alone.
std::size_t uniform_below(std::mt19937_64& rng, std::size_t n)
{
    const std::uint64_t bound = n;
    const std::uint64_t threshold = (~bound + 1) % bound; // 2^64 mod n: the biased low draws
    for (;;)
        if (const std::uint64_t r = rng(); r >= threshold)
            return static_cast<std::size_t>(r % bound);
}

// Adds distinct random elements of [0, population) to `chosen` until it holds `count`.
// Rejection stays cheap: either count is far below the population (copy samples 1/64 of
// it at most), or the population is barely over max_samples and retries are bounded by
// about population · ln(population) draws.
void add_random(std::unordered_set<std::size_t>& chosen, std::size_t count, std::size_t population, std::mt19937_64& rng)
{
    while (chosen.size() < count)
        chosen.insert(uniform_below(rng, population));
}

std::vector<std::size_t> sorted(const std::unordered_set<std::size_t>& chosen)
{
    std::vector<std::size_t> indices(chosen.begin(), chosen.end());
    std::ranges::sort(indices); // ascending: cache-friendly, and independent of hashing order
    return indices;
}

float load_float(const HostBuffer& buffer, std::size_t index)
{
    float value;
    std::memcpy(&value, buffer.bytes.data() + index * sizeof value, sizeof value);
    return value;
}

// out = in for an int buffer of N elements. Every element up to
// copy_sample_factor · max_samples elements; beyond that a seeded sample of that many
// distinct indices, always with the first and last element.
ReferenceValues copy_reference(const ReferenceRequest& request)
{
    expect_output(request, "out");
    const std::size_t n = problem_value(request, "N");
    const HostBuffer& in = input(request, "in", ElementType::i32, n, "N");
    const auto value = [&](std::size_t i) {
        std::int32_t v;
        std::memcpy(&v, in.bytes.data() + i * sizeof v, sizeof v);
        return static_cast<double>(v);
    };

    ReferenceValues reference;
    const std::size_t budget = request.max_samples > std::numeric_limits<std::size_t>::max() / copy_sample_factor
                                   ? std::numeric_limits<std::size_t>::max()
                                   : std::max<std::size_t>(request.max_samples, 1) * copy_sample_factor;
    if (n <= budget) {
        reference.values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            reference.values.push_back(value(i));
        return reference;
    }
    std::mt19937_64 rng(request.seed);
    std::unordered_set<std::size_t> chosen{0, n - 1};
    add_random(chosen, budget, n, rng);
    reference.indices = sorted(chosen);
    for (const std::size_t i : reference.indices)
        reference.values.push_back(value(i));
    return reference;
}

// The elements of C (M×N, row-major) a GEMM reference computes: a seeded sample of
// min(max_samples, M·N) distinct elements, always the four corners, then a quarter of the
// budget from the last row and column (where tail handling goes wrong), the rest uniform
// over C; every element when the budget covers C. max_samples below 4 still gets the
// corners. Ascending.
std::vector<std::size_t> gemm_sample(const ReferenceRequest& request, std::size_t m, std::size_t n)
{
    const std::size_t elements = product(request, m, n);
    std::vector<std::size_t> indices;
    const std::size_t count = std::min(std::max<std::size_t>(request.max_samples, 4), elements);
    if (count == elements) {
        indices.resize(elements);
        for (std::size_t i = 0; i < elements; ++i)
            indices[i] = i;
        return indices;
    }
    std::mt19937_64 rng(request.seed);
    std::unordered_set<std::size_t> chosen{0, n - 1, (m - 1) * n, m * n - 1};
    // The last row and column as one list (their shared corner once), partially
    // shuffled so its first entries are a random pick.
    std::vector<std::size_t> edge;
    for (std::size_t j = 0; j < n; ++j)
        edge.push_back((m - 1) * n + j);
    for (std::size_t i = 0; i + 1 < m; ++i)
        edge.push_back(i * n + n - 1);
    const std::size_t from_edge = std::min(edge.size(), count / 4);
    for (std::size_t e = 0; e < from_edge && chosen.size() < count; ++e) {
        std::swap(edge[e], edge[e + uniform_below(rng, edge.size() - e)]);
        chosen.insert(edge[e]);
    }
    add_random(chosen, count, elements, rng);
    return sorted(chosen);
}

// C[row][col] = Σ_l a(row, l) · b(l, col) in double on gemm_sample's elements; a and b
// read the operands as doubles, whatever their type and layout.
template <class AValue, class BValue>
ReferenceValues gemm_on_sample(const ReferenceRequest& request, std::size_t m, std::size_t n, std::size_t k,
                               AValue a, BValue b)
{
    ReferenceValues reference;
    reference.indices = gemm_sample(request, m, n);
    reference.values.reserve(reference.indices.size());
    for (const std::size_t index : reference.indices) {
        const std::size_t row = index / n, col = index % n;
        double sum = 0;
        for (std::size_t l = 0; l < k; ++l)
            sum += a(row, l) * b(l, col);
        reference.values.push_back(sum);
    }
    return reference;
}

// An operand layout of gemm.toml: the problem variable `name` (A_LAYOUT, B_LAYOUT), 1 (as
// named, row-major) when the problem has none; true for 2 (stored transposed).
bool gemm_transposed(const ReferenceRequest& request, const std::string& name)
{
    const auto it = request.problem.find(name);
    if (it == request.problem.end() || it->second == 1)
        return false;
    if (it->second == 2)
        return true;
    fail(request, fmt::format("problem variable {} = {} is not a layout (1: as named, 2: transposed)", name, it->second));
}

// C = A·B, fp32, C M×N row-major, on gemm_sample's elements. A is M×K row-major, or K×M
// with A_LAYOUT = 2; B is K×N row-major, or N×K with B_LAYOUT = 2.
ReferenceValues gemm_reference(const ReferenceRequest& request)
{
    expect_output(request, "C");
    const std::size_t m = problem_value(request, "M");
    const std::size_t n = problem_value(request, "N");
    const std::size_t k = problem_value(request, "K");
    const bool trans_a = gemm_transposed(request, "A_LAYOUT");
    const bool trans_b = gemm_transposed(request, "B_LAYOUT");
    const HostBuffer& a = input(request, "A", ElementType::f32, product(request, m, k), "M·K");
    const HostBuffer& b = input(request, "B", ElementType::f32, product(request, k, n), "K·N");
    return gemm_on_sample(
        request, m, n, k,
        [&](std::size_t row, std::size_t l) { return static_cast<double>(load_float(a, trans_a ? l * m + row : row * k + l)); },
        [&](std::size_t l, std::size_t col) { return static_cast<double>(load_float(b, trans_b ? col * k + l : l * n + col)); });
}

// C = A·Bᵀ-stored (templates/gemm_bf16.cuh): A M×K and B N×K bf16, both row-major (k
// contiguous), C M×N; C[i][j] = Σ_l A[i][l] · B[j][l], exact in double (bf16 products
// have 16 significant bits), on gemm_sample's elements.
ReferenceValues gemm_bf16_reference(const ReferenceRequest& request)
{
    expect_output(request, "C");
    const std::size_t m = problem_value(request, "M");
    const std::size_t n = problem_value(request, "N");
    const std::size_t k = problem_value(request, "K");
    const HostBuffer& a = input(request, "A", ElementType::bf16, product(request, m, k), "M·K");
    const HostBuffer& b = input(request, "B", ElementType::bf16, product(request, n, k), "N·K");
    return gemm_on_sample(
        request, m, n, k, [&](std::size_t row, std::size_t l) { return element_value(ElementType::bf16, a.bytes, row * k + l); },
        [&](std::size_t l, std::size_t col) { return element_value(ElementType::bf16, b.bytes, col * k + l); });
}

// The memory-bound kernels: triad, transpose, reduce. Elementwise outputs are checked
// whole up to copy's budget and sampled beyond it, like copy.

// Elements an elementwise reference computes whole: copy_sample_factor · max_samples.
std::size_t elementwise_budget(const ReferenceRequest& request)
{
    return request.max_samples > std::numeric_limits<std::size_t>::max() / copy_sample_factor
               ? std::numeric_limits<std::size_t>::max()
               : std::max<std::size_t>(request.max_samples, 1) * copy_sample_factor;
}

// Empty (every element) when an output of n elements fits the budget; else that many
// seeded distinct indices, sorted, always including `always` (where tails go wrong).
std::vector<std::size_t> elementwise_indices(const ReferenceRequest& request, std::size_t n,
                                             std::initializer_list<std::size_t> always)
{
    const std::size_t budget = elementwise_budget(request);
    if (n <= budget)
        return {};
    std::mt19937_64 rng(request.seed);
    std::unordered_set<std::size_t> chosen(always);
    add_random(chosen, budget, n, rng);
    return sorted(chosen);
}

// value(i) for every element of an n-element output, or for the given indices.
template <class Value>
ReferenceValues elementwise_values(std::vector<std::size_t> indices, std::size_t n, Value value)
{
    ReferenceValues reference;
    if (indices.empty()) {
        reference.values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            reference.values.push_back(value(i));
        return reference;
    }
    reference.values.reserve(indices.size());
    for (const std::size_t i : indices)
        reference.values.push_back(value(i));
    reference.indices = std::move(indices);
    return reference;
}

double scalar_value(const ReferenceRequest& request, const std::string& name)
{
    const auto it = request.scalars.find(name);
    if (it == request.scalars.end())
        fail(request, fmt::format("scalar argument \"{}\" is missing", name));
    return it->second;
}

// a = b + s·c (STREAM triad) for N floats; every element, or a sample with the first and last.
ReferenceValues triad_reference(const ReferenceRequest& request)
{
    expect_output(request, "a");
    const std::size_t n = problem_value(request, "N");
    const HostBuffer& b = input(request, "b", ElementType::f32, n, "N");
    const HostBuffer& c = input(request, "c", ElementType::f32, n, "N");
    const double s = scalar_value(request, "s");
    return elementwise_values(elementwise_indices(request, n, {0, n - 1}), n, [&](std::size_t i) {
        return static_cast<double>(load_float(b, i)) + s * static_cast<double>(load_float(c, i));
    });
}

// out (N×M) = in^T, in M×N, both row-major; every element, or a sample with out's corners.
ReferenceValues transpose_reference(const ReferenceRequest& request)
{
    expect_output(request, "out");
    const std::size_t m = problem_value(request, "M");
    const std::size_t n = problem_value(request, "N");
    const std::size_t elements = product(request, m, n);
    const HostBuffer& in = input(request, "in", ElementType::f32, elements, "M·N");
    const auto indices = elementwise_indices(request, elements, {0, m - 1, (n - 1) * m, elements - 1});
    return elementwise_values(indices, elements, [&](std::size_t index) {
        const std::size_t row = index / m, col = index % m; // out[row][col] = in[col][row]
        return static_cast<double>(load_float(in, col * n + row));
    });
}

// out = v0 + Σ in for N floats, v0 being out's value before the launch (the kernel adds
// into it). The scale is |v0| + Σ|in|: fp32 summation in any order errs by a multiple of
// it, while the sum itself can cancel. With the generated inputs (k·2^-24 in [-1, 1]) the
// double sums are exact below 2^29 elements.
ReferenceValues reduce_reference(const ReferenceRequest& request)
{
    expect_output(request, "out");
    const std::size_t n = problem_value(request, "N");
    const HostBuffer& in = input(request, "in", ElementType::f32, n, "N");
    if (!request.inputs.contains("out"))
        fail(request, "input \"out\" is missing: the sum adds to out's starting value, so out must be input_output");
    const HostBuffer& out = input(request, "out", ElementType::f32, 1, "1");
    const double start = load_float(out, 0);
    double sum = start, scale = std::abs(start);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = load_float(in, i);
        sum += x;
        scale += std::abs(x);
    }
    ReferenceValues reference;
    reference.values = {sum};
    reference.scales = {scale};
    return reference;
}

} // namespace

ReferenceValues cpu_reference(const ReferenceRequest& request)
{
    if (request.name == "copy")
        return copy_reference(request);
    if (request.name == "gemm")
        return gemm_reference(request);
    if (request.name == "gemm_bf16")
        return gemm_bf16_reference(request);
    if (request.name == "triad")
        return triad_reference(request);
    if (request.name == "transpose")
        return transpose_reference(request);
    if (request.name == "reduce")
        return reduce_reference(request);
    std::string known;
    for (const auto& name : cpu_reference_names())
        known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument(fmt::format("unknown cpu reference \"{}\"; known: {}", request.name, known));
}

std::vector<std::string> cpu_reference_names() { return {"copy", "gemm", "triad", "transpose", "reduce", "gemm_bf16"}; }

} // namespace autotune
