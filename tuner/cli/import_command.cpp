// autotune import kt-cache FILE -o RESULTS: brings a Kernel Tuner cache (JSON, gzipped or
// not) in as an autotune results file — its configurations as measured variants, the
// fastest one the winner — for replay, report and compare. The mapping is documented in
// tuner/emit/kt_cache_import.hpp.
#include "arch/device_spec.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "cli/written_outcome.hpp"
#include "emit/kt_cache_import.hpp"
#include "util/atomic_file.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <iostream>
#include <map>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {

int import_command(const Arguments& args)
{
    std::vector<std::string> positional;
    std::string out;
    std::string device;
    bool as_json = false;
    CommandLine line("usage: autotune import kt-cache FILE -o RESULTS [--device NAME] [--json]\n\n"
                     "Converts a Kernel Tuner cache file (JSON, gzipped or not) into an autotune results file:\n"
                     "every cached configuration becomes a variant (index = its position in the cartesian order\n"
                     "of tune_params), measured ones with their samples, failed ones with the status\n"
                     "compile_error (CompilationFailedConfig) or launch_error (RuntimeFailedConfig);\n"
                     "InvalidConfig entries are left out, like configurations the constraints remove.\n"
                     "A T4 document (Kernel Tuner's, KTT's, or `autotune export t4`'s) is read the same way,\n"
                     "its kernel named by the file; its invalidity keeps wrong_result and timeout apart.\n"
                     "The file's device (device_name) gives the results' arch; Kernel Tuner's T4 documents\n"
                     "name none, and --device names it.");
    line.options()("output,o", po::value(&out), "RESULTS: the results file to write")(
        "device", po::value(&device),
        "NAME: the GPU that measured the file (autotune archs lists them), where the file names none; "
        "refused where it names another")(
        "json", po::bool_switch(&as_json), "say what was written as JSON");
    line.positional("inputs", po::value(&positional)->composing(), -1);
    if (!line.parse(args))
        return exit_ok;
    if (positional.empty())
        throw UsageError("autotune import needs a format and a file: autotune import kt-cache FILE -o RESULTS");
    if (positional.front() != "kt-cache")
        throw UsageError(fmt::format("autotune import: unknown format '{}' (known: kt-cache)", positional.front()));
    if (positional.size() != 2)
        throw UsageError("autotune import kt-cache takes one FILE: autotune import kt-cache FILE -o RESULTS");
    if (out.empty())
        throw UsageError("autotune import needs -o RESULTS, the results file to write");
    require_writable_file("-o", out);
    const std::string& file = positional[1];
    const DeviceSpec* measured_on = device.empty() ? nullptr : &find_device_spec(device);

    json results;
    try {
        results = import_kt_cache(file);
        if (measured_on)
            name_imported_device(results, *measured_on, file);
    } catch (const KtCacheError& e) {
        throw UsageError(e.what());
    }
    write_file_atomically(out, results.dump(2) + "\n");

    std::map<std::string, std::size_t> statuses;
    for (const auto& v : results.at("variants"))
        ++statuses[v.at("status").get<std::string>()];
    std::string counts;
    for (const auto& [status, n] : statuses)
        counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, status);
    std::string text = fmt::format("imported {} configurations of {} from {} ({}) into {}\n",
                                   results.at("variants").size(), results.at("kernel").get<std::string>(), file,
                                   counts.empty() ? "none" : counts, out);
    const json& winner = results.at("problems").at(0).at("winner");
    json winner_summary = nullptr;
    if (!winner.is_null()) {
        for (const auto& v : results.at("variants"))
            if (v.at("index") == winner.at("index")) {
                // The winner is by the file's objective where it records one (Kernel Tuner's
                // time, the mean of its runs), else by the median: say which.
                const json& m = v.at("measurement");
                const double median = m.at("time_seconds").at("median").get<double>();
                winner_summary = {{"index", winner.at("index")}, {"params", winner.at("params")},
                                  {"median_seconds", median}};
                if (m.contains("objective_seconds")) {
                    const double objective = m.at("objective_seconds").get<double>();
                    text += fmt::format("winner: #{} {} at {:.6g} s (the file's time, the mean of its runs; median "
                                        "{:.6g} s)\n",
                                        winner.at("index").dump(), winner.at("params").dump(), objective, median);
                    winner_summary["objective_seconds"] = objective;
                } else {
                    text += fmt::format("winner: #{} {} at {:.6g} s (median)\n", winner.at("index").dump(),
                                        winner.at("params").dump(), median);
                }
                break;
            }
    }
    print_written(as_json,
                  {{"written", {out}}, {"kernel", results.at("kernel")}, {"configurations", results.at("variants").size()},
                   {"statuses", statuses}, {"winner", winner_summary}},
                  text);
    return exit_ok;
}

} // namespace autotune::cli
