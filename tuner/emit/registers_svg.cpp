#include "emit/registers_svg.hpp"

#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "emit/number_format.hpp"
#include "emit/plot_frame.hpp"
#include "emit/plotted_variants.hpp"
#include "emit/svg_canvas.hpp"
#include "predict/occupancy_steps.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;
using svg::Anchor;
using Offsets = std::vector<std::pair<double, double>>;

struct PolicyLook {
    const char* kind;   // register_policy.kind
    const char* colour;
    const char* name;   // as a CUDA programmer writes it
};

constexpr PolicyLook policy_looks[] = {
    {"none", "#1f77b4", "no register policy"},
    {"launch_bounds", "#ff7f0e", "__launch_bounds__"},
    {"maxrregcount", "#2ca02c", "--maxrregcount"},
    {"maxnreg", "#9467bd", "__maxnreg__"},
};
constexpr PolicyLook combined_look{"", "#8c564b", "policies combined"};

const PolicyLook& look(const std::string& kind)
{
    for (const auto& l : policy_looks)
        if (kind == l.kind)
            return l;
    return combined_look; // "launch_bounds+maxrregcount" and the like
}

// The footprint whose steps are drawn: the winner's (the best ranked when none won).
struct StepSource {
    KernelFootprint footprint;
    std::size_t index = 0;
};

StepSource step_source(const json& view)
{
    const json* chosen = nullptr;
    const json& winner = view.at("problems").at(0).at("winner");
    for (const auto& v : view.at("variants")) {
        if (v.value("rank", json()).is_null())
            continue;
        if (!winner.is_null() ? v.at("index") == winner.at("index")
                              : !chosen || v.at("rank").get<std::size_t>() < chosen->at("rank").get<std::size_t>())
            chosen = &v;
    }
    if (!chosen)
        throw std::invalid_argument("no ranked variant to draw registers for");
    StepSource source;
    source.index = chosen->at("index").get<std::size_t>();
    int threads = 1;
    for (const auto& d : chosen->at("block"))
        threads *= d.get<int>();
    source.footprint = {threads, 0, chosen->value("shared_static", std::int64_t{0}),
                        chosen->value("dynamic_shared_bytes", std::int64_t{0}), chosen->value("barriers", 1)};
    return source;
}

const ArchSpec& arch_of(const json& view)
{
    const std::string arch = view.at("arch").get<std::string>();
    try {
        return find_arch_spec(parse_arch(arch).number());
    } catch (const ArchError& e) {
        throw std::invalid_argument(fmt::format("no occupancy steps for arch '{}': {}", arch, e.what()));
    }
}

} // namespace

