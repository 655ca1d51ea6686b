// The report's SVG roofline and Markdown, from hand-made results documents.
#include "emit/markdown_report.hpp"
#include "emit/registers_svg.hpp"
#include "emit/roofline_svg.hpp"

#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

// A measured GEMM-like problem with five ranked variants and one wrong result.
json measured_results(double flops)
{
    json variants = json::array();
    for (int i = 0; i < 6; ++i) {
        const bool wrong = i == 5;
        const double seconds = 1e-3 * (1 + i);
        variants.push_back({{"index", 100 + i},
                            {"params", {{"BM", 64 * (i + 1)}}},
                            {"status", wrong ? "wrong_result" : "ok"},
                            {"registers", 64 + 8 * i},
                            {"block", {256, 1, 1}},
                            {"register_policy", {{"kind", i % 2 ? "launch_bounds" : "none"}}},
                            {"occupancy", {{"fraction", 0.5}}},
                            {"measurement", {{"time_seconds", {{"median", seconds}}}}},
                            {"gflops", wrong ? json(nullptr) : json(flops / seconds / 1e9)},
                            {"gbps", wrong ? json(nullptr) : json(1e9 / seconds / 1e9)},
                            {"roofline_fraction", wrong ? json(nullptr) : json(0.8 / (1 + i))},
                            {"predicted_fraction", 0.9 - 0.1 * i},
                            {"diagnosis", i == 0 ? json::array({"spills: 8 bytes stored and 8 loaded per thread through local memory"}) : json::array()},
                            {"rank", wrong ? json(nullptr) : json(i + 1)}});
    }
    return {{"kernel", "gemm"},
            {"arch", "sm_90"},
            {"device", {{"name", "NVIDIA H200"}}},
            {"roofline_device", nullptr},
            {"problems",
             json::array({{{"variables", {{"M", 1024}, {"N", 1024}, {"K", 1024}}},
                           {"flops", flops},
                           {"bytes", 1e9},
                           {"intensity", flops / 1e9},
                           {"ridge", 20.0},
                           {"bound", flops / 1e9 >= 20 ? "compute" : "memory"},
                           {"ceilings", {{"compute_gflops", 60e3}, {"bandwidth_gbs", 3e3}, {"clock_mhz", 1980}, {"source", "test"}}},
                           {"measured", true},
                           {"winner", {{"index", 100}}},
                           {"prediction_quality", {{"spearman", 1.0}, {"measured_winner_predicted_rank", 1}, {"measured_winner_in_predicted_top10", true}}}}})},
            {"variants", variants}};
}

bool well_formed_xml(const std::string& svg)
{
    test::TempDir dir;
    std::ofstream(dir.path() / "plot.svg") << svg;
    return test::run_command("python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' " +
                             (dir.path() / "plot.svg").string()).exit_code == 0;
}

TEST(RooflineSvg, IsWellFormedAndShowsEveryRankedVariantAndTheWinner)
{
    for (double flops : {1e11, 0.0}) { // the roofline view, and the bandwidth view of a kernel without flops
        const std::string svg = roofline_svg(measured_results(flops));
        EXPECT_TRUE(well_formed_xml(svg)) << svg;
        for (int i = 0; i < 5; ++i)
            EXPECT_THAT(svg, HasSubstr(fmt::format("#{}", 100 + i)));
        EXPECT_THAT(svg, ::testing::Not(HasSubstr("#105"))); // the wrong result is not ranked, not drawn
        EXPECT_THAT(svg, HasSubstr("winner #100"));
        EXPECT_THAT(svg, HasSubstr(flops > 0 ? "operational intensity (flop/byte)" : "achieved bandwidth (GB/s"));
        EXPECT_THAT(svg, HasSubstr(flops > 0 ? "performance (GFLOP/s)" : "bandwidth roof 3000 GB/s"));
    }
    EXPECT_THAT(roofline_svg(measured_results(1e11)), HasSubstr("ridge 20 flop/byte"));
}

TEST(RegistersSvg, ShowsMeasuredAndPredictedPerVariantOverTheOccupancySteps)
{
    const std::string svg = registers_svg(measured_results(1e11));
    EXPECT_TRUE(well_formed_xml(svg)) << svg;
    EXPECT_THAT(svg, HasSubstr("performance (GFLOP/s): ● measured, ○ predicted"));
    EXPECT_THAT(svg, HasSubstr("winner #100: 100000 GFLOP/s, 64 registers"));
    EXPECT_THAT(svg, HasSubstr(">__launch_bounds__<"));
    // 256-thread blocks on sm_90: 65 registers lose the fourth block per SM, 81 the third.
    EXPECT_THAT(svg, HasSubstr(R"(data-registers="65")"));
    EXPECT_THAT(svg, HasSubstr(R"(data-registers="81")"));
    // Each of the five ranked variants twice (measured and predicted), and the winner.
    std::size_t points = 0;
    for (auto at = svg.find(R"(class="point")"); at != std::string::npos; at = svg.find(R"(class="point")", at + 1))
        ++points;
    EXPECT_EQ(points, 11u);
}

