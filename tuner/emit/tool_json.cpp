#include "emit/tool_json.hpp"

#include "util/tool_version.hpp"

namespace autotune {

nlohmann::ordered_json tool_json()
{
    const ToolVersion tool = tool_version();
    return {{"name", tool.name}, {"version", tool.version}, {"git_revision", tool.git_revision}};
}

} // namespace autotune
