// The launch-bound trade-off of one problem, as an SVG: each ranked variant's predicted
// (and, where it ran, measured) performance against its registers per thread, coloured by
// its register policy (none, __launch_bounds__, --maxrregcount, __maxnreg__), over the
// occupancy steps — the register counts where the winner's block loses a block per SM.
// The roofline cannot show this: every variant of a problem has the same intensity.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace autotune {

// `view` is one problem's view of a results file (problem_views.hpp). Throws
// std::invalid_argument naming what is missing (no problem, no ceilings, an arch the
// table does not know).
[[nodiscard]] std::string registers_svg(const nlohmann::ordered_json& view);

} // namespace autotune
