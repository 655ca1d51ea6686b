// autotune merge PARTS... -o FILE: the parts of a sharded run (--shard I/N) as one results
// file, identical to what an unsharded run writes.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "cli/written_outcome.hpp"
#include "emit/merge_results.hpp"
#include "emit/results_reader.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"

#include <boost/program_options.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int merge_command(const Arguments& args)
{
    std::vector<std::string> paths;
    std::string output;
    bool json = false;
    CommandLine line("usage: autotune merge PARTS... -o FILE [--json]");
    line.options()("output,o", po::value(&output), "the merged results file")(
        "json", po::bool_switch(&json), "say what was written as JSON");
    line.positional("parts", po::value(&paths)->composing(), -1);
    if (!line.parse(args))
        return exit_ok;
    if (paths.empty() || output.empty())
        throw UsageError("autotune merge needs the parts and -o FILE, e.g. autotune merge results/sm_90/gemm.shard-*-of-4.json "
                         "-o results/sm_90/gemm.json");
    require_writable_file("-o", output);
    // Written over one of its parts, a failed merge later could not be run again.
    for (const auto& path : paths) {
        std::error_code ec;
        if (std::filesystem::equivalent(path, output, ec))
            throw UsageError(fmt::format("-o {} is one of the parts merged ({}); write the merged file elsewhere", output, path));
    }
    std::size_t variants = 0;
    try {
        std::vector<nlohmann::ordered_json> parts;
        for (const auto& path : paths)
            parts.push_back(read_tuning_run_file(path, "autotune merge combines the parts of one sharded tuning run "
                                                       "(--shard I/N)"));
        const nlohmann::ordered_json merged = merge_results(parts, paths);
        variants = merged.at("variants").size();
        write_file_atomically(output, merged.dump(2) + "\n");
    } catch (const std::invalid_argument& e) {
        throw UsageError(one_line(e.what()));
    }
    print_written(json, {{"written", {output}}, {"parts", paths}, {"variants", variants}},
                  "merged " + std::to_string(paths.size()) + " parts into " + output + "\n");
    return exit_ok;
}

} // namespace autotune::cli
