#include "util/tool_version.hpp"

#include "autotune_build_config.hpp"
#include "autotune_git_revision.hpp"

namespace autotune {

ToolVersion tool_version()
{
    return {"autotune", AUTOTUNE_VERSION, AUTOTUNE_GIT_REVISION, AUTOTUNE_CUDA_TOOLKIT_VERSION};
}

} // namespace autotune
