// Writing the tuned header from results files, with the nvcc check of each winner;
// shared by `autotune header` and the tuning commands' --header.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace autotune::cli {

struct HeaderOutcome {
    std::size_t entries = 0;
    std::vector<std::string> mismatches; // winners nvcc builds differently from what was tuned
};

// Throws UsageError for bad input (a results file that is missing, not one, or holds a
// name or value that cannot be C++); nothing is written then.
// The nvcc check compiles through `cache_dir` (settled by the caller: use_compile_cache);
// nullopt compiles uncached.
HeaderOutcome generate_tuned_header(const std::vector<std::string>& results_paths, const std::filesystem::path& output,
                                    bool check_with_nvcc, const std::optional<std::filesystem::path>& cache_dir);

} // namespace autotune::cli
