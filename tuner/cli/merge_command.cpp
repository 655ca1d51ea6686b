// autotune merge PARTS... -o FILE: the parts of a sharded run (--shard I/N) as one results
// file, identical to what an unsharded run writes.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "emit/merge_results.hpp"
#include "emit/results_reader.hpp"
#include "util/atomic_file.hpp"

#include <boost/program_options.hpp>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int merge_command(const Arguments& args)
{
    std::vector<std::string> paths;
    std::string output;
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("output,o", po::value(&output), "the merged results file");
    po::options_description all;
    all.add(options).add_options()("parts", po::value(&paths)->composing());
    po::positional_options_description positions;
    positions.add("parts", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: autotune merge PARTS... -o FILE\n\n" << options;
        return exit_ok;
    }
    po::notify(vm);
    if (paths.empty() || output.empty())
        throw UsageError("autotune merge needs the parts and -o FILE, e.g. autotune merge results/sm_90/gemm.shard-*-of-4.json "
                         "-o results/sm_90/gemm.json");
    try {
        std::vector<nlohmann::ordered_json> parts;
        for (const auto& path : paths)
            parts.push_back(read_results_file(path));
        write_file_atomically(output, merge_results(parts, paths).dump(2) + "\n");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    std::cout << "merged " << paths.size() << " parts into " << output << "\n";
    return exit_ok;
}

} // namespace autotune::cli
