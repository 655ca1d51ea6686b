// What the report's plots share: axes fitted to the data with readable ticks, and a
// canvas that writes SVG and keeps the box every text it writes takes, so a label goes
// where no other text is. Text boxes are estimated from the character count (no font
// metrics here), generously, so an estimate that clears is a picture that clears.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace autotune::svg {

enum class Anchor { start, middle, end };

struct Box {
    double left = 0, top = 0, right = 0, bottom = 0;
    [[nodiscard]] bool intersects(const Box& other) const;
    [[nodiscard]] bool inside(const Box& other) const;
};

// The box a text drawn at (x, y) — its baseline — takes; `rotation` (degrees, about (x, y))
// gives the axis-aligned box around the turned text.
[[nodiscard]] Box text_box(double x, double y, std::string_view text, double font_size, Anchor anchor,
                           double rotation = 0);

[[nodiscard]] std::string escape(std::string_view text);

// One plotted quantity's range, log or linear, mapped onto pixels.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double pixel_lo = 0, pixel_hi = 1; // where lo and hi land
    [[nodiscard]] double pixel(double value) const;
    [[nodiscard]] bool contains(double value) const { return value >= lo && value <= hi; }
    // Round values inside the range: 1-2-5 per decade on a log axis (decades alone when
    // that makes too many), a 1-2-5 step on a linear one.
    [[nodiscard]] std::vector<double> ticks() const;
};

// [0, a round value at most 1.25× `highest`] for values that start at zero.
[[nodiscard]] Axis zero_based_axis(double highest, double pixel_lo, double pixel_hi);
// [lowest, highest] widened by `margin` on each side (a factor on a log axis, a fraction
// of the span on a linear one), so every value sits inside, none on the frame. Throws
// std::invalid_argument for a logarithmic axis over a value that is not positive.
[[nodiscard]] Axis fitted_axis(double lowest, double highest, bool log, double margin, double pixel_lo, double pixel_hi);

struct TextStyle {
    TextStyle(Anchor anchor = Anchor::start, std::string fill = {}, double font_size = 12)
        : anchor(anchor), fill(std::move(fill)), font_size(font_size) {}
    Anchor anchor;
    std::string fill; // "" for black
    double font_size;
    bool bold = false;
    double rotation = 0; // degrees about the anchor point
};

class Canvas {
public:
    Canvas(double width, double height);

    // Anything but text: lines, markers, the frame.
    void shape(std::string element);
    // A region labels keep away from (a marker), without drawing anything.
    void keep_clear(const Box& box) { clear_.push_back(box); }
    // Drawn where asked, whatever it covers: titles, ticks, axis names.
    void text(double x, double y, std::string_view text, const TextStyle& style = {});
    // Drawn at the first of `offsets` from (x, y) where it hits no text or kept-clear region
    // and stays on the canvas; false (and nothing drawn) when none does.
    bool label(double x, double y, std::string_view text, const TextStyle& style,
               std::span<const std::pair<double, double>> offsets);
    // The width a text takes, for laying out legends.
    [[nodiscard]] static double text_width(std::string_view text, double font_size = 12);

    [[nodiscard]] std::string finish() const;

private:
    double width_, height_;
    std::string body_;
    std::vector<Box> texts_, clear_;
};

// The frame, grid and tick labels of two axes, and their names. The frame carries the
// ranges (data-x, data-y) and every point its values, so a reader can check one against
// the other.
void draw_axes(Canvas& canvas, const Axis& x, const Axis& y, std::string_view x_name, std::string_view y_name,
               bool x_ticks = true);

// Markers: a data point's (with its plotted values) or a legend's (values empty).
struct PointValues {
    double x = 0, y = 0;
};
[[nodiscard]] std::string circle_marker(double px, double py, const std::string& fill, const std::string& stroke,
                                        const PointValues* values, std::string_view tooltip = {});
[[nodiscard]] std::string winner_marker(double px, double py, const PointValues* values, std::string_view tooltip = {});
// The box a marker at (px, py) covers, for labels to keep clear of.
[[nodiscard]] Box marker_box(double px, double py, double radius = 6);

// One row of legend entries from (x, y), each a marker drawn about (0, 0) and its text.
struct LegendEntry {
    std::string marker;
    std::string text;
};
void draw_legend(Canvas& canvas, double x, double y, std::span<const LegendEntry> entries);

} // namespace autotune::svg
