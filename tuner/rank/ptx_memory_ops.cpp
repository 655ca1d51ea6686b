#include "rank/ptx_memory_ops.hpp"

#include <regex>
#include <string>

namespace autotune {

GlobalMemoryOps count_global_memory_ops(std::string_view ptx)
{
    // Instructions such as "ld.global.nc.v4.u32", "ld.global.f32", "st.global.v2.f32".
    static const std::regex op(R"((ld|st)\.global(\.[a-z0-9]+)*)");
    GlobalMemoryOps ops;
    const std::string text(ptx);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), op); it != std::sregex_iterator(); ++it) {
        const std::string instruction = it->str();
        const bool vector = instruction.find(".v2") != std::string::npos || instruction.find(".v4") != std::string::npos ||
                            instruction.find(".v8") != std::string::npos;
        const bool load = instruction.rfind("ld", 0) == 0;
        (load ? (vector ? ops.vector_loads : ops.scalar_loads) : (vector ? ops.vector_stores : ops.scalar_stores))++;
    }
    return ops;
}

} // namespace autotune
