// The roofline picture of one results file's problem, as an SVG: log-log axes of
// operational intensity (flop/byte) against performance (GFLOP/s), the bandwidth and
// compute roofs, the ridge point, every ranked variant as a point and the winner marked.
// Kernels that only move data (no flops) get the bandwidth view: GB/s per variant
// against the bandwidth roof.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace autotune {

// `results` is a results file's document. Throws std::invalid_argument naming what is
// missing when it has no problem figures or ceilings to draw.
[[nodiscard]] std::string roofline_svg(const nlohmann::ordered_json& results);

} // namespace autotune
