#include "measure/verification.hpp"

#include "spec/expression.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <type_traits>

namespace autotune {

namespace {

// f16 (IEEE binary16) to double by hand: no CUDA headers on the host side.
double half_to_double(std::uint16_t bits)
{
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    if (exponent == 0) // zero or subnormal: mantissa · 2^-24
        return sign * std::ldexp(mantissa, -24);
    if (exponent == 0x1F)
        return mantissa == 0 ? sign * INFINITY : std::nan("");
    return sign * std::ldexp(mantissa | 0x400, exponent - 25);
}

// bf16 is the top half of an f32, so widening is a shift.
double bfloat16_to_double(std::uint16_t bits)
{
    return std::bit_cast<float>(std::uint32_t{bits} << 16);
}

// A normal float whose significand fits 11 bits (the inputs below are k·2^-11) as f16;
// exact, so no rounding logic is needed.
std::uint16_t exact_float_to_half(float value)
{
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
    const auto exponent = static_cast<std::uint16_t>((((bits >> 23) & 0xFF) - 127 + 15) << 10);
    const auto mantissa = static_cast<std::uint16_t>((bits >> 13) & 0x3FF);
    return sign | exponent | mantissa;
}

// Per-type storage, poison and widening. The floating-point poisons are quiet NaNs with
// a payload no arithmetic produces (x86 and CUDA generate the canonical 0x7FC00000 /
// 0xFFC00000 / 0x7FFF families), so an unwritten element is told apart from a NaN the
// kernel computed. Integer poisons are sentinels that fill_random_input never draws.
struct F16 {
    using Bits = std::uint16_t;
    static constexpr Bits poison = 0x7EAD; // quiet NaN, payload 0x2AD
    static double value(Bits b) { return half_to_double(b); }
};
struct BF16 {
    using Bits = std::uint16_t;
    static constexpr Bits poison = 0x7FDE; // quiet NaN, payload 0x5E (the top of F32's)
    static double value(Bits b) { return bfloat16_to_double(b); }
};
struct F32 {
    using Bits = std::uint32_t;
    static constexpr Bits poison = 0x7FDEAD00; // quiet NaN, payload 0x5EAD00
    static double value(Bits b) { return std::bit_cast<float>(b); }
};
struct F64 {
    using Bits = std::uint64_t;
    static constexpr Bits poison = 0x7FFDEAD0DEAD0000; // quiet NaN, payload 0x5EAD0DEAD0000
    static double value(Bits b) { return std::bit_cast<double>(b); }
};
// Integers: Bits stored, Integer the value they mean.
template <class Stored, class Meant, Stored poison_bits>
struct IntegerTraits {
    using Bits = Stored;
    using Integer = Meant;
    static constexpr Bits poison = poison_bits;
    static double value(Bits b) { return static_cast<double>(static_cast<Integer>(b)); }
};
struct I8 : IntegerTraits<std::uint8_t, std::int8_t, 0xAD> {};   // -83
struct U8 : IntegerTraits<std::uint8_t, std::uint8_t, 0xAD> {};  // 173
struct I16 : IntegerTraits<std::uint16_t, std::int16_t, 0xDEAD> {};
struct U16 : IntegerTraits<std::uint16_t, std::uint16_t, 0xDEAD> {};
struct I32 : IntegerTraits<std::uint32_t, std::int32_t, 0xDEADBEEF> {};
struct U32 : IntegerTraits<std::uint32_t, std::uint32_t, 0xDEADBEEF> {};
struct I64 : IntegerTraits<std::uint64_t, std::int64_t, 0xDEADBEEFDEADBEEF> {};
struct U64 : IntegerTraits<std::uint64_t, std::uint64_t, 0xDEADBEEFDEADBEEF> {};

// Calls f with the traits of `type`, so the per-element loops are compiled per type
// rather than switching on every element.
template <class F>
decltype(auto) with_traits(ElementType type, F&& f)
{
    switch (type) {
    case ElementType::f16:
        return f(F16{});
    case ElementType::bf16:
        return f(BF16{});
    case ElementType::f32:
        return f(F32{});
    case ElementType::f64:
        return f(F64{});
    case ElementType::i8:
        return f(I8{});
    case ElementType::i32:
        return f(I32{});
    case ElementType::u32:
        return f(U32{});
    case ElementType::i64:
        return f(I64{});
    case ElementType::u8:
        return f(U8{});
    case ElementType::i16:
        return f(I16{});
    case ElementType::u16:
        return f(U16{});
    case ElementType::u64:
        return f(U64{});
    }
    throw std::invalid_argument(fmt::format("invalid ElementType value {}", static_cast<int>(type)));
}

template <class T>
typename T::Bits load(const std::byte* p)
{
    typename T::Bits bits;
    std::memcpy(&bits, p, sizeof bits); // buffers carry no alignment promise
    return bits;
}

template <class T>
void store(std::byte* p, typename T::Bits bits)
{
    std::memcpy(p, &bits, sizeof bits);
}

// One random element from a 64-bit draw. Floating-point values are ±k·2^-p with
// k in [1, 2^p] and p the significand width, so they are uniform over [-1, 1], exact in
// the type and never zero by construction. Integers are redrawn when zero or poison;
// i64 and u64 stay within ±(2^53 − 1) because references are doubles and larger values would
// make an off-by-one invisible.
template <class T>
typename T::Bits random_bits(std::mt19937_64& rng)
{
    for (;;) {
        const std::uint64_t r = rng();
        const bool negative = (r >> 63) != 0;
        const auto magnitude = [&](int p) { return static_cast<double>((r & ((std::uint64_t{1} << p) - 1)) + 1) * std::ldexp(1.0, -p); };
        const double sign = negative ? -1.0 : 1.0;
        if constexpr (std::is_same_v<T, F16>)
            return exact_float_to_half(static_cast<float>(sign * magnitude(11)));
        else if constexpr (std::is_same_v<T, BF16>)
            return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(sign * magnitude(8))) >> 16);
        else if constexpr (std::is_same_v<T, F32>)
            return std::bit_cast<std::uint32_t>(static_cast<float>(sign * magnitude(24)));
        else if constexpr (std::is_same_v<T, F64>)
            return std::bit_cast<std::uint64_t>(sign * magnitude(53));
        else if constexpr (std::is_same_v<T, I64>) {
            const std::int64_t m = static_cast<std::int64_t>(r & ((std::uint64_t{1} << 53) - 1));
            if (m != 0)
                return static_cast<std::uint64_t>(negative ? -m : m);
        } else if constexpr (std::is_same_v<T, U64>) {
            if (const std::uint64_t m = r & ((std::uint64_t{1} << 53) - 1); m != 0)
                return m;
        } else {
            const auto bits = static_cast<typename T::Bits>(r);
            if (bits != 0 && bits != T::poison)
                return bits;
        }
    }
}

