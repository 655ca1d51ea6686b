// Element types of kernel buffers and scalars, as specs name them.
#pragma once

#include <cstddef>
#include <string>

namespace autotune {

enum class ElementType { f16, bf16, f32, f64, i8, i32, u32, i64 };

// "float", "double", "int", "unsigned", "long long", "__half"/"half", "__nv_bfloat16"/
// "bfloat16", "signed char"/"int8_t"; throws std::invalid_argument naming the type and
// listing the known ones.
[[nodiscard]] ElementType parse_element_type(const std::string& name);
[[nodiscard]] std::string to_string(ElementType type); // the C++ spelling: "float", ...
[[nodiscard]] std::size_t element_size(ElementType type);
[[nodiscard]] bool is_floating_point(ElementType type);

} // namespace autotune
