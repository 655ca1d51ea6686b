// autotune report RESULTS... [-o DIR]: a Markdown report with a section per results
// file, and its pictures (the roofline, registers against performance) as SVGs next to it.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/written_outcome.hpp"
#include "emit/markdown_peers.hpp"
#include "emit/markdown_report.hpp"
#include "emit/peer_ratio.hpp"
#include "emit/problem_views.hpp"
#include "emit/registers_svg.hpp"
#include "emit/results_reader.hpp"
#include "emit/roofline_svg.hpp"
#include "rank/measured_ceilings.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <tuple>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {

int report_command(const Arguments& args)
{
    std::vector<std::string> paths;
    std::string out_dir = "report";
    bool as_json = false;
    CommandLine line("usage: autotune report RESULTS... [-o DIR] [--json]");
    line.options()("out,o", po::value(&out_dir)->default_value("report"), "directory for report.md and the SVG plots")(
        "json", po::bool_switch(&as_json), "say what was written as JSON");
    line.positional("results", po::value(&paths)->composing(), -1);
    if (!line.parse(args))
        return exit_ok;
    if (paths.empty())
        throw UsageError("autotune report needs results files, e.g. results/sm_90/gemm.json");

    // Read everything first: a bad file is bad input, and nothing is written. Each tuned
    // problem of a file (a spec's [[problems]]) gets its own section and plot.
    struct Section {
        std::string path;
        json view;
        std::string plot_suffix; // "-p2" for a file's second problem; empty for a one-problem file
    };
    std::vector<Section> sections;
    for (const auto& path : paths) {
        json document;
        try {
            document = read_results_file(path);
        } catch (const std::invalid_argument& e) {
            throw UsageError(one_line(e.what()));
        }
        if (!document.contains("problems") || !document.contains("variants"))
            throw UsageError(fmt::format("results file '{}' has no ranked problems (written by an older autotune?)", path));
        try {
            auto views = problem_views(document);
            for (std::size_t k = 0; k < views.size(); ++k)
                sections.push_back({path, std::move(views[k]), views.size() > 1 ? fmt::format("-p{}", k + 1) : ""});
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("results file '{}': {}", path, e.what()));
        }
    }
    std::string md = "# autotune report\n\n";
    std::vector<std::string> written;
    for (const auto& [path, d, plot_suffix] : sections) {
        const std::string device = d.at("device").is_null() ? "predicted" : device_slug(d.at("device").at("name").get<std::string>());
        const std::string stem = fmt::format("{}-{}-{}{}", d.at("kernel").get<std::string>(), d.at("arch").get<std::string>(),
                                             device, plot_suffix);
        // The roofline places the problem; the registers plot shows the launch-bound trade-off.
        std::vector<ReportPicture> pictures;
        for (const auto& [alt, file, draw] : {std::tuple{"roofline", stem + ".svg", &roofline_svg},
                                              std::tuple{"registers against performance", stem + "-registers.svg", &registers_svg}})
            try {
                write_file_atomically(std::filesystem::path(out_dir) / file, draw(d));
                pictures.push_back({alt, file});
                written.push_back((std::filesystem::path(out_dir) / file).string());
            } catch (const std::invalid_argument& e) {
                std::cerr << "autotune: " << path << ": no " << alt << " plot: " << e.what() << "\n";
            }
        md += markdown_report_section(d, pictures);
        // The peers measured on the same device sit next to the results: <arch>/peers.json.
        const auto peers_path = std::filesystem::path(path).parent_path() / "peers.json";
        const bool found = std::filesystem::exists(peers_path);
        std::vector<PeerComparison> comparisons;
        if (found)
            try {
                comparisons = compare_with_peers(d, json::parse(std::ifstream(peers_path)), path, peers_path.string());
            } catch (const std::exception& e) {
                throw UsageError(fmt::format("peers file '{}': {}", peers_path.string(), e.what()));
            }
        md += markdown_peer_section(comparisons, peers_path.string(), found);
    }
    const auto report = std::filesystem::path(out_dir) / "report.md";
    write_file_atomically(report, md);
    written.insert(written.begin(), report.string());
    print_written(as_json, {{"written", written}, {"sections", sections.size()}}, "report: " + report.string() + "\n");
    return exit_ok;
}

} // namespace autotune::cli
