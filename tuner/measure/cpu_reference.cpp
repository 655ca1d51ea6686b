#include "measure/cpu_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
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

// C = A·B (row-major, A M×K, B K×N) on a seeded sample of min(max_samples, M·N)
// distinct elements: always the four corners, then a quarter of the budget from the
// last row and column (where tail handling goes wrong), the rest uniform over C.
// max_samples below 4 still gets the corners.
ReferenceValues gemm_reference(const ReferenceRequest& request)
{
    expect_output(request, "C");
    const std::size_t m = problem_value(request, "M");
    const std::size_t n = problem_value(request, "N");
    const std::size_t k = problem_value(request, "K");
    const HostBuffer& a = input(request, "A", ElementType::f32, product(request, m, k), "M·K");
    const HostBuffer& b = input(request, "B", ElementType::f32, product(request, k, n), "K·N");
    const std::size_t elements = product(request, m, n);

    std::vector<std::size_t> indices;
    const std::size_t count = std::min(std::max<std::size_t>(request.max_samples, 4), elements);
    if (count == elements) {
        indices.resize(elements);
        for (std::size_t i = 0; i < elements; ++i)
            indices[i] = i;
    } else {
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
        indices = sorted(chosen);
    }

    ReferenceValues reference;
    reference.values.reserve(indices.size());
    for (const std::size_t index : indices) {
        const std::size_t row = index / n, col = index % n;
        double sum = 0;
        for (std::size_t l = 0; l < k; ++l)
            sum += static_cast<double>(load_float(a, row * k + l)) * static_cast<double>(load_float(b, l * n + col));
        reference.values.push_back(sum);
    }
    reference.indices = std::move(indices);
    return reference;
}

} // namespace

ReferenceValues cpu_reference(const ReferenceRequest& request)
{
    if (request.name == "copy")
        return copy_reference(request);
    if (request.name == "gemm")
        return gemm_reference(request);
    std::string known;
    for (const auto& name : cpu_reference_names())
        known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument(fmt::format("unknown cpu reference \"{}\"; known: {}", request.name, known));
}

std::vector<std::string> cpu_reference_names() { return {"copy", "gemm"}; }

} // namespace autotune
