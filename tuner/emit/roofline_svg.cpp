#include "emit/roofline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

constexpr double width = 760, height = 500;
constexpr double left = 80, right = 30, top = 50, bottom = 70;

struct Point {
    double value = 0;   // GFLOP/s (roofline view) or GB/s (bandwidth view)
    bool measured = false;
    bool winner = false;
    std::string label;
};

std::string escape(const std::string& text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// Decades spanning [lo, hi] for a log axis.
std::pair<double, double> decades(double lo, double hi)
{
    return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
}

// Axis ticks readable at a glance: 100, 1k, 10k, 1M rather than 1e+06.
std::string tick(double value)
{
    if (value >= 1e6)
        return fmt::format("{:g}M", value / 1e6);
    if (value >= 1e3)
        return fmt::format("{:g}k", value / 1e3);
    return fmt::format("{:g}", value);
}

std::string header(const std::string& title, const std::string& subtitle)
{
    return fmt::format(R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{2}" y="22" font-size="15" font-weight="bold">{3}</text>
<text x="{2}" y="40" fill="#555">{4}</text>
)svg",
                       width, height, left, escape(title), escape(subtitle));
}

std::string legend(bool measured)
{
    const double y = height - 18;
    return fmt::format(R"svg(<circle cx="{0}" cy="{1}" r="4" fill="{2}" stroke="#1f5fa8"/><text x="{3}" y="{4}">{5}</text>
<path d="M {6} {7} l 4 -9 l 4 9 l -9 -5.5 h 10 z" fill="#d62728"/><text x="{8}" y="{4}">winner</text>
)svg",
                       left + 6, y - 4, measured ? "#1f5fa8" : "none", left + 16, y,
                       measured ? "variant, measured" : "variant, predicted by the model (nothing measured)",
                       left + 380, y, left + 396);
}

std::vector<Point> points(const json& results, bool bandwidth_view)
{
    std::vector<Point> out;
    const json& problem = results.at("problems").at(0);
    const std::size_t winner = problem.at("winner").is_null() ? SIZE_MAX : problem.at("winner").at("index").get<std::size_t>();
    const double flops = problem.at("flops").get<double>();
    const double bytes = problem.at("bytes").get<double>();
    const json& ceilings = problem.at("ceilings");
    const double bound_seconds = std::max(flops / (ceilings.at("compute_gflops").get<double>() * 1e9),
                                          bytes / (ceilings.at("bandwidth_gbs").get<double>() * 1e9));
    for (const auto& v : results.at("variants")) {
        if (v.value("rank", json()).is_null())
            continue;
        Point p;
        p.winner = v.at("index").get<std::size_t>() == winner;
        p.label = fmt::format("#{}", v.at("index").get<std::size_t>());
        if (!v.at("roofline_fraction").is_null() && !v.at("gflops").is_null()) {
            p.measured = true;
            p.value = bandwidth_view ? v.at("gbps").get<double>() : v.at("gflops").get<double>();
        } else {
            // Predicted: the model's fraction of the least time the ceilings allow.
            const double seconds = bound_seconds / std::max(v.at("predicted_fraction").get<double>(), 1e-9);
            p.value = (bandwidth_view ? bytes : flops) / seconds / 1e9;
        }
        if (p.value > 0)
            out.push_back(p);
    }
    return out;
}

