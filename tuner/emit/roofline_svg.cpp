#include "emit/roofline_svg.hpp"

#include "emit/number_format.hpp"
#include "emit/plot_frame.hpp"
#include "emit/plotted_variants.hpp"
#include "emit/svg_canvas.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;
using svg::Anchor;
using Offsets = std::vector<std::pair<double, double>>;

constexpr const char* variant_colour = "#1f5fa8";

void draw_variant_legend(svg::Canvas& canvas, const PlotFrame& frame, bool measured)
{
    const std::vector<svg::LegendEntry> legend{
        {svg::circle_marker(0, 0, measured ? variant_colour : "white", variant_colour, nullptr),
         measured ? "variant, measured" : "variant, predicted by the model (nothing measured)"},
        {svg::winner_marker(0, 0, nullptr), "winner"}};
    svg::draw_legend(canvas, frame.left, frame.legend_baseline(), legend);
}

std::string roofline_view(const json& results, const PlotFrame& frame)
{
    const json& problem = results.at("problems").at(0);
    const json& ceilings = problem.at("ceilings");
    const double compute = ceilings.at("compute_gflops").get<double>();
    const double bandwidth = ceilings.at("bandwidth_gbs").get<double>();
    const double ridge = compute / bandwidth;
    // A problem that moves no bytes has no intensity (null) to place on the x axis.
    if (!problem.at("intensity").is_number())
        throw std::invalid_argument("the problem moves no bytes: it has no operational intensity to place");
    const double intensity = problem.at("intensity").get<double>();
    const auto points = plotted_variants(results, false);
    const bool measured = std::any_of(points.begin(), points.end(), [](const auto& p) { return p.measured.has_value(); });

    // x: the problem and the ridge with room either side; y: from the lowest point or where
    // the bandwidth roof enters, to just above the compute roof (nothing is drawn higher).
    const svg::Axis x = svg::fitted_axis(std::min(intensity, ridge), std::max(intensity, ridge), true, 6,
                                         frame.left, frame.right);
    double lowest = bandwidth * x.lo, highest = compute;
    for (const auto& p : points) {
        lowest = std::min(lowest, p.shown());
        highest = std::max(highest, p.shown());
    }
    const svg::Axis y = svg::fitted_axis(lowest, highest, true, 1.3, frame.bottom, frame.top);

    svg::Canvas canvas = frame.canvas();
    svg::draw_axes(canvas, x, y, "operational intensity (flop/byte)",
                   measured ? "performance (GFLOP/s)" : "predicted performance (GFLOP/s)");
    // Roofs: bandwidth × intensity up to the ridge, then the compute roof.
    canvas.shape(fmt::format(R"svg(<polyline points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="none" stroke="black" stroke-width="2"/>)svg",
                             x.pixel(x.lo), y.pixel(bandwidth * x.lo), x.pixel(ridge), y.pixel(compute), x.pixel(x.hi),
                             y.pixel(compute)));
    canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#888" stroke-dasharray="4 3"/>)svg",
                             x.pixel(ridge), y.pixel(compute), frame.bottom));
    // The problem's intensity, and a point per variant on it.
    const double column = x.pixel(intensity);
    canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}" stroke-dasharray="2 3"/>)svg",
                             column, frame.top, frame.bottom, variant_colour));
    const PlottedVariant* winner = nullptr;
    for (const auto& p : points) {
        const svg::PointValues values{intensity, p.shown()};
        const double py = y.pixel(p.shown());
        canvas.keep_clear(svg::marker_box(column, py));
        if (p.winner)
            winner = &p;
        else
            canvas.shape(svg::circle_marker(column, py, p.measured ? variant_colour : "white", variant_colour, &values,
                                            fmt::format("#{} {} GFLOP/s", p.index, format_figure(p.shown()))));
    }
    // Labels, the most telling first; each takes the first place where it covers no other
    // text and no point. Labels lean away from the column toward the roomier side.
    const bool lean_left = column > (frame.left + frame.right) / 2;
    const Anchor away = lean_left ? Anchor::end : Anchor::start;
    const double side = lean_left ? -1 : 1;
    if (winner) {
        const double py = y.pixel(winner->shown());
        const svg::PointValues values{intensity, winner->shown()};
        canvas.shape(svg::winner_marker(column, py, &values, fmt::format("winner #{}", winner->index)));
        canvas.label(column, py, fmt::format("winner #{}: {} GFLOP/s", winner->index, format_figure(winner->shown())),
                     {away, "#d62728"},
                     Offsets{{10 * side, 4}, {10 * side, -10}, {10 * side, 18}, {10 * side, -24}, {10 * side, 32}});
    }
    const Offsets below{{0, 16}, {0, 30}, {0, 44}, {0, 58}, {0, 72}};
    canvas.label(column + 8 * side, frame.top, fmt::format("this problem: {} flop/byte, {}-bound", format_figure(intensity),
                                                          problem.at("bound").get<std::string>()),
                 {away, variant_colour}, below);
    canvas.label(x.pixel(ridge), y.pixel(compute), fmt::format("ridge {} flop/byte", format_figure(ridge)), {Anchor::start, "#555"},
                 Offsets{{6, 16}, {-6, -8}, {6, 30}, {6, 44}, {6, 58}});
    canvas.label(frame.right - 4, y.pixel(compute), fmt::format("peak {} GFLOP/s", format_figure(compute)),
                 {Anchor::end}, Offsets{{0, -6}, {0, 16}, {-120, -6}, {-120, 16}});
    // The bandwidth roof's label sits under it, right of a point along the slope: the roof
    // rises to the right, away from the text.
    Offsets along;
    for (double t : {0.3, 0.5, 0.15, 0.7})
        along.emplace_back(x.pixel(x.lo * std::pow(ridge / x.lo, t)) - x.pixel(x.lo) + 8,
                           y.pixel(bandwidth * x.lo * std::pow(ridge / x.lo, t)) - y.pixel(bandwidth * x.lo) + 14);
    canvas.label(x.pixel(x.lo), y.pixel(bandwidth * x.lo), fmt::format("{} GB/s", format_figure(bandwidth)),
                 {Anchor::start}, along);
    draw_variant_legend(canvas, frame, measured);
    return canvas.finish();
}

