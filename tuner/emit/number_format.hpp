// The one way the report writes a figure, in its Markdown and its plots alike, so that
// "1100 GFLOP" never stands beside "1.37e+03 flop/byte".
#pragma once

#include <string>

namespace autotune {

// `significant` digits, trailing zeros dropped, never an exponent: plain digits below a
// million (0.0123, 12.6, 1370, 66900), an SI suffix from a million up (1.1M, 2.5G).
// Non-finite values come out as "–".
[[nodiscard]] std::string format_figure(double value, int significant = 3);

} // namespace autotune