std::string roofline_view(const json& results, const std::string& title, const std::string& subtitle)
{
    const json& problem = results.at("problems").at(0);
    const json& ceilings = problem.at("ceilings");
    const double compute = ceilings.at("compute_gflops").get<double>();
    const double bandwidth = ceilings.at("bandwidth_gbs").get<double>();
    const double ridge = compute / bandwidth;
    const double intensity = problem.at("intensity").get<double>();
    const auto pts = points(results, false);
    double lowest = compute;
    for (const auto& p : pts)
        lowest = std::min(lowest, p.value);
    const auto [x0, x1] = decades(std::min(intensity, ridge) / 10, std::max(intensity, ridge) * 10);
    const auto [y0, y1] = decades(std::min(lowest, bandwidth * x0) / 2, compute * 2);
    auto px = [&, x0 = x0, x1 = x1](double x) { return left + (std::log10(x) - std::log10(x0)) / (std::log10(x1) - std::log10(x0)) * (width - left - right); };
    auto py = [&, y0 = y0, y1 = y1](double y) { return height - bottom - (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0)) * (height - top - bottom); };

    std::string svg = header(title, subtitle);
    // Grid and axes, one line per decade.
    for (double x = x0; x <= x1 * 1.001; x *= 10)
        svg += fmt::format(R"svg(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#ddd"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>
)svg", px(x), top, height - bottom, height - bottom + 16, tick(x));
    for (double y = y0; y <= y1 * 1.001; y *= 10)
        svg += fmt::format(R"svg(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#ddd"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5}</text>
)svg", left, py(y), width - right, left - 6, py(y) + 4, tick(y));
    svg += fmt::format(R"svg(<text x="{}" y="{}" text-anchor="middle">operational intensity (flop/byte)</text>
<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">performance (GFLOP/s)</text>
)svg", (left + width - right) / 2, height - bottom + 36, (top + height - bottom) / 2);
    // Roofs: bandwidth × intensity up to the ridge, then the compute roof.
    svg += fmt::format(R"svg(<polyline points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="none" stroke="black" stroke-width="2"/>
<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{:.1f}" stroke="#888" stroke-dasharray="4 3"/>
<text x="{:.1f}" y="{:.1f}">ridge {:.3g} flop/byte</text>
<text x="{:.1f}" y="{:.1f}" text-anchor="end">peak {:.0f} GFLOP/s</text>
<text x="{:.1f}" y="{:.1f}" transform="rotate(-38 {:.1f} {:.1f})">{:.0f} GB/s</text>
)svg",
                       px(x0), py(bandwidth * x0), px(ridge), py(compute), px(x1), py(compute), px(ridge),
                       height - bottom, px(ridge), py(compute), px(ridge) + 6, py(compute) + 16, ridge,
                       width - right - 4, py(compute) - 6, compute, px(x0) + 30, py(bandwidth * x0 * 3.2) - 6,
                       px(x0) + 30, py(bandwidth * x0 * 3.2) - 6, bandwidth);
    // The problem's intensity, and a point per variant on it; labels go left of the line
    // when it stands in the right half, so they stay inside the picture.
    const bool flip = px(intensity) > (left + width - right) / 2;
    const double label_x = flip ? px(intensity) - 8 : px(intensity) + 8;
    const char* anchor = flip ? "end" : "start";
    svg += fmt::format(R"svg(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#1f5fa8" stroke-dasharray="2 3"/>
<text x="{3:.1f}" y="{4}" fill="#1f5fa8" text-anchor="{7}">this problem: {5:.3g} flop/byte, {6}-bound</text>
)svg", px(intensity), top, height - bottom, label_x, top + 12, intensity,
                       problem.at("bound").get<std::string>(), anchor);
    for (const auto& p : pts)
        if (!p.winner)
            svg += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}" stroke="#1f5fa8" fill-opacity="0.5"><title>{} {:.4g} GFLOP/s</title></circle>
)svg", px(intensity), py(p.value), p.measured ? "#1f5fa8" : "none", p.label, p.value);
    for (const auto& p : pts)
        if (p.winner)
            svg += fmt::format(R"svg(<path d="M {0:.1f} {1:.1f} l 5 -11 l 5 11 l -11 -7 h 12 z" fill="#d62728"><title>winner {2} {3:.4g} GFLOP/s</title></path>
<text x="{4:.1f}" y="{5:.1f}" fill="#d62728" text-anchor="{6}">winner {2}: {3:.0f} GFLOP/s</text>
)svg", px(intensity) - 5, py(p.value) + 4, p.label, p.value, flip ? label_x - 6 : label_x + 6, py(p.value) + 4,
                               anchor);
    return svg + legend(!pts.empty() && pts.front().measured) + "</svg>\n";
}

