// autotune: a compile-time CUDA kernel autotuner. This file only dispatches to the
// subcommands and turns errors into one line on stderr and an exit code.
#include "arch/arch_target.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "tune/tune_problem.hpp"
#include "util/tool_version.hpp"

#include <boost/program_options/errors.hpp>
#include <iostream>

namespace {

const char* const usage = R"(usage: autotune <command> [options]

Tune a kernel:
  autotune <kernel> --arch sm_XX [--problem K=V,...] [--space default|full]
                    [--compile-only] [--compiler nvrtc|nvcc] [--jobs N]
                    [--cache DIR|none] [--out DIR] [--json]
  autotune run SPEC --arch sm_XX [same options]   tune your own kernel from a spec file

Inspect:
  autotune list [--json]                           built-in kernels, parameters, space sizes
  autotune archs [--json]                          architecture and device tables
  autotune devices [--json]                        the GPUs this machine's driver sees
  autotune occupancy --arch sm_XX --threads N --regs N [--smem BYTES] [--json]
                                                   what-if occupancy calculator
  autotune fidelity RESULTS [--limit N] [--json]   recompile variants with nvcc, compare
  autotune report RESULTS... [-o DIR]              Markdown report and roofline SVGs
  autotune header RESULTS... -o FILE               the tuned header other builds include
  autotune merge PARTS... -o FILE                  combine the parts of a --shard I/N run
  autotune roofline [--device N]                   measure a GPU's ceilings (bandwidth, fp32 FMA)
  autotune compare BASE NEW [--threshold PCT] [--json] [--markdown FILE]
                                                   compare two results, exit 1 on a regression

Search offline:
  autotune import kt-cache FILE -o RESULTS         a Kernel Tuner cache (or a T4 document) as a results file
  autotune export t4 RESULTS -o FILE               a results file's measurements as T4
  autotune replay RESULTS --strategy NAME --budget N|P% [--seed K] [--json]
                                                   replay a search strategy on recorded times
  autotune check-model SPEC --measured FILE --arch sm_XX [--device NAME] [--sample N --seed K] [--json]
                                                   score the model's ranking and failures against measurements

autotune --version: the tool's version and git revision, and the CUDA toolkit it was built with.
Every command takes --help. Exit codes: 0 success, 1 something failed while running,
2 bad usage or bad input.
)";

std::string version_text()
{
    const autotune::ToolVersion v = autotune::tool_version();
    return "autotune " + v.version + " (git " + v.git_revision + ")\nbuilt with CUDA toolkit " + v.cuda_toolkit +
           "; NVRTC " + autotune::nvrtc_version() + "\n";
}

int dispatch(const std::vector<std::string>& all)
{
    using namespace autotune::cli;
    if (all.empty()) {
        std::cerr << usage;
        return exit_bad_input;
    }
    const std::string& command = all.front();
    const Arguments rest(all.begin() + 1, all.end());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage;
        return exit_ok;
    }
    if (command == "--version" || command == "version") {
        std::cout << version_text();
        return exit_ok;
    }
    if (command == "list") return list_command(rest);
    if (command == "run") return run_spec_command(rest);
    if (command == "fidelity") return fidelity_command(rest);
    if (command == "occupancy") return occupancy_command(rest);
    if (command == "archs") return archs_command(rest);
    if (command == "devices") return devices_command(rest);
    if (command == "report") return report_command(rest);
    if (command == "roofline") return roofline_command(rest);
    if (command == "compare") return compare_command(rest);
    if (command == "header") return header_command(rest);
    if (command == "import") return import_command(rest);
    if (command == "export") return export_command(rest);
    if (command == "replay") return replay_command(rest);
    if (command == "check-model") return check_model_command(rest);
    if (command == "merge") return merge_command(rest);
    if (command == "measure-worker") return measure_worker_command(rest);
    if (command == "compile-worker") return compile_worker_command(rest);
    if (!command.empty() && command.front() == '-')
        throw UsageError("'" + command + "' is not a command; the first argument names a kernel or a command "
                         "(autotune --help)");
    return tune_builtin_command(command, rest);
}

} // namespace

int main(int argc, char** argv)
{
    using namespace autotune;
    try {
        return dispatch(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const cli::UsageError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const boost::program_options::error& e) {
        std::cerr << "autotune: " << e.what() << " (see --help)\n";
    } catch (const SpecError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const ArchError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const ProblemError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const ExpressionError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const TuneError& e) {
        std::cerr << "autotune: " << e.what() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "autotune: error: " << e.what() << "\n";
        return cli::exit_failed;
    }
    return cli::exit_bad_input;
}
