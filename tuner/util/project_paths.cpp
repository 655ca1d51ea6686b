#include "util/project_paths.hpp"

#include "autotune_build_config.hpp"

#include <algorithm>
#include <cstdlib>

namespace autotune {

std::filesystem::path project_root()
{
    if (const char* home = std::getenv("AUTOTUNE_HOME"); home && *home)
        return std::filesystem::weakly_canonical(home);
    // An installed autotune keeps kernels/ and templates/ in <prefix>/share/autotune.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share" / "autotune";
        if (std::filesystem::is_directory(installed / "kernels"))
            return installed;
    }
    return std::filesystem::weakly_canonical(AUTOTUNE_SOURCE_DIR);
}

std::filesystem::path builtin_kernels_dir() { return project_root() / "kernels"; }

std::vector<std::filesystem::path> builtin_kernel_specs()
{
    std::vector<std::filesystem::path> specs;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(builtin_kernels_dir(), ec))
        if (entry.path().extension() == ".toml")
            specs.push_back(entry.path());
    std::sort(specs.begin(), specs.end());
    return specs;
}

} // namespace autotune