std::size_t whole_elements(ElementType type, std::size_t bytes) { return bytes / element_size(type); }

} // namespace

void fill_random_input(ElementType type, std::span<std::byte> bytes, std::uint64_t seed, std::optional<double> upper)
{
    if (upper && type != ElementType::f32 && type != ElementType::f64)
        throw std::invalid_argument(fmt::format("a random fill up to {} is for float and double, not {}", *upper,
                                                to_string(type)));
    with_traits(type, [&]<class T>(T) {
        constexpr std::size_t size = sizeof(typename T::Bits);
        const std::size_t n = whole_elements(type, bytes.size());
        std::mt19937_64 rng(seed);
        const auto draw = [&]() -> typename T::Bits {
            if constexpr (std::is_same_v<T, F32> || std::is_same_v<T, F64>) {
                if (upper) { // |value| in (0, 1], scaled: (0, upper]
                    const double magnitude = std::fabs(T::value(random_bits<T>(rng))) * *upper;
                    if constexpr (std::is_same_v<T, F32>)
                        return std::bit_cast<std::uint32_t>(static_cast<float>(magnitude));
                    else
                        return std::bit_cast<std::uint64_t>(magnitude);
                }
            }
            return random_bits<T>(rng);
        };
        bool constant = true;
        for (std::size_t i = 0; i < n; ++i) {
            store<T>(bytes.data() + i * size, draw());
            constant = constant && load<T>(bytes.data() + i * size) == load<T>(bytes.data());
        }
        // A constant input hides indexing bugs; with few elements of a narrow type it can
        // happen by chance, so redraw the last element until it differs.
        while (n >= 2 && constant) {
            store<T>(bytes.data() + (n - 1) * size, draw());
            constant = load<T>(bytes.data() + (n - 1) * size) == load<T>(bytes.data());
        }
    });
}

