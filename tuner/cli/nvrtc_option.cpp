#include "cli/nvrtc_option.hpp"

#include "cli/cli_error.hpp"
#include "compile/nvrtc_compiler.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace autotune::cli {

void add_nvrtc_option(boost::program_options::options_description_easy_init add, std::string& path)
{
    add("nvrtc", boost::program_options::value(&path),
        "PATH: compile with this libnvrtc.so (another CUDA toolkit's, e.g. the one your build ships with or the one "
        "a measured file was made with) instead of the NVRTC autotune was built with; register counts differ "
        "between toolkits");
}

void add_compile_option_option(boost::program_options::options_description_easy_init add,
                               std::vector<std::string>& options, const std::string& purpose)
{
    add("compile-option", boost::program_options::value(&options)->composing(),
        fmt::format("=OPT: a compiler option for every variant beyond the spec's, {} (repeat for several; write it "
                    "with '=': --compile-option=-ftz=true)", purpose)
            .c_str());
}

void append_compile_options(KernelSpec& spec, const std::vector<std::string>& options)
{
    for (const auto& option : options) {
        if (option.empty() || option.front() != '-')
            throw UsageError(fmt::format("--compile-option '{}': a compiler option starts with '-' (e.g. "
                                         "--compile-option=-ftz=true)", option));
        spec.compile_options.push_back(option);
    }
}

void settle_compiler(TuneSetup& setup, const KernelSpec& spec, CompilerKind compiler, const std::string& nvrtc_path,
                     const std::string& arch_text, const std::vector<std::string>& added)
{
    if (!nvrtc_path.empty() && compiler != CompilerKind::nvrtc)
        throw UsageError("--nvrtc applies to --compiler nvrtc only (for nvcc, put another toolkit's nvcc in AUTOTUNE_NVCC)");
    try {
        setup.compile.nvrtc = nvrtc_library(nvrtc_path);
        setup.arch = require_compilable_arch(arch_text, setup.compile.nvrtc);
    } catch (const NvrtcLibraryError& e) {
        throw UsageError(e.what());
    }
    setup.compile.compiler = compiler;
    setup.compile_options_added = added;
    if (compiler != CompilerKind::nvrtc)
        return;
    const auto& all = spec.compile_options;
    const std::vector<std::string> own(all.begin(), all.end() - static_cast<std::ptrdiff_t>(added.size()));
    const auto require = [&](const std::vector<std::string>& options, const std::string& whose) {
        if (options.empty())
            return;
        if (const std::string why = rejected_options(setup.compile.nvrtc, setup.arch, options); !why.empty())
            throw UsageError(fmt::format("{}: {} refuses the compile options '{}': {}", whose,
                                         describe(setup.compile.nvrtc), fmt::join(options, " "), why));
    };
    require(own, spec.spec_path.string());
    if (!added.empty())
        require(all, "--compile-option");
}

} // namespace autotune::cli
