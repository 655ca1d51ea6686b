// autotune report RESULTS... [-o DIR]: a Markdown report with a section per results
// file, and the roofline picture of each as an SVG next to it.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "emit/markdown_report.hpp"
#include "emit/roofline_svg.hpp"
#include "rank/measured_ceilings.hpp"
#include "util/atomic_file.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {

int report_command(const Arguments& args)
{
    std::vector<std::string> paths;
    std::string out_dir = "report";
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("out,o", po::value(&out_dir)->default_value("report"),
                                                      "directory for report.md and the SVG plots");
    po::options_description all;
    all.add(options).add_options()("results", po::value(&paths)->composing());
    po::positional_options_description positions;
    positions.add("results", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: autotune report RESULTS... [-o DIR]\n\n" << options;
        return exit_ok;
    }
    po::notify(vm);
    if (paths.empty())
        throw UsageError("autotune report needs results files, e.g. results/sm_90/gemm.json");

    // Read everything first: a bad file is bad input, and nothing is written.
    std::vector<json> documents;
    for (const auto& path : paths) {
        std::ifstream in(path);
        if (!in)
            throw UsageError(fmt::format("results file '{}' not found", path));
        try {
            documents.push_back(json::parse(in));
        } catch (const json::exception& e) {
            throw UsageError(fmt::format("results file '{}' is not valid JSON: {}", path, e.what()));
        }
        if (!documents.back().contains("problems") || !documents.back().contains("variants"))
            throw UsageError(fmt::format("results file '{}' has no ranked problems (written by an older autotune?)", path));
    }
    std::string md = "# autotune report\n\n";
    for (std::size_t i = 0; i < documents.size(); ++i) {
        const json& d = documents[i];
        const std::string device = d.at("device").is_null() ? "predicted" : device_slug(d.at("device").at("name").get<std::string>());
        std::string svg_name = fmt::format("{}-{}-{}.svg", d.at("kernel").get<std::string>(), d.at("arch").get<std::string>(), device);
        try {
            write_file_atomically(std::filesystem::path(out_dir) / svg_name, roofline_svg(d));
        } catch (const std::invalid_argument& e) {
            std::cerr << "autotune: " << paths[i] << ": no roofline plot: " << e.what() << "\n";
            svg_name.clear();
        }
        md += markdown_report_section(d, svg_name);
    }
    const auto report = std::filesystem::path(out_dir) / "report.md";
    write_file_atomically(report, md);
    std::cout << "report: " << report.string() << "\n";
    return exit_ok;
}

} // namespace autotune::cli