namespace {

// `value` in T's bits, or std::invalid_argument saying why T cannot hold it.
template <class T>
typename T::Bits constant_bits(double value, ElementType type)
{
    const auto refuse = [&](const std::string& why) {
        return std::invalid_argument(fmt::format("{} does not fit a buffer of {}: {}", value, to_string(type), why));
    };
    if (!std::isfinite(value))
        throw refuse("not a finite number");
    if constexpr (std::is_same_v<T, F64>)
        return std::bit_cast<std::uint64_t>(value);
    else if constexpr (std::is_same_v<T, F32>) {
        if (std::fabs(value) > std::numeric_limits<float>::max())
            throw refuse("beyond the type's range");
        return std::bit_cast<std::uint32_t>(static_cast<float>(value));
    } else if constexpr (std::is_same_v<T, F16> || std::is_same_v<T, BF16>) {
        // The nearest of the 65,536 patterns' finite values: no conversion to get wrong.
        std::optional<std::uint16_t> best;
        double best_distance = std::numeric_limits<double>::infinity(), largest = 0;
        for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
            const double v = T::value(static_cast<std::uint16_t>(b));
            if (!std::isfinite(v))
                continue;
            largest = std::max(largest, v);
            if (const double d = std::fabs(v - value); d < best_distance) {
                best_distance = d;
                best = static_cast<std::uint16_t>(b);
            }
        }
        if (std::fabs(value) > largest)
            throw refuse(fmt::format("beyond the type's range (largest {})", largest));
        return *best;
    } else {
        using Integer = typename T::Integer;
        if (value != std::trunc(value))
            throw refuse("not a whole number");
        // The bounds as doubles: the lowest is a power of two (exact); the highest rounds up
        // to one for 64 bits, which is beyond the range, hence < rather than <=.
        const double lowest = static_cast<double>(std::numeric_limits<Integer>::lowest());
        const double beyond = static_cast<double>(std::numeric_limits<Integer>::max()) + 1.0;
        if (value < lowest || value >= beyond)
            throw refuse("beyond the type's range");
        const auto bits = static_cast<typename T::Bits>(static_cast<Integer>(value));
        if (bits == T::poison)
            throw refuse("the pattern that marks an output element never written");
        return bits;
    }
}

} // namespace

void fill_constant_input(ElementType type, std::span<std::byte> bytes, double value)
{
    with_traits(type, [&]<class T>(T) {
        const auto bits = constant_bits<T>(value, type);
        constexpr std::size_t size = sizeof(typename T::Bits);
        for (std::size_t i = 0, n = whole_elements(type, bytes.size()); i < n; ++i)
            store<T>(bytes.data() + i * size, bits);
    });
}

void fill_generated_input(ElementType type, std::span<std::byte> bytes, const std::string& expression)
{
    ExpressionScope scope({"i"});
    const Expression generator(expression, "the Generator fill", scope);
    with_traits(type, [&]<class T>(T) {
        constexpr std::size_t size = sizeof(typename T::Bits);
        for (std::size_t i = 0, n = whole_elements(type, bytes.size()); i < n; ++i) {
            scope.set("i", static_cast<double>(i));
            try {
                store<T>(bytes.data() + i * size, constant_bits<T>(generator.evaluate(), type));
            } catch (const std::exception& e) { // a value the type cannot hold; ExpressionError: not finite
                throw std::invalid_argument(fmt::format("element {}: {}", i, e.what()));
            }
        }
    });
}

