// Element types of kernel buffers and scalars, as specs name them.
#pragma once

#include <cstddef>
#include <string>

namespace autotune {

enum class ElementType { f16, bf16, f32, f64, i8, i32, u32, i64, u8, i16, u16, u64 };

// "float", "double", "int", "unsigned", "long long", "__half"/"half", "__nv_bfloat16"/
// "bfloat16", "signed char"/"int8_t", "unsigned char"/"uint8_t", "short"/"int16_t",
// "unsigned short"/"uint16_t", "unsigned long long"/"uint64_t"; throws
// std::invalid_argument naming the type and listing the known ones.
[[nodiscard]] ElementType parse_element_type(const std::string& name);

// A buffer's element: a type above, or CUDA's vector of 2 to 4 of them (float2, int4,
// uint3, double2): its components are what the tuner fills and verifies, one by one.
struct BufferElement {
    ElementType component = ElementType::f32;
    int components = 1;
};
[[nodiscard]] BufferElement parse_buffer_element(const std::string& name);
[[nodiscard]] std::string to_string(ElementType type); // the C++ spelling: "float", ...
[[nodiscard]] std::size_t element_size(ElementType type);
[[nodiscard]] bool is_floating_point(ElementType type);

// Whether the tuner can pass a scalar argument of `type` (all but __half and bfloat16).
[[nodiscard]] bool is_scalar_argument_type(ElementType type);
// Why `value` cannot be passed as a scalar of `type` ("3e+09 is outside int's range
// -2147483648 to 2147483647", "2.5 is not an integer"), or "" when it can: a cast would
// silently wrap, truncate or become infinity.
[[nodiscard]] std::string scalar_value_error(ElementType type, double value);

} // namespace autotune
