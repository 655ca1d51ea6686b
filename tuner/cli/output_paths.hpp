// Where a command will write, checked before the work that produces what it writes: a bad
// path is a usage error naming the option, not a failure after minutes of compiling.
#pragma once

#include <string>

namespace autotune::cli {

// `path` (not empty: CommandLine::parse refuses an option's empty value) can be written as
// a file: it is not a directory, and its folder can be created and written in. Nothing is left behind: folders made to find out are removed,
// so an input refused after this check leaves no trace. Throws UsageError: "-o /proc/x/h.hpp: /proc/x cannot be created (...)".
void require_writable_file(const std::string& option, const std::string& path);

// `path` is a folder files can be written in, or can be made one; left as found. Throws UsageError.
void require_writable_folder(const std::string& option, const std::string& path);

} // namespace autotune::cli
