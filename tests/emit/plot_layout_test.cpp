// The report's plots for every real results file (results/sm_80, results/sm_90): no two
// texts overlap or leave the page, every point lies inside its axes, the y axis ends
// near the highest thing drawn, and an unmeasured run's axis says "predicted".
#include "emit/problem_views.hpp"
#include "emit/registers_svg.hpp"
#include "emit/roofline_svg.hpp"
#include "emit/svg_canvas.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>

using namespace autotune;
using json = nlohmann::ordered_json;

namespace {

struct DrawnText {
    std::string text;
    svg::Box box;
};

std::string unescape(std::string text)
{
    for (const auto& [entity, c] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
        for (auto at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1))
            text.replace(at, std::string(entity).size(), c);
    return text;
}

// Every <text> of the SVG with its box as the writer estimates it.
std::vector<DrawnText> drawn_texts(const std::string& svg)
{
    static const std::regex text_element(
        R"re(<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)" text-anchor="(\w+)"[^>]*?(?:rotate\(([-\d.]+) [^>]*)?>([^<]*)</text>)re");
    std::vector<DrawnText> out;
    for (std::sregex_iterator it(svg.begin(), svg.end(), text_element), end; it != end; ++it) {
        const auto& m = *it;
        const std::string anchor = m[4];
        const std::string text = unescape(m[6]);
        out.push_back({text, svg::text_box(std::stod(m[1]), std::stod(m[2]), text, std::stod(m[3]),
                                           anchor == "start" ? svg::Anchor::start : anchor == "middle" ? svg::Anchor::middle : svg::Anchor::end,
                                           m[5].matched ? std::stod(m[5]) : 0)});
    }
    return out;
}

std::pair<double, double> range(const std::string& svg, const char* axis)
{
    const std::regex frame(fmt::format(R"re(class="frame"[^>]*data-{}="([-\d.e+]+) ([-\d.e+]+)")re", axis));
    std::smatch m;
    if (!std::regex_search(svg, m, frame))
        return {0, 0};
    return {std::stod(m[1]), std::stod(m[2])};
}

std::vector<std::pair<double, double>> point_values(const std::string& svg)
{
    static const std::regex point(R"re(class="point" data-x="([-\d.e+]+)" data-y="([-\d.e+]+)")re");
    std::vector<std::pair<double, double>> out;
    for (std::sregex_iterator it(svg.begin(), svg.end(), point), end; it != end; ++it)
        out.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
    return out;
}

std::vector<std::filesystem::path> real_results_files()
{
    std::vector<std::filesystem::path> files;
    for (const char* arch : {"sm_80", "sm_90"})
        for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "results" / arch))
            if (entry.path().extension() == ".json" && entry.path().filename() != "peers.json")
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Checks one plot; `roof` is the highest line drawn besides the points (0 for none).
void expect_tidy(const std::string& svg, const std::string& name, double roof, bool measured)
{
    const auto texts = drawn_texts(svg);
    ASSERT_GT(texts.size(), 5u) << name;
    const svg::Box page{0, 0, 760, 500};
    for (std::size_t i = 0; i < texts.size(); ++i) {
        EXPECT_TRUE(texts[i].box.inside(page)) << name << ": '" << texts[i].text << "' leaves the page";
        for (std::size_t j = i + 1; j < texts.size(); ++j)
            EXPECT_FALSE(texts[i].box.intersects(texts[j].box))
                << name << ": '" << texts[i].text << "' overlaps '" << texts[j].text << "'";
    }
    const auto [x_lo, x_hi] = range(svg, "x");
    const auto [y_lo, y_hi] = range(svg, "y");
    const auto points = point_values(svg);
    ASSERT_FALSE(points.empty()) << name;
    double highest = roof;
    for (const auto& [x, y] : points) {
        EXPECT_TRUE(x >= x_lo && x <= x_hi) << name << ": point x " << x << " outside [" << x_lo << ", " << x_hi << "]";
        EXPECT_TRUE(y >= y_lo && y <= y_hi) << name << ": point y " << y << " outside [" << y_lo << ", " << y_hi << "]";
        highest = std::max(highest, y);
    }
    EXPECT_LE(y_hi, 2 * highest) << name << ": the y axis runs more than 2x above everything drawn";
    if (!measured) {
        EXPECT_EQ(svg.find("achieved"), std::string::npos) << name << ": nothing was measured";
        EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [](const DrawnText& t) {
            return t.text.find("predicted") != std::string::npos && t.text.find("(G") != std::string::npos;
        })) << name << ": the performance axis must say predicted";
    }
}

TEST(PlotLayout, EveryRealResultsFilesPlotsAreTidy)
{
    const auto files = real_results_files();
    ASSERT_GE(files.size(), 12u);
    for (const auto& file : files) {
        const auto views = problem_views(json::parse(std::ifstream(file)));
        for (std::size_t k = 0; k < views.size(); ++k) {
            const json& view = views[k];
            const json& problem = view.at("problems").at(0);
            const bool flops = problem.at("flops").get<double>() > 0;
            const double roof = problem.at("ceilings").at(flops ? "compute_gflops" : "bandwidth_gbs").get<double>();
            const bool measured = problem.value("measured", false);
            const std::string name = fmt::format("{} problem {}", file.string(), k + 1);
            expect_tidy(roofline_svg(view), name + " roofline", roof, measured);
            expect_tidy(registers_svg(view), name + " registers", 0, measured);
        }
    }
}

TEST(PlotLayout, TheRegistersPlotColoursByPolicyAndDrawsTheWinnersOccupancySteps)
{
    // gemm 4096³ on sm_90: the winner has 256-thread blocks, so 129 registers lose the
    // second block (128 × 256 × 2 = 65536 registers).
    const auto views = problem_views(json::parse(std::ifstream(test::source_dir() / "results/sm_90/gemm.json")));
    const std::string svg = registers_svg(views.at(2));
    EXPECT_NE(svg.find("256 threads"), std::string::npos);
    EXPECT_NE(svg.find(R"(class="step")"), std::string::npos);
    EXPECT_NE(svg.find(R"(data-registers="129")"), std::string::npos);
    EXPECT_NE(svg.find(">__launch_bounds__<"), std::string::npos);
    EXPECT_NE(svg.find(">no register policy<"), std::string::npos);
    EXPECT_EQ(svg.find(">--maxrregcount<"), std::string::npos) << "no variant uses it: not in the legend";
}

TEST(PlotLayout, TextBoxesOfTurnedTextStandUpright)
{
    const svg::Box flat = svg::text_box(100, 100, "abcdefghij", 10, svg::Anchor::middle);
    const svg::Box turned = svg::text_box(100, 100, "abcdefghij", 10, svg::Anchor::middle, -90);
    EXPECT_NEAR(flat.right - flat.left, 60, 1e-9);
    EXPECT_NEAR(turned.bottom - turned.top, 60, 1e-9);
    EXPECT_NEAR(turned.right - turned.left, flat.bottom - flat.top, 1e-9);
    EXPECT_FALSE(flat.intersects(svg::text_box(100, 120, "x", 10, svg::Anchor::middle)));
    EXPECT_TRUE(flat.intersects(svg::text_box(100, 105, "x", 10, svg::Anchor::middle)));
}

} // namespace
