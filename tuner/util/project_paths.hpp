// Where the project's own files are (kernels/, templates/): $AUTOTUNE_HOME when set,
// else the source tree the program was built from.
#pragma once

#include <filesystem>
#include <vector>

namespace autotune {

[[nodiscard]] std::filesystem::path project_root();
[[nodiscard]] std::filesystem::path builtin_kernels_dir(); // project_root()/kernels
// The spec files of the built-in kernels (kernels/*.toml), sorted by name.
[[nodiscard]] std::vector<std::filesystem::path> builtin_kernel_specs();

} // namespace autotune
