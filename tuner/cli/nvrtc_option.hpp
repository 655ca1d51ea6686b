// What the tuning commands and check-model compile with: --nvrtc PATH, the libnvrtc.so of
// the toolkit to compile with (the one a build ships with, or the one a measurement was
// made with) instead of the NVRTC this program was built with, and --compile-option=OPT.
// (fidelity recompiles with nvcc; header and merge compile nothing new.)
#pragma once

#include "arch/arch_target.hpp"
#include "compile/nvrtc_library.hpp"
#include "spec/kernel_spec.hpp"
#include "tune/tune_problem.hpp"

#include <boost/program_options/options_description.hpp>
#include <string>

namespace autotune::cli {

void add_nvrtc_option(boost::program_options::options_description_easy_init add, std::string& path);

// --compile-option=OPT, repeatable: compiler options for every variant beyond the spec's.
// `purpose` ends the help text (what the options are for, in that command).
void add_compile_option_option(boost::program_options::options_description_easy_init add,
                               std::vector<std::string>& options, const std::string& purpose);
// Appends `options` to the spec's; throws UsageError naming one that does not start with '-'.
void append_compile_options(KernelSpec& spec, const std::vector<std::string>& options);

// Settles what the command compiles with, before anything compiles, into `setup`: its
// compiler, the NVRTC --nvrtc names (`nvrtc_path`; empty: the linked one), the arch checked
// against that library, and `added` (--compile-option, which `spec`'s options end with).
// With NVRTC the spec's own options are tried first, a refusal naming the spec's file, then
// with `added`, naming --compile-option. Throws UsageError (a library that cannot be loaded
// or asked, --nvrtc with nvcc, refused options) or ArchError, each naming the input.
void settle_compiler(TuneSetup& setup, const KernelSpec& spec, CompilerKind compiler, const std::string& nvrtc_path,
                     const std::string& arch_text, const std::vector<std::string>& added);

} // namespace autotune::cli
