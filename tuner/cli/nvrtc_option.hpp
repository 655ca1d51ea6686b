// --nvrtc PATH as every compiling command takes it: the libnvrtc.so of the toolkit to
// compile with (the one a build ships with, or the one a measurement was made with),
// instead of the NVRTC this program was built with.
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
// throws UsageError naming the path when it cannot be loaded, ArchError when it cannot
// compile for the architecture.
struct CompilerChoice {
    NvrtcLibrary nvrtc;
    ArchTarget arch;
};
[[nodiscard]] CompilerChoice choose_nvrtc(const std::string& path, const std::string& arch_text);

// Throws UsageError naming `whose` options ("--compile-option", a spec's path) when the
// chosen NVRTC refuses them, before anything is compiled.
void require_accepted_options(const CompilerChoice& chosen, const std::vector<std::string>& options,
                              const std::string& whose);

} // namespace autotune::cli
