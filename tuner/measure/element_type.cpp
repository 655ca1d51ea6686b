#include "measure/element_type.hpp"

#include "spec/expression.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace autotune {

namespace {

// Every accepted spelling; the first spelling of each type is its to_string.
constexpr std::array<std::pair<std::string_view, ElementType>, 22> spellings{{
    {"__half", ElementType::f16},
    {"half", ElementType::f16},
    {"__nv_bfloat16", ElementType::bf16},
    {"bfloat16", ElementType::bf16},
    {"float", ElementType::f32},
    {"double", ElementType::f64},
    {"signed char", ElementType::i8},
    {"int8_t", ElementType::i8},
    {"int", ElementType::i32},
    {"int32_t", ElementType::i32},
    {"unsigned", ElementType::u32},
    {"uint32_t", ElementType::u32},
    {"long long", ElementType::i64},
    {"int64_t", ElementType::i64},
    {"unsigned char", ElementType::u8},
    {"uint8_t", ElementType::u8},
    {"short", ElementType::i16},
    {"int16_t", ElementType::i16},
    {"unsigned short", ElementType::u16},
    {"uint16_t", ElementType::u16},
    {"unsigned long long", ElementType::u64},
    {"uint64_t", ElementType::u64},
}};

} // namespace

ElementType parse_element_type(const std::string& name)
{
    for (const auto& [spelling, type] : spellings)
        if (spelling == name)
            return type;
    std::string known;
    for (const auto& [spelling, type] : spellings)
        known += fmt::format("{}\"{}\"", known.empty() ? "" : ", ", spelling);
    throw std::invalid_argument(fmt::format("unknown element type \"{}\"; known types: {}", name, known));
}

BufferElement parse_buffer_element(const std::string& name)
{
    static const std::pair<std::string_view, ElementType> vectors[] = {
        {"float", ElementType::f32}, {"double", ElementType::f64}, {"int", ElementType::i32}, {"uint", ElementType::u32}};
    const char last = name.empty() ? '\0' : name.back();
    if (last >= '2' && last <= '4')
        for (const auto& [base, type] : vectors)
            if (name.size() == base.size() + 1 && name.compare(0, base.size(), base) == 0)
                return {type, last - '0'};
    try {
        return {parse_element_type(name), 1};
    } catch (const std::invalid_argument&) {
        throw std::invalid_argument(fmt::format("unknown element type \"{}\"; known: the scalar types ({}), and their "
                                                "CUDA vectors float2..4, double2..4, int2..4, uint2..4", name,
                                                "float, double, int, unsigned, long long, __half, __nv_bfloat16, int8_t, "
                                                "uint8_t, int16_t, uint16_t, uint64_t"));
    }
}

std::string to_string(ElementType type)
{
    for (const auto& [spelling, t] : spellings)
        if (t == type)
            return std::string(spelling);
    throw std::invalid_argument(fmt::format("invalid ElementType value {}", static_cast<int>(type)));
}

std::size_t element_size(ElementType type)
{
    switch (type) {
    case ElementType::i8:
    case ElementType::u8:
        return 1;
    case ElementType::f16:
    case ElementType::bf16:
    case ElementType::i16:
    case ElementType::u16:
        return 2;
    case ElementType::f32:
    case ElementType::i32:
    case ElementType::u32:
        return 4;
    case ElementType::f64:
    case ElementType::i64:
    case ElementType::u64:
        return 8;
    }
    throw std::invalid_argument(fmt::format("invalid ElementType value {}", static_cast<int>(type)));
}

bool is_scalar_argument_type(ElementType type) { return type != ElementType::f16 && type != ElementType::bf16; }

std::string scalar_value_error(ElementType type, double value)
{
    if (!is_scalar_argument_type(type))
        return fmt::format("{} scalars are not supported", to_string(type));
    if (!std::isfinite(value))
        return fmt::format("{} is not a finite number", value);
    if (type == ElementType::f64)
        return "";
    if (type == ElementType::f32)
        return std::fabs(value) <= std::numeric_limits<float>::max()
                   ? ""
                   : fmt::format("{:g} is outside float's range (magnitude at most {:g})", value,
                                 std::numeric_limits<float>::max());
    if (value != std::floor(value))
        return fmt::format("{} is not an integer ({} takes integers)", value, to_string(type));
    // Integers: the type's range; a long long's ends at 2^53, where a spec's expression (a
    // double) stops holding every integer.
    const auto [least, most] = [type]() -> std::pair<double, double> {
        switch (type) {
        case ElementType::i8: return {-128.0, 127.0};
        case ElementType::u8: return {0.0, 255.0};
        case ElementType::i16: return {-32768.0, 32767.0};
        case ElementType::u16: return {0.0, 65535.0};
        case ElementType::u64: return {0.0, static_cast<double>(largest_exact_integer)};
        case ElementType::i32: return {-2147483648.0, 2147483647.0};
        case ElementType::u32: return {0.0, 4294967295.0};
        default: return {-static_cast<double>(largest_exact_integer), static_cast<double>(largest_exact_integer)};
        }
    }();
    if (value < least || value > most)
        return fmt::format("{:.17g} is outside {}'s range {:.17g} to {:.17g}", value, to_string(type), least, most);
    return "";
}

bool is_floating_point(ElementType type)
{
    return type == ElementType::f16 || type == ElementType::bf16 || type == ElementType::f32 ||
           type == ElementType::f64;
}

} // namespace autotune