std::string registers_svg(const json& view)
{
    PlotFrame frame = plot_frame(view, "registers");
    const bool bandwidth_view = view.at("problems").at(0).at("flops").get<double>() <= 0;
    const char* unit = bandwidth_view ? "GB/s" : "GFLOP/s";
    const auto points = plotted_variants(view, bandwidth_view);
    const bool measured = std::any_of(points.begin(), points.end(), [](const auto& p) { return p.measured.has_value(); });
    const StepSource source = step_source(view);
    const auto steps = occupancy_steps(arch_of(view), source.footprint);

    // x: the variants' register counts, widened to the step just outside them on either
    // side (how far the next cliff is) and to at least 16 registers; y: from zero.
    int fewest = 255, most = 1;
    double highest = 0;
    for (const auto& p : points) {
        fewest = std::min(fewest, p.registers);
        most = std::max(most, p.registers);
        highest = std::max({highest, p.predicted, p.measured.value_or(0)});
    }
    fewest = std::min(fewest, most);
    double lo = fewest, hi = most;
    for (std::size_t k = 1; k < steps.size(); ++k) {
        if (steps[k].registers <= fewest)
            lo = steps[k].registers - 1; // the last step at or below the fewest, the count before it
        if (steps[k].registers > most && hi == most)
            hi = steps[k].registers;
    }
    if (hi - lo < 16) {
        const double middle = (lo + hi) / 2;
        lo = middle - 8, hi = middle + 8;
    }
    const svg::Axis x = svg::fitted_axis(std::max(lo, 0.0), hi, false, 0.04, frame.left, frame.right);
    const svg::Axis y = svg::zero_based_axis(highest, frame.bottom, frame.top);

    // Byte counts stay exact: rounding 1024 to 1020 would misstate the footprint.
    const std::int64_t shared = source.footprint.static_shared_bytes + source.footprint.dynamic_shared_bytes;
    frame.subtitle = fmt::format("dashed: a block per SM lost (the winner's block: {} threads{}); top: blocks per SM",
                                 source.footprint.threads_per_block, shared > 0 ? fmt::format(", {} B shared", shared) : "");
    svg::Canvas canvas = frame.canvas();
    svg::draw_axes(canvas, x, y, "registers per thread",
                   measured ? fmt::format("performance ({}): ● measured, ○ predicted", unit)
                            : fmt::format("predicted performance ({})", unit));

    // Every marker first, so the step counts and the winner's label keep clear of them.
    const PlottedVariant* winner = nullptr;
    for (const auto& p : points) {
        const double px = x.pixel(p.registers);
        const std::string colour = look(p.policy).colour;
        const svg::PointValues predicted{static_cast<double>(p.registers), p.predicted};
        canvas.keep_clear(svg::marker_box(px, y.pixel(p.predicted), 4));
        if (p.measured) {
            const svg::PointValues values{static_cast<double>(p.registers), *p.measured};
            canvas.keep_clear(svg::marker_box(px, y.pixel(*p.measured), 4));
            canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}" stroke-opacity="0.4"/>)svg",
                                     px, y.pixel(p.predicted), y.pixel(*p.measured), colour));
            canvas.shape(svg::circle_marker(px, y.pixel(*p.measured), colour, colour, &values,
                                            fmt::format("#{} {} regs, {} {} measured", p.index, p.registers,
                                                        format_figure(*p.measured), unit)));
        }
        canvas.shape(svg::circle_marker(px, y.pixel(p.predicted), "white", colour, &predicted,
                                        fmt::format("#{} {} regs, {} {} predicted, {}", p.index, p.registers,
                                                    format_figure(p.predicted), unit, p.policy)));
        if (p.winner)
            winner = &p;
    }
    // The steps inside the range, and the blocks per SM between them along the top.
    std::vector<double> edges{x.lo};
    std::vector<int> blocks{steps.front().blocks_per_sm};
    for (std::size_t k = 1; k < steps.size(); ++k) {
        const double at = steps[k].registers - 0.5; // between the last count that kept the block and the first that lost it
        if (at <= x.lo)
            blocks.back() = steps[k].blocks_per_sm;
        else if (at < x.hi) {
            canvas.shape(fmt::format(R"svg(<line class="step" x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#777" stroke-dasharray="5 4" data-registers="{3}"/>)svg",
                                     x.pixel(at), frame.top, frame.bottom, steps[k].registers));
            edges.push_back(at);
            blocks.push_back(steps[k].blocks_per_sm);
        }
    }
    edges.push_back(x.hi);
    for (std::size_t k = 0; k < blocks.size(); ++k)
        canvas.label((x.pixel(edges[k]) + x.pixel(edges[k + 1])) / 2, frame.top + 14, std::to_string(blocks[k]),
                     {Anchor::middle, "#555"}, Offsets{{0, 0}, {0, 14}});
    if (winner) {
        const double px = x.pixel(winner->registers), py = y.pixel(winner->shown());
        const svg::PointValues values{static_cast<double>(winner->registers), winner->shown()};
        canvas.shape(svg::winner_marker(px, py, &values, fmt::format("winner #{}", winner->index)));
        const std::string text = fmt::format("winner #{}: {} {}, {} registers", winner->index,
                                             format_figure(winner->shown()), unit, winner->registers);
        const bool lean_left = px > (frame.left + frame.right) / 2;
        canvas.label(px, py, text, {lean_left ? Anchor::end : Anchor::start, "#d62728"},
                     lean_left ? Offsets{{-10, 4}, {-10, -10}, {-10, 18}, {-10, -24}, {-10, 32}, {-10, 46}}
                               : Offsets{{10, 4}, {10, -10}, {10, 18}, {10, -24}, {10, 32}, {10, 46}});
    }
    // The legend names the policies present, in a fixed order.
    std::vector<svg::LegendEntry> legend;
    auto add = [&](const PolicyLook& l) {
        if (std::any_of(points.begin(), points.end(), [&](const auto& p) { return &look(p.policy) == &l; }))
            legend.push_back({svg::circle_marker(0, 0, l.colour, l.colour, nullptr), l.name});
    };
    for (const auto& l : policy_looks)
        add(l);
    add(combined_look);
    legend.push_back({svg::winner_marker(0, 0, nullptr), "winner"});
    svg::draw_legend(canvas, frame.left, frame.legend_baseline(), legend);
    return canvas.finish();
}

} // namespace autotune
