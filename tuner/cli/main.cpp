// autotune: a compile-time CUDA kernel autotuner. This file only dispatches to the
// subcommands and turns errors into one line on stderr and an exit code.
#include "arch/arch_target.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "tune/tune_problem.hpp"
#include "util/closest_name.hpp"
#include "util/project_paths.hpp"
#include "util/tool_version.hpp"

#include <boost/program_options/errors.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace {

const char* const usage = R"(usage: autotune <command> [options]

Tune a kernel:
  autotune <kernel> --arch sm_XX [--problem K=V,...] [--space default|full]
                    [--compile-only] [--compiler nvrtc|nvcc] [--nvrtc PATH]
                    [--compile-option=OPT] [--jobs N] [--cache DIR|none] [--out DIR] [--json]
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
  autotune roofline [--device N] [--nvrtc PATH]    measure a GPU's ceilings (bandwidth, fp32 FMA)
  autotune compare BASE NEW [--threshold PCT] [--json] [--markdown FILE]
                                                   compare two results, exit 1 on a regression

Search offline:
  autotune import kt-cache FILE -o RESULTS         a Kernel Tuner cache (or a T4 document) as a results file
  autotune export t4 RESULTS -o FILE               a results file's measurements as T4
  autotune replay RESULTS --strategy NAME --budget N|P% [--seed K] [--static COMPILED] [--prior OTHER] [--json]
                                                   replay a search strategy on recorded times
  autotune check-model SPEC --measured FILE --arch sm_XX [--device NAME] [--clock MHZ] [--sample N --seed K] [--compile-option=OPT] [--nvrtc PATH] [--points FILE] [--json]
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

using Command = int (*)(const autotune::cli::Arguments&);

// Every command by name; the first argument is one of these or a built-in kernel.
std::vector<std::pair<std::string, Command>> commands()
{
    using namespace autotune::cli;
    return {{"list", list_command},         {"run", run_spec_command},       {"fidelity", fidelity_command},
            {"occupancy", occupancy_command}, {"archs", archs_command},      {"devices", devices_command},
            {"report", report_command},     {"roofline", roofline_command}, {"compare", compare_command},
            {"header", header_command},     {"import", import_command},     {"export", export_command},
            {"replay", replay_command},     {"check-model", check_model_command}, {"merge", merge_command},
            {"measure-worker", measure_worker_command}, {"compile-worker", compile_worker_command}};
}

// Neither a command nor a built-in kernel: said before any option is read, so a typo is
// not reported as a missing --arch.
[[noreturn]] void unknown_command(const std::string& name, const std::vector<std::pair<std::string, Command>>& known,
                                  const std::vector<std::string>& kernel_names)
{
    std::vector<std::string> command_names;
    for (const auto& [command, handler] : known)
        if (!command.ends_with("-worker")) // internal: the measuring and compiling workers the tuner starts
            command_names.push_back(command);
    std::vector<std::string> every = command_names;
    every.insert(every.end(), kernel_names.begin(), kernel_names.end());
    throw autotune::cli::UsageError(fmt::format(
        "unknown kernel or command '{}' ({}commands: {}; built-in kernels: {}; autotune run SPEC tunes your own)",
        name, autotune::did_you_mean(name, every), fmt::join(command_names, ", "), fmt::join(kernel_names, ", ")));
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
    const auto known = commands();
    for (const auto& [name, handler] : known)
        if (name == command)
            return handler(rest);
    if (!command.empty() && command.front() == '-')
        throw UsageError("'" + command + "' is not a command; the first argument names a kernel or a command "
                         "(autotune --help)");
    // A name of the list, not any path under kernels/ ("../examples/blur" is no built-in kernel).
    std::vector<std::string> kernels;
    for (const auto& spec : autotune::builtin_kernel_specs())
        kernels.push_back(spec.stem().string());
    if (std::find(kernels.begin(), kernels.end(), command) == kernels.end())
        unknown_command(command, known, kernels);
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
