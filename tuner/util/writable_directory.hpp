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
// `created` says whether folders made for the test stay: a command that checks where it
// will write before reading its inputs must leave nothing behind when an input is refused.
enum class CreatedFolders { kept, removed };
[[nodiscard]] std::optional<std::string> why_not_writable_directory(const std::filesystem::path& dir,
                                                                    CreatedFolders created = CreatedFolders::kept);

} // namespace autotune
