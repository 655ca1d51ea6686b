#include "spec/precision.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

std::string to_string(Precision precision)
{
    switch (precision) {
    case Precision::fp32: return "fp32";
    case Precision::fp16_tensor: return "fp16_tensor";
    case Precision::bf16_tensor: return "bf16_tensor";
    case Precision::int8_tensor: return "int8_tensor";
    }
    return "fp32";
}

Precision parse_precision(const std::string& text)
{
    for (Precision p : {Precision::fp32, Precision::fp16_tensor, Precision::bf16_tensor, Precision::int8_tensor})
        if (to_string(p) == text)
            return p;
    throw std::invalid_argument(
        fmt::format("precision '{}' is not one of: fp32, fp16_tensor, bf16_tensor, int8_tensor", text));
}

} // namespace autotune
