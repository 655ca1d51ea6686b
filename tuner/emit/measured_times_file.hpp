// A file of measured times where any of the three layouts may come: an autotune results
// file, a Kernel Tuner cache or a T4 document (gzipped or not). replay's space and --prior
// (on replay and on a tuning run) read measured times only, so a cache as Kernel Tuner
// ships it is taken as `autotune import kt-cache` would write it, without the extra file;
// check-model's --measured reads the same three (measured_file.hpp).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace autotune {

// Whether the file is a Kernel Tuner cache or a T4 document (gzipped or not); false for
// anything else, a file that cannot be read or parsed included.
[[nodiscard]] bool is_kernel_tuners_file(const std::filesystem::path& path);

// A results document. Throws what read_results_file throws for a file that is neither a
// cache nor a T4 document, and KtCacheError (naming the file) for one that is but cannot
// be imported.
[[nodiscard]] nlohmann::ordered_json read_measured_times_file(const std::filesystem::path& path);

} // namespace autotune
