// What built this program: autotune's version and git revision, and the CUDA toolkit it
// was compiled against. Results files carry it as provenance; `autotune --version` prints it.
#pragma once

#include <string>

namespace autotune {

struct ToolVersion {
    std::string name;            // "autotune"
    std::string version;         // "0.1.0", the CMake project's version
    std::string git_revision;    // "dd66785a1b2c", "-dirty" with uncommitted changes, or "unknown"
    std::string cuda_toolkit;    // the toolkit's version at build time, "13.0.48"
};

[[nodiscard]] ToolVersion tool_version();

} // namespace autotune
