#include "emit/svg_canvas.hpp"

#include "emit/number_format.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <fmt/format.h>
#include <numbers>

namespace autotune::svg {
namespace {

// Average sans-serif glyph width is about 0.55 em; 0.6 errs on the wide side.
constexpr double glyph_width = 0.6, ascent = 0.8, descent = 0.25;

std::size_t characters(std::string_view text)
{
    // UTF-8: count the bytes that start a character (µ, →, – are one each).
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

const char* anchor_name(Anchor anchor)
{
    switch (anchor) {
    case Anchor::start: return "start";
    case Anchor::middle: return "middle";
    case Anchor::end: return "end";
    }
    return "start";
}

// The smallest of 1, 2, 5 × 10^k at least `value`.
double round_step(double value)
{
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= value * (1 - 1e-9))
            return m * decade;
    return 10 * decade;
}

} // namespace

bool Box::intersects(const Box& o) const
{
    return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
}

bool Box::inside(const Box& o) const
{
    return left >= o.left && right <= o.right && top >= o.top && bottom <= o.bottom;
}

Box text_box(double x, double y, std::string_view text, double font_size, Anchor anchor, double rotation)
{
    const double w = Canvas::text_width(text, font_size);
    const double x0 = anchor == Anchor::start ? 0 : anchor == Anchor::middle ? -w / 2 : -w;
    // The unturned box relative to the anchor, then its corners turned about the anchor.
    const double xs[] = {x0, x0 + w}, ys[] = {-ascent * font_size, descent * font_size};
    const double a = rotation * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
    Box box{1e300, 1e300, -1e300, -1e300};
    for (double dx : xs)
        for (double dy : ys) {
            const double px = x + dx * c - dy * s, py = y + dx * s + dy * c;
            box = {std::min(box.left, px), std::min(box.top, py), std::max(box.right, px), std::max(box.bottom, py)};
        }
    return box;
}

std::string escape(std::string_view text)
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

double Axis::pixel(double value) const
{
    const double t = log ? (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (value - lo) / (hi - lo);
    return pixel_lo + t * (pixel_hi - pixel_lo);
}

std::vector<double> Axis::ticks() const
{
    std::vector<double> out;
    if (log) {
        for (const auto& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1}}) {
            out.clear();
            for (double decade = std::pow(10.0, std::floor(std::log10(lo))); decade <= hi; decade *= 10)
                for (double m : mantissas)
                    if (contains(m * decade))
                        out.push_back(m * decade);
            if (out.size() <= 8)
                break;
        }
        return out;
    }
    const double step = round_step((hi - lo) / 6);
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
        out.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
    return out;
}

Axis zero_based_axis(double highest, double pixel_lo, double pixel_hi)
{
    // 5% headroom so the highest marker clears the frame; then the next round value.
    const double want = std::max(highest, 1e-30) * 1.05;
    const double decade = std::pow(10.0, std::floor(std::log10(want)));
    double hi = 10 * decade;
    for (double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0})
        if (m * decade >= want) {
            hi = m * decade;
            break;
        }
    return {0, hi, false, pixel_lo, pixel_hi};
}

Axis fitted_axis(double lowest, double highest, bool log, double margin, double pixel_lo, double pixel_hi)
{
    // A logarithmic axis has no place for 0 or a negative value (its ticks would never end).
    if (log && !(lowest > 0 && std::isfinite(lowest) && highest > 0 && std::isfinite(highest)))
        throw std::invalid_argument(fmt::format("{} to {} cannot be drawn on a logarithmic axis", lowest, highest));
    if (log)
        return {lowest / margin, highest * margin, true, pixel_lo, pixel_hi};
    const double span = highest > lowest ? highest - lowest : std::max(std::abs(highest) * 0.1, 1.0);
    return {lowest - margin * span, highest + margin * span, false, pixel_lo, pixel_hi};
}

Canvas::Canvas(double width, double height) : width_(width), height_(height) {}

void Canvas::shape(std::string element)
{
    body_ += std::move(element);
    body_ += '\n';
}

double Canvas::text_width(std::string_view text, double font_size)
{
    return static_cast<double>(characters(text)) * glyph_width * font_size;
}

