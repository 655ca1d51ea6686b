// Who wrote a document: the "tool" field of results files and the run log. Alone in its
// file so that readers which write it (the Kernel Tuner importer, its fuzz target) link
// without the results writer.
#pragma once

#include <nlohmann/json.hpp>

namespace autotune {

// {"name", "version", "git_revision"} of this build.
[[nodiscard]] nlohmann::ordered_json tool_json();

} // namespace autotune
