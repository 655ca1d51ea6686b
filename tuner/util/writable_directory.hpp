// Whether a directory can take the files a command will write there, found before the
// work that produces them rather than after it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace autotune {

// nullopt when `dir` is a directory a file can be written in (it is created if missing,
// and a probe file written there and removed); else why not, to follow the path in a
// message: "is not a directory", "cannot be created (Not a directory)", "cannot be
// written (No space left on device)".
[[nodiscard]] std::optional<std::string> why_not_writable_directory(const std::filesystem::path& dir);

} // namespace autotune
