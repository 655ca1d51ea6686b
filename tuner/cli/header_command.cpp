// autotune header RESULTS... -o FILE: the tuned header other builds include. Before a
// winner goes in, it is compiled with nvcc the way a consumer compiles it (with the flag
// autotune's CMake package sets) and compared with what was tuned: registers, spills and
// machine code. A mismatch is said in the header's comment and here.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/compile_cache_option.hpp"
#include "cli/header_generation.hpp"
#include "cli/output_paths.hpp"
#include "cli/written_outcome.hpp"

#include <boost/program_options.hpp>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int header_command(const Arguments& args)
{
    std::vector<std::string> inputs;
    std::string output, cache;
    bool check = true;
    bool json = false;
    CommandLine line("usage: autotune header RESULTS... -o FILE [--no-check] [--cache DIR|none] [--json]");
    line.options()("output,o", po::value(&output), "the header to write")(
        "no-check", "skip rebuilding the winners with nvcc (faster; the header says so)")(
        "cache", po::value(&cache), "compile cache directory for the nvcc check, or 'none' (default: ~/.cache/autotune)")(
        "json", po::bool_switch(&json), "say what was written as JSON");
    line.positional("results", po::value(&inputs)->composing(), -1);
    if (!line.parse(args))
        return exit_ok;
    check = !line.given("no-check");
    if (inputs.empty())
        throw UsageError("autotune header needs results files, e.g. results/sm_80/gemm.json results/sm_90/gemm.json");
    if (output.empty())
        throw UsageError("autotune header needs -o FILE: where to write the header");
    require_writable_file("-o", output);
    CompileSettings settings;
    if (check)
        use_compile_cache(cache, settings, [](const std::string& said) { std::cerr << said << "\n"; });
    const HeaderOutcome outcome = generate_tuned_header(inputs, output, check, settings.cache_dir);
    std::string text;
    for (const auto& mismatch : outcome.mismatches)
        text += "mismatch: " + mismatch + "\n";
    text += std::to_string(outcome.entries) + " tuned configurations written to " + output + "\n";
    print_written(json,
                  {{"written", {output}}, {"entries", outcome.entries}, {"inputs", inputs}, {"checked", check},
                   {"mismatches", outcome.mismatches}},
                  text);
    return exit_ok;
}

} // namespace autotune::cli
