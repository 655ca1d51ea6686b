// A file's text, inflated first when it is gzipped (magic 1f 8b; members one after another):
// Kernel Tuner ships its caches gzipped, and a results file or a T4 document kept beside
// them may be too, so every reader of such files takes either.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace autotune {

// Data that starts as gzip but does not inflate (truncated, corrupt). The message says why,
// without the file: the caller names it.
class GzipError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

[[nodiscard]] bool is_gzip(std::string_view data);

// Every member inflated; throws GzipError.
[[nodiscard]] std::string gunzip(std::string_view data);

// The file's bytes, inflated where they are gzip. Throws GzipError where they do not
// inflate, std::invalid_argument ("cannot read it") where the file cannot be read.
[[nodiscard]] std::string read_maybe_gzipped(const std::filesystem::path& path);

} // namespace autotune