std::string bandwidth_view(const json& results, const std::string& title, const std::string& subtitle)
{
    const double bandwidth = results.at("problems").at(0).at("ceilings").at("bandwidth_gbs").get<double>();
    auto pts = points(results, true);
    std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.value > b.value; });
    const double y1 = bandwidth * 1.15;
    const double n = static_cast<double>(std::max<std::size_t>(pts.size(), 1));
    auto px = [&](double i) { return left + (i + 0.5) / n * (width - left - right); };
    auto py = [&](double y) { return height - bottom - y / y1 * (height - top - bottom); };
    std::string svg = header(title, subtitle);
    const double step = std::pow(10.0, std::floor(std::log10(y1))) / (y1 / std::pow(10.0, std::floor(std::log10(y1))) < 3 ? 4 : 1);
    for (double y = 0; y <= y1; y += step)
        svg += fmt::format(R"svg(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#ddd"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5:g}</text>
)svg", left, py(y), width - right, left - 6, py(y) + 4, y);
    svg += fmt::format(R"svg(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="black" stroke-width="2"/>
<text x="{3}" y="{4:.1f}" text-anchor="end">bandwidth roof {5:.4g} GB/s</text>
<text x="{6}" y="{7}" text-anchor="middle">variants, fastest first (no flops: the bandwidth view of the roofline)</text>
<text transform="translate(18 {8}) rotate(-90)" text-anchor="middle">achieved bandwidth (GB/s, bytes read + written)</text>
)svg", left, py(bandwidth), width - right, width - right - 4, py(bandwidth) - 6, bandwidth,
                       (left + width - right) / 2, height - bottom + 36, (top + height - bottom) / 2);
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Point& p = pts[i];
        if (p.winner)
            svg += fmt::format(R"svg(<path d="M {0:.1f} {1:.1f} l 5 -11 l 5 11 l -11 -7 h 12 z" fill="#d62728"><title>winner {2} {3:.4g} GB/s</title></path>
<text x="{4:.1f}" y="{5:.1f}" fill="#d62728">winner {2}: {3:.4g} GB/s</text>
)svg", px(static_cast<double>(i)) - 5, py(p.value) + 4, p.label, p.value, px(static_cast<double>(i)) + 10, py(p.value) - 10);
        else
            svg += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}" stroke="#1f5fa8" fill-opacity="0.5"><title>{} {:.4g} GB/s</title></circle>
)svg", px(static_cast<double>(i)), py(p.value), p.measured ? "#1f5fa8" : "none", p.label, p.value);
    }
    return svg + legend(!pts.empty() && pts.front().measured) + "</svg>\n";
}

} // namespace

std::string roofline_svg(const json& results)
{
    if (!results.contains("problems") || results.at("problems").empty())
        throw std::invalid_argument("results have no problems array: rerun the tuner to rank them");
    const json& problem = results.at("problems").at(0);
    if (!problem.contains("ceilings") || problem.at("ceilings").is_null())
        throw std::invalid_argument(fmt::format("results for {} have no ceilings: no device known for the arch "
                                                "(tune with --device)", results.at("arch").get<std::string>()));
    const std::string device = results.at("device").is_null()
                                   ? fmt::format("{} (datasheet, nothing measured)",
                                                 results.at("roofline_device").is_null() ? "no device"
                                                     : results.at("roofline_device").at("key").get<std::string>())
                                   : results.at("device").at("name").get<std::string>();
    std::string variables;
    for (const auto& [name, value] : problem.at("variables").items())
        variables += fmt::format("{}{}={}", variables.empty() ? "" : ", ", name, value.get<std::int64_t>());
    const std::string title = fmt::format("{}, {}: {}", results.at("kernel").get<std::string>(),
                                          results.at("arch").get<std::string>(), variables);
    const std::string subtitle = fmt::format("{}; ceilings from {}", device,
                                             problem.at("ceilings").at("source").get<std::string>());
    return problem.at("flops").get<double>() > 0 ? roofline_view(results, title, subtitle)
                                                 : bandwidth_view(results, title, subtitle);
}

} // namespace autotune
