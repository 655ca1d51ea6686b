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

CompilerChoice choose_nvrtc(const std::string& path, const std::string& arch_text)
{
    NvrtcLibrary nvrtc;
    try {
        nvrtc = nvrtc_library(path);
    } catch (const NvrtcLibraryError& e) {
        throw UsageError(e.what());
    }
    const ArchTarget arch = require_compilable_arch(arch_text, nvrtc);
    return {std::move(nvrtc), arch};
}

void require_accepted_options(const CompilerChoice& chosen, const std::vector<std::string>& options,
                              const std::string& whose)
{
    if (options.empty())
        return;
    if (const std::string why = rejected_options(chosen.nvrtc, chosen.arch, options); !why.empty())
        throw UsageError(fmt::format("{}: {} refuses the compile options '{}': {}", whose, describe(chosen.nvrtc),
                                     fmt::join(options, " "), why));
}

} // namespace autotune::cli