void fill_input_from_file(std::span<std::byte> bytes, const std::filesystem::path& file)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(file, error);
    if (error)
        throw std::invalid_argument(fmt::format("'{}' cannot be read: {}", file.string(), error.message()));
    if (size != bytes.size())
        throw std::invalid_argument(fmt::format("'{}' holds {} bytes; the buffer is {} bytes", file.string(), size,
                                                bytes.size()));
    std::ifstream in(file, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
        throw std::invalid_argument(fmt::format("'{}' cannot be read", file.string()));
}

void check_constant_input(ElementType type, double value)
{
    with_traits(type, [&]<class T>(T) { (void)constant_bits<T>(value, type); });
}

void fill_poison(ElementType type, std::span<std::byte> bytes)
{
    with_traits(type, [&]<class T>(T) {
        constexpr std::size_t size = sizeof(typename T::Bits);
        for (std::size_t i = 0, n = whole_elements(type, bytes.size()); i < n; ++i)
            store<T>(bytes.data() + i * size, T::poison);
    });
}

bool is_poison(ElementType type, const std::byte* element)
{
    return with_traits(type, [&]<class T>(T) { return load<T>(element) == T::poison; });
}

double element_value(ElementType type, std::span<const std::byte> bytes, std::size_t index)
{
    const std::size_t n = whole_elements(type, bytes.size());
    if (index >= n)
        throw std::out_of_range(fmt::format("element {} is outside a buffer of {} {} elements", index, n, to_string(type)));
    return with_traits(type, [&]<class T>(T) { return T::value(load<T>(bytes.data() + index * sizeof(typename T::Bits))); });
}

Tolerance default_tolerance(ElementType type, Tolerance::Kind kind)
{
    const bool elementwise = kind == Tolerance::Kind::elementwise;
    switch (type) {
    case ElementType::f32:
        return {kind, elementwise ? 1e-5 : 1e-4, 0};
    case ElementType::f64:
        return {kind, elementwise ? 1e-12 : 1e-10, 0};
    case ElementType::f16:
    case ElementType::bf16:
        return {kind, 1e-2, 0};
    case ElementType::i8:
    case ElementType::i32:
    case ElementType::u32:
    case ElementType::i64:
    case ElementType::u8:
    case ElementType::i16:
    case ElementType::u16:
    case ElementType::u64:
        return {kind, 0, 0};
    }
    throw std::invalid_argument(fmt::format("invalid ElementType value {}", static_cast<int>(type)));
}

namespace {

// The first element that is poison, NaN or infinite, as a problem; empty when none.
template <class T>
std::string first_bad_element(std::span<const std::byte> output)
{
    constexpr std::size_t size = sizeof(typename T::Bits);
    for (std::size_t i = 0, n = output.size() / size; i < n; ++i) {
        const auto bits = load<T>(output.data() + i * size);
        if (bits == T::poison)
            return fmt::format("element {} was never written (still poisoned)", i);
        const double v = T::value(bits);
        if (std::isnan(v))
            return fmt::format("element {} is NaN", i);
        if (std::isinf(v))
            return fmt::format("element {} is infinite ({})", i, v);
    }
    return {};
}

} // namespace

OutputReference reference_from_output(ElementType type, std::span<const std::byte> output)
{
    OutputReference out;
    // No reference values: only the scan for unwritten, NaN and infinite elements.
    const VerificationResult scan = verify_output(type, output, ReferenceValues{}, Tolerance{});
    if (!scan.ok) {
        out.problem = scan.problem;
        return out;
    }
    const std::size_t n = output.size() / element_size(type);
    out.values.values.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.values.values.push_back(element_value(type, output, i));
    return out;
}

