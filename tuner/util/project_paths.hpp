// Where the project's own files are (kernels/, templates/): $AUTOTUNE_HOME when set,
// else the source tree the program was built from.
#pragma once

#include <filesystem>

namespace autotune {

[[nodiscard]] std::filesystem::path project_root();
[[nodiscard]] std::filesystem::path builtin_kernels_dir(); // project_root()/kernels

} // namespace autotune
