// The files a compile reads: the kernel's file and, recursively, every header it
// includes with #include "...". Their contents are part of the compile cache key, so
// editing a header invalidates exactly the variants that include it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace autotune {

struct SourceFile {
    std::filesystem::path path; // absolute
    std::string content;
};

// Includes are resolved as the compiler does for quoted includes: next to the including
// file first, then in `include_dirs`. Unresolvable ones are skipped (the compiler will
// report them); <system> headers belong to the toolkit and are keyed by its version.
[[nodiscard]] std::vector<SourceFile> collect_source_files(const std::filesystem::path& main_file,
                                                           const std::vector<std::filesystem::path>& include_dirs);

} // namespace autotune
