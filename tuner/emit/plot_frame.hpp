// The page every report plot of one problem shares: its size, where the axes go, and the
// title (kernel, arch, problem) and subtitle (device and ceilings) above them.
#pragma once

#include "emit/svg_canvas.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace autotune {

struct PlotFrame {
    std::string title, subtitle;
    double width = 760, height = 500;
    double left = 80, right = 730, top = 62, bottom = 420; // the axes' frame, in pixels

    // A canvas with the title and subtitle drawn.
    [[nodiscard]] svg::Canvas canvas() const;
    [[nodiscard]] double legend_baseline() const { return height - 16; }
};

// `view` is one problem's view of a results file; `topic` ends the title ("" for none).
// Throws std::invalid_argument naming what is missing when the view has no problem or
// no ceilings to draw against.
[[nodiscard]] PlotFrame plot_frame(const nlohmann::ordered_json& view, std::string_view topic);

} // namespace autotune
