// autotune export t4 RESULTS -o FILE: a results file's measurements in the community's T4
// output format (emit/t4_format.hpp), for benchmark hubs and tools that read T4.
// `autotune import kt-cache` reads T4 back.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "cli/written_outcome.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_reader.hpp"
#include "emit/t4_format.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

namespace po = boost::program_options;

namespace autotune::cli {

int export_command(const Arguments& args)
{
    std::vector<std::string> positional;
    std::string out;
    bool as_json = false;
    CommandLine line("usage: autotune export t4 RESULTS -o FILE [--json]\n\n"
                     "Writes the measured variants of a results file (one problem) as T4: each one's\n"
                     "configuration, runtimes (ms), its time as the objective, and failures with their\n"
                     "invalidity. Variants never measured have no record; a compile-only results file is\n"
                     "refused (T4 records measurements). `autotune import kt-cache FILE` reads T4 back.");
    line.options()("output,o", po::value(&out), "FILE: the T4 document to write")(
        "json", po::bool_switch(&as_json), "say what was written as JSON");
    line.positional("inputs", po::value(&positional)->composing(), -1);
    if (!line.parse(args))
        return exit_ok;
    if (positional.empty() || positional.front() != "t4")
        throw UsageError(fmt::format("autotune export: unknown format '{}' (known: t4)",
                                     positional.empty() ? "" : positional.front()));
    if (positional.size() != 2)
        throw UsageError("autotune export t4 takes one results file: autotune export t4 RESULTS -o FILE");
    if (out.empty())
        throw UsageError("autotune export t4 needs -o FILE, the T4 document to write");
    require_writable_file("-o", out);
    const std::string& path = positional[1];
    nlohmann::ordered_json t4;
    try {
        const auto views = problem_views(read_results_file(path));
        if (views.size() != 1)
            throw std::invalid_argument(fmt::format("{}: holds {} problems; T4 describes one (export a one-problem "
                                                    "run's file)",
                                                    path, views.size()));
        t4 = t4_document(views.front(), path);
    } catch (const std::invalid_argument& e) {
        throw UsageError(one_line(e.what()));
    }
    write_file_atomically(out, t4.dump(2) + "\n");
    print_written(as_json, {{"written", {out}}, {"records", t4.at("results").size()}},
                  fmt::format("{} T4 records from {} written to {}\n", t4.at("results").size(), path, out));
    return exit_ok;
}

} // namespace autotune::cli
