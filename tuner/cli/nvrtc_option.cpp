#include "cli/nvrtc_option.hpp"

#include "cli/cli_error.hpp"

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

} // namespace autotune::cli