std::string bandwidth_view(const json& results, const PlotFrame& frame)
{
    const double bandwidth = results.at("problems").at(0).at("ceilings").at("bandwidth_gbs").get<double>();
    auto points = plotted_variants(results, true);
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.shown() > b.shown(); });
    const bool measured = std::any_of(points.begin(), points.end(), [](const auto& p) { return p.measured.has_value(); });
    double highest = bandwidth;
    for (const auto& p : points)
        highest = std::max(highest, p.shown());
    const svg::Axis x = svg::fitted_axis(1, static_cast<double>(std::max<std::size_t>(points.size(), 1)), false, 0.03,
                                         frame.left, frame.right);
    const svg::Axis y = svg::zero_based_axis(highest, frame.bottom, frame.top);

    svg::Canvas canvas = frame.canvas();
    svg::draw_axes(canvas, x, y, "variants, fastest first (no flops: the bandwidth view of the roofline)",
                   measured ? "achieved bandwidth (GB/s, bytes read + written)"
                            : "predicted bandwidth (GB/s, bytes read + written)");
    canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="black" stroke-width="2"/>)svg",
                             frame.left, y.pixel(bandwidth), frame.right));
    const PlottedVariant* winner = nullptr;
    double winner_x = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        const double position = static_cast<double>(i + 1);
        const svg::PointValues values{position, p.shown()};
        canvas.keep_clear(svg::marker_box(x.pixel(position), y.pixel(p.shown())));
        if (p.winner) {
            winner = &p;
            winner_x = position;
            canvas.shape(svg::winner_marker(x.pixel(position), y.pixel(p.shown()), &values, fmt::format("winner #{}", p.index)));
        } else {
            canvas.shape(svg::circle_marker(x.pixel(position), y.pixel(p.shown()), p.measured ? variant_colour : "white",
                                            variant_colour, &values, fmt::format("#{} {} GB/s", p.index, format_figure(p.shown()))));
        }
    }
    if (winner)
        canvas.label(x.pixel(winner_x), y.pixel(winner->shown()),
                     fmt::format("winner #{}: {} GB/s", winner->index, format_figure(winner->shown())),
                     {Anchor::start, "#d62728"}, Offsets{{10, 18}, {10, 32}, {10, 46}, {10, -10}, {10, 60}});
    canvas.label(frame.right - 4, y.pixel(bandwidth), fmt::format("bandwidth roof {} GB/s", format_figure(bandwidth)),
                 {Anchor::end}, Offsets{{0, -6}, {0, 16}, {0, 30}});
    draw_variant_legend(canvas, frame, measured);
    return canvas.finish();
}

} // namespace

std::string roofline_svg(const json& results)
{
    const PlotFrame frame = plot_frame(results, "");
    return results.at("problems").at(0).at("flops").get<double>() > 0 ? roofline_view(results, frame)
                                                                        : bandwidth_view(results, frame);
}

} // namespace autotune