VerificationResult verify_output(ElementType type, std::span<const std::byte> output,
                                 const ReferenceValues& reference, const Tolerance& tolerance)
{
    const std::size_t size = element_size(type);
    if (output.size() % size != 0)
        throw std::invalid_argument(fmt::format("output of {} bytes is not a whole number of {} elements ({} bytes each)",
                                                output.size(), to_string(type), size));
    const std::size_t n = output.size() / size;
    const bool all = reference.indices.empty();
    // No values at all is "no reference": only the scan below applies.
    if (all && !reference.values.empty() && reference.values.size() != n)
        throw std::invalid_argument(fmt::format("reference has {} values for all {} output elements", reference.values.size(), n));
    if (!all && reference.indices.size() != reference.values.size())
        throw std::invalid_argument(fmt::format("reference has {} indices but {} values", reference.indices.size(),
                                                reference.values.size()));
    if (!reference.scales.empty() && reference.scales.size() != reference.values.size())
        throw std::invalid_argument(fmt::format("reference has {} scales for {} values", reference.scales.size(),
                                                reference.values.size()));
    for (const std::size_t index : reference.indices)
        if (index >= n)
            throw std::invalid_argument(fmt::format("reference index {} is outside the output's {} elements", index, n));

    VerificationResult result;
    result.problem = with_traits(type, [&]<class T>(T) { return first_bad_element<T>(output); });
    if (!result.problem.empty())
        return result;

    // The element named in a failure: elementwise, the failing one with the largest
    // relative error; norm-wise, the one with the largest difference.
    struct Offender {
        std::size_t index = 0;
        double got = 0, expected = 0, relative = 0, score = -1;
    } worst;
    std::size_t failures = 0;
    double sum_diff2 = 0, sum_ref2 = 0;
    const bool elementwise = tolerance.kind == Tolerance::Kind::elementwise;
    for (std::size_t i = 0; i < reference.values.size(); ++i) {
        const std::size_t index = all ? i : reference.indices[i];
        const double expected = reference.values[i];
        const double got = element_value(type, output, index);
        const double diff = std::abs(got - expected);
        const double scale = reference.scales.empty() ? std::abs(expected) : reference.scales[i];
        // Against a zero scale the absolute difference stands in for the relative
        // error, so the number stays finite (it is written to results).
        const double relative = scale != 0 ? diff / scale : diff;
        if (elementwise) {
            result.error = std::max(result.error, relative);
            // Negated so that a NaN in the reference fails rather than passes.
            if (!(diff <= tolerance.relative * scale + tolerance.absolute)) {
                ++failures;
                if (!(relative <= worst.score))
                    worst = {index, got, expected, relative, relative};
            }
        } else if (diff > worst.score) {
            worst = {index, got, expected, relative, diff};
        }
        sum_diff2 += diff * diff;
        sum_ref2 += scale * scale;
    }
    result.checked = reference.values.size();

    if (elementwise) {
        result.ok = failures == 0;
        if (!result.ok)
            result.problem = fmt::format("element {}: got {}, expected {} (relative error {:.3g}{}, tolerance {:.3g} "
                                         "relative + {:.3g} absolute); {} of {} checked elements outside tolerance",
                                         worst.index, worst.got, worst.expected, worst.relative,
                                         reference.scales.empty() ? "" : " of the reference's scale", tolerance.relative,
                                         tolerance.absolute, failures, result.checked);
        return result;
    }

    // Norm-wise: relative to the norm of the reference (or of its scales), or absolute when that norm is zero.
    const bool relative_norm = sum_ref2 > 0;
    result.error = relative_norm ? std::sqrt(sum_diff2 / sum_ref2) : std::sqrt(sum_diff2);
    const double limit = relative_norm ? tolerance.relative : tolerance.absolute;
    result.ok = result.error <= limit;
    if (!result.ok)
        result.problem = fmt::format("norm-wise {} error {:.3g} exceeds {:.3g} over {} checked elements; largest difference "
                                     "at element {}: got {}, expected {}",
                                     relative_norm ? "relative" : "absolute", result.error, limit, result.checked,
                                     worst.index, worst.got, worst.expected);
    return result;
}

} // namespace autotune