TEST(RooflineSvg, RefusesResultsWithoutCeilings)
{
    json results = measured_results(1e11);
    results["problems"][0]["ceilings"] = nullptr;
    EXPECT_THAT([&] { (void)roofline_svg(results); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("no ceilings")));
}

TEST(MarkdownReport, NamesTheWinnerItsDiagnosisTheTopVariantsAndThePredictionQuality)
{
    const std::string md = markdown_report_section(measured_results(1e11), {{"roofline", "plot.svg"}}, 3);
    EXPECT_THAT(md, HasSubstr("## gemm on NVIDIA H200 (sm_90)"));
    EXPECT_THAT(md, HasSubstr("**Winner** (measured): #100 `BM=64`"));
    EXPECT_THAT(md, HasSubstr("- spills: 8 bytes stored"));
    EXPECT_THAT(md, HasSubstr("![roofline](plot.svg)"));
    EXPECT_THAT(md, HasSubstr("Top 3 of 5 ranked variants"));
    EXPECT_EQ(std::count(md.begin(), md.end(), '\n') > 10, true);
    EXPECT_THAT(md, HasSubstr("the model ranked the measured winner 1 (in its top 10)"));
    EXPECT_THAT(md, HasSubstr("5 ok, 1 wrong_result"));
    EXPECT_EQ(md.find("As nvcc builds them"), std::string::npos) << "no nvcc builds recorded: no such table";
}

TEST(MarkdownReport, WritesEveryFigureOneWay)
{
    const std::string md = markdown_report_section(measured_results(1.1e12), {}, 3);
    EXPECT_THAT(md, HasSubstr("1100 GFLOP, 1000 MB moved at least, 1100 flop/byte; ridge 20 flop/byte"));
    EXPECT_THAT(md, HasSubstr("Ceilings: 60000 GFLOP/s and 3000 GB/s at 1980 MHz"));
    EXPECT_EQ(md.find("e+"), std::string::npos) << md;
    EXPECT_EQ(md.find(".0 "), std::string::npos) << md;
}

TEST(MarkdownReport, AProblemWithoutFlopsHasTheBandwidthsRoofAlone)
{
    const std::string md = markdown_report_section(measured_results(0), {}, 3);
    EXPECT_THAT(md, HasSubstr("1000 MB moved at least, and no flops (a [cost] table's flops; a T1 file gives none); the "
                              "roof is the bandwidth's alone: 3000 GB/s (test)."));
    EXPECT_EQ(md.find("-bound"), std::string::npos) << md;
    EXPECT_EQ(md.find("flop/byte"), std::string::npos) << md;
}

TEST(MarkdownReport, ShowsTheBestVariantsAsNvccBuildsThemAndWhichTheHeaderKeeps)
{
    auto results = measured_results(1e11);
    results["problems"][0]["nvcc_builds"] = nlohmann::ordered_json::array(
        {{{"index", 101}, {"same_machine_code", false}, {"sass_sha256", "a"}, {"median_seconds", 0.0012},
          {"measured_again", true}, {"error", nullptr}},
         {{"index", 100}, {"same_machine_code", true}, {"sass_sha256", "b"}, {"median_seconds", 0.0013},
          {"measured_again", false}, {"error", nullptr}},
         {{"index", 102}, {"same_machine_code", false}, {"sass_sha256", nullptr}, {"median_seconds", nullptr},
          {"measured_again", false}, {"error", "nvcc fails: x"}}});
    results["problems"][0]["winner_as_built_by_nvcc"] = {{"index", 101}, {"median_seconds", 0.0012}};
    const std::string md = markdown_report_section(results, {}, 3);
    EXPECT_THAT(md, HasSubstr("| 101 | other than NVRTC's (measured again) | 1200 |  |"));
    EXPECT_THAT(md, HasSubstr("| 100 | as NVRTC built it | 1300 |  |"));
    EXPECT_THAT(md, HasSubstr("| 102 | – | – | nvcc fails: x |"));
    EXPECT_THAT(md, HasSubstr("The tuned header keeps #101."));
}

} // namespace
