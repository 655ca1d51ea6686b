// autotune header RESULTS... -o FILE: the tuned header other builds include. Before a
// winner goes in, it is compiled with nvcc the way a consumer compiles it (with the flag
// autotune's CMake package sets) and compared with what was tuned: registers, spills and
// machine code. A mismatch is said in the header's comment and here.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/header_generation.hpp"

#include <boost/program_options.hpp>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int header_command(const Arguments& args)
{
    std::vector<std::string> inputs;
    std::string output;
    bool check = true;
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("output,o", po::value(&output), "the header to write")(
        "no-check", "skip rebuilding the winners with nvcc (faster; the header says so)");
    po::options_description all;
    all.add(options).add_options()("results", po::value(&inputs)->composing());
    po::positional_options_description positions;
    positions.add("results", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: autotune header RESULTS... -o FILE [--no-check]\n\n" << options;
        return exit_ok;
    }
    po::notify(vm);
    check = vm.count("no-check") == 0;
    if (inputs.empty())
        throw UsageError("autotune header needs results files, e.g. results/sm_80/gemm.json results/sm_90/gemm.json");
    if (output.empty())
        throw UsageError("autotune header needs -o FILE: where to write the header");
    const HeaderOutcome outcome = generate_tuned_header(inputs, output, check);
    for (const auto& line : outcome.mismatches)
        std::cout << "mismatch: " << line << "\n";
    std::cout << outcome.entries << " tuned configurations written to " << output << "\n";
    return exit_ok;
}

} // namespace autotune::cli