void Canvas::text(double x, double y, std::string_view text, const TextStyle& style)
{
    texts_.push_back(text_box(x, y, text, style.font_size, style.anchor, style.rotation));
    body_ += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="{}" text-anchor="{}")svg", x, y, style.font_size,
                         anchor_name(style.anchor));
    if (!style.fill.empty())
        body_ += fmt::format(R"svg( fill="{}")svg", style.fill);
    if (style.bold)
        body_ += R"svg( font-weight="bold")svg";
    if (style.rotation != 0)
        body_ += fmt::format(R"svg( transform="rotate({} {:.1f} {:.1f})")svg", style.rotation, x, y);
    body_ += fmt::format(">{}</text>\n", escape(text));
}

bool Canvas::label(double x, double y, std::string_view text, const TextStyle& style,
                   std::span<const std::pair<double, double>> offsets)
{
    const Box page{0, 0, width_, height_};
    for (const auto& [dx, dy] : offsets) {
        const Box box = text_box(x + dx, y + dy, text, style.font_size, style.anchor, style.rotation);
        auto hits = [&](const Box& other) { return box.intersects(other); };
        if (box.inside(page) && std::none_of(texts_.begin(), texts_.end(), hits) &&
            std::none_of(clear_.begin(), clear_.end(), hits)) {
            this->text(x + dx, y + dy, text, style);
            return true;
        }
    }
    return false;
}

std::string Canvas::finish() const
{
    return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
{2}</svg>
)",
                       width_, height_, body_);
}

void draw_axes(Canvas& canvas, const Axis& x, const Axis& y, std::string_view x_name, std::string_view y_name,
               bool x_ticks)
{
    const double left = x.pixel_lo, right = x.pixel_hi, bottom = y.pixel_lo, top = y.pixel_hi;
    canvas.shape(fmt::format(R"svg(<rect class="frame" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" )svg"
                             R"svg(stroke="#999" data-x="{} {}" data-y="{} {}"/>)svg",
                             left, top, right - left, bottom - top, x.lo, x.hi, y.lo, y.hi));
    if (x_ticks)
        for (double t : x.ticks()) {
            canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#e4e4e4"/>)svg",
                                     x.pixel(t), top, bottom));
            canvas.text(x.pixel(t), bottom + 16, format_figure(t), {Anchor::middle});
        }
    for (double t : y.ticks()) {
        canvas.shape(fmt::format(R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="#e4e4e4"/>)svg", left,
                                 y.pixel(t), right));
        canvas.text(left - 6, y.pixel(t) + 4, format_figure(t), {Anchor::end});
    }
    TextStyle turned(Anchor::middle);
    turned.rotation = -90;
    canvas.text((left + right) / 2, bottom + 36, x_name, {Anchor::middle});
    canvas.text(18, (top + bottom) / 2, y_name, turned);
}

namespace {

std::string point_attributes(const PointValues* values)
{
    return values ? fmt::format(R"svg( class="point" data-x="{}" data-y="{}")svg", values->x, values->y) : "";
}

std::string tooltip_element(std::string_view tooltip)
{
    return tooltip.empty() ? "" : fmt::format("<title>{}</title>", escape(tooltip));
}

} // namespace

std::string circle_marker(double px, double py, const std::string& fill, const std::string& stroke, const PointValues* values,
                          std::string_view tooltip)
{
    return fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}" stroke="{}" stroke-width="1.3"{}>{}</circle>)svg", px,
                       py, fill, stroke, point_attributes(values), tooltip_element(tooltip));
}

std::string winner_marker(double px, double py, const PointValues* values, std::string_view tooltip)
{
    // A five-pointed star centred on (px, py).
    return fmt::format(R"svg(<path d="M {:.1f} {:.1f} l 5 -11 l 5 11 l -11 -7 h 12 z" fill="#d62728" stroke="#7a1010" )svg"
                       R"svg(stroke-width="0.6"{}>{}</path>)svg",
                       px - 5, py + 5.5, point_attributes(values), tooltip_element(tooltip));
}

Box marker_box(double px, double py, double radius)
{
    return {px - radius, py - radius, px + radius, py + radius};
}

void draw_legend(Canvas& canvas, double x, double y, std::span<const LegendEntry> entries)
{
    for (const auto& entry : entries) {
        canvas.shape(fmt::format(R"svg(<g transform="translate({:.1f} {:.1f})">{}</g>)svg", x + 5, y - 4, entry.marker));
        canvas.text(x + 14, y, entry.text);
        x += 14 + Canvas::text_width(entry.text) + 18;
    }
}

} // namespace autotune::svg
