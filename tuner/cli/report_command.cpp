// autotune report RESULTS... [-o DIR]: a Markdown report with a section per results
// file, and its pictures (the roofline, registers against performance) as SVGs next to it.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
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
    require_writable_folder("-o", out_dir);

    // Read everything first, the peers files beside the results included: a bad file is bad
    // input, and nothing is written. Each tuned problem of a file (a spec's [[problems]])
    // gets its own section and plot.
    struct Section {
        std::string path;
        json view;
        std::string plot_suffix; // "-p2" for a file's second problem; empty for a one-problem file
        std::vector<PeerComparison> peers;
        std::string peers_path;
        bool peers_found = false;
    };
    std::vector<Section> sections;
    for (const auto& path : paths) {
        std::vector<json> views;
        try {
            views = problem_views(read_tuning_run_file(
                path, "autotune report draws the model's figures of a tuning run (flops, ceilings, ranks), which an "
                      "import does not record; replay, compare and export t4 read it"));
        } catch (const std::invalid_argument& e) {
            throw UsageError(one_line(e.what()));
        }
        // The peers measured on the same device sit next to the results: <arch>/peers.json.
        const auto peers_path = std::filesystem::path(path).parent_path() / "peers.json";
        const bool found = std::filesystem::exists(peers_path);
        json peers;
        if (found)
            try {
                peers = json::parse(std::ifstream(peers_path));
            } catch (const json::exception& e) {
                throw UsageError(fmt::format("peers file '{}' is not valid JSON: {}", peers_path.string(), one_line(e.what())));
            }
        for (std::size_t k = 0; k < views.size(); ++k) {
            Section section{path, std::move(views[k]), views.size() > 1 ? fmt::format("-p{}", k + 1) : "", {},
                            peers_path.string(), found};
            if (found)
                try {
                    section.peers = compare_with_peers(section.view, peers, path, peers_path.string());
                } catch (const std::exception& e) {
                    throw UsageError(fmt::format("peers file '{}': {}", peers_path.string(), one_line(e.what())));
                }
            sections.push_back(std::move(section));
        }
    }
    std::string md = "# autotune report\n\n";
    std::vector<std::string> written;
    for (const auto& [path, d, plot_suffix, peers, peers_path, peers_found] : sections) {
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
        md += markdown_peer_section(peers, peers_path, peers_found);
    }
    const auto report = std::filesystem::path(out_dir) / "report.md";
    write_file_atomically(report, md);
    written.insert(written.begin(), report.string());
    print_written(as_json, {{"written", written}, {"sections", sections.size()}}, "report: " + report.string() + "\n");
    return exit_ok;
}

} // namespace autotune::cli
