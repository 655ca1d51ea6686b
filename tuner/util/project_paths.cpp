#include "util/project_paths.hpp"

#include <cstdlib>

namespace autotune {

std::filesystem::path project_root()
{
    if (const char* home = std::getenv("AUTOTUNE_HOME"); home && *home)
        return std::filesystem::weakly_canonical(home);
    return std::filesystem::weakly_canonical(AUTOTUNE_SOURCE_DIR);
}

std::filesystem::path builtin_kernels_dir() { return project_root() / "kernels"; }

} // namespace autotune
