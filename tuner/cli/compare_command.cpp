// autotune compare BASE NEW [--threshold PCT] [--json] [--markdown FILE]: the winners of
// two results files or directories of results, problem by problem, judged against the
// recorded noise (tuner/rank/compare_results.hpp has the rule). Exit 1 when any problem
// got slower, so that a nightly job fails on a regression; 2 on bad input.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_reader.hpp"
#include "rank/compare_results.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <regex>

namespace po = boost::program_options;
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

// Each tuned problem of a file is compared on its own (a spec's [[problems]]).
void add_problems(const fs::path& path, std::vector<ResultsDocument>& documents)
{
    json document;
    try {
        document = read_results_file(path);
    } catch (const std::invalid_argument& e) {
        throw UsageError(one_line(e.what()));
    }
    // Kernel Tuner names the GPU, not its architecture; one no table knows has none.
    if (document.at("arch").is_null())
        throw UsageError(fmt::format("{}: an imported Kernel Tuner space whose device ({}) maps to no architecture; "
                                     "compare matches results by kernel, arch and problem",
                                     path.string(),
                                     document.at("device").is_null() ? "not named"
                                                                     : document.at("device").at("name").get<std::string>()));
    try {
        for (json& view : problem_views(std::move(document)))
            documents.push_back({path.string(), std::move(view)});
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("results file '{}': {}", path.string(), e.what()));
    }
}

// results/<arch>/<kernel>.json anywhere under `dir`: a .json file in a directory named
// like an architecture (sm_90, sm_90a, sm_100f). Other JSON (devices/*.json) and the
// measurement journals (*.journal.jsonl) are not results files.
std::vector<fs::path> results_files_under(const fs::path& dir)
{
    static const std::regex arch_dir("sm_[0-9]+[a-z]?");
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".json")
            continue;
        if (std::regex_match(entry.path().parent_path().filename().string(), arch_dir))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<ResultsDocument> read_side(const std::string& path, const char* role)
{
    std::error_code error;
    const auto status = fs::status(path, error);
    if (!fs::exists(status))
        throw UsageError(fmt::format("{} '{}' not found", role, path));
    std::vector<ResultsDocument> documents;
    if (fs::is_directory(status)) {
        for (const auto& file : results_files_under(path))
            add_problems(file, documents);
        if (documents.empty())
            throw UsageError(fmt::format("no results files (<arch>/<kernel>.json) under {} directory '{}'", role, path));
    } else {
        add_problems(path, documents);
    }
    return documents;
}

// What one side holds, for saying that the sides share nothing: "copy on sm_90 (N=1024)".
std::string holdings(const Comparison& comparison, bool base)
{
    std::vector<std::string> held;
    for (const auto& e : comparison.entries)
        if (base ? e.base.has_value() : e.next.has_value()) {
            std::string problem;
            for (const auto& [name, value] : e.problem.items())
                problem += fmt::format("{}{}={}", problem.empty() ? "" : ",", name, value.dump());
            held.push_back(fmt::format("{} on {} ({})", e.kernel, e.arch, problem));
        }
    constexpr std::size_t named = 3;
    std::string text;
    for (std::size_t i = 0; i < std::min(held.size(), named); ++i)
        text += (i ? ", " : "") + held[i];
    return held.size() > named ? fmt::format("{} and {} more", text, held.size() - named) : text;
}

} // namespace

int compare_command(const Arguments& args)
{
    std::vector<std::string> sides;
    double threshold = 5;
    bool as_json = false;
    std::string markdown;
    CommandLine line("usage: autotune compare BASE NEW [--threshold PCT] [--json] [--markdown FILE]\n\n"
                     "BASE and NEW are results files or directories searched for <arch>/<kernel>.json.\n"
                     "Per problem, the winners' measured medians are compared: slower (or faster) when the\n"
                     "change is beyond the threshold and beyond 3 sigma of the recorded noise, same when\n"
                     "within the threshold, ambiguous when beyond the threshold but inside the noise.\n"
                     "Exit 1 when anything is slower.");
    line.options()
        ("threshold", ranged_value(&threshold, {.least = 0, .least_excluded = true})->default_value(5),
         "PCT: a change smaller than this is never slower or faster (default 5)")
        ("json", po::bool_switch(&as_json), "print JSON")
        ("markdown", po::value(&markdown), "FILE: also write a Markdown summary for a CI job page");
    line.positional("sides", po::value(&sides)->composing(), 2);
    if (!line.parse(args))
        return exit_ok;
    if (sides.size() != 2)
        throw UsageError("autotune compare needs BASE and NEW, each a results file or a directory of results");

    if (!markdown.empty())
        require_writable_file("--markdown", markdown);
    Comparison comparison;
    try {
        const auto base = read_side(sides[0], "BASE");
        const auto next = read_side(sides[1], "NEW");
        comparison = compare_results(base, next, threshold / 100);
    } catch (const CompareInputError& e) {
        throw UsageError(one_line(e.what()));
    }
    // Two sides with nothing in common compared nothing: not a pass, a mistake in the input.
    if (comparison.compared() == 0)
        throw UsageError(fmt::format("nothing to compare: BASE {} holds {}; NEW {} holds {}; compare matches winners by "
                                     "kernel, arch and problem",
                                     sides[0], holdings(comparison, true), sides[1], holdings(comparison, false)));
    if (!markdown.empty())
        write_file_atomically(markdown, comparison_markdown(comparison));
    if (as_json)
        std::cout << comparison_json(comparison).dump(2) << "\n";
    else
        std::cout << comparison_table(comparison) << (markdown.empty() ? "" : "markdown: " + markdown + "\n");
    return comparison.regressions() ? exit_failed : exit_ok;
}

} // namespace autotune::cli
