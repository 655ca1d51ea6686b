// What the tuning commands and check-model compile with: --nvrtc PATH, the libnvrtc.so of
// the toolkit to compile with (the one a build ships with, or the one a measurement was
// made with) instead of the NVRTC this program was built with, and --compile-option=OPT.
// (fidelity recompiles with nvcc; header and merge compile nothing new.)
#pragma once

#include "arch/arch_target.hpp"
#include "compile/nvrtc_library.hpp"
#include "spec/kernel_spec.hpp"

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

// The library --nvrtc names (empty: the linked one) and `arch_text` checked against it;
// throws UsageError naming the path when it cannot be loaded or asked what it compiles
// for, ArchError when it cannot compile for the architecture.
struct CompilerChoice {
    NvrtcLibrary nvrtc;
    ArchTarget arch;
};
[[nodiscard]] CompilerChoice choose_nvrtc(const std::string& path, const std::string& arch_text);

// Throws UsageError when the chosen NVRTC refuses the options, before anything compiles.
// `spec`'s options end with `added` (append_compile_options): the spec's own are checked
// first, a refusal naming the spec's file, then with `added`, a refusal naming
// --compile-option.
void require_accepted_options(const CompilerChoice& chosen, const KernelSpec& spec,
                              const std::vector<std::string>& added);

} // namespace autotune::cli
