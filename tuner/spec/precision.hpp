// Which compute roof a kernel's flops run against (its [cost] precision): fp32 SIMT is
// not the tensor roof.
#pragma once

#include <string>

namespace autotune {

enum class Precision { fp32, fp16_tensor, bf16_tensor, int8_tensor };
[[nodiscard]] std::string to_string(Precision precision);
// "fp32", "fp16_tensor", "bf16_tensor", "int8_tensor"; throws std::invalid_argument naming it.
[[nodiscard]] Precision parse_precision(const std::string& text);

} // namespace autotune
