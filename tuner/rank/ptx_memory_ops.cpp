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
    // "st.u32", "atom.global.add.u32", "red.add.f32", "cp.async.bulk.global.shared::cta.bulk_group",
    // "cp.reduce.async.bulk.tensor...global..."; not stmatrix, st.shared, atom.shared.
    static const std::regex write(R"((^|[\s;{}])(st|atom|red|cp\.async\.bulk|cp\.reduce\.async\.bulk)((\.[A-Za-z0-9_:]+)*)\s)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), write); it != std::sregex_iterator(); ++it) {
        const std::string kind = (*it)[2].str();
        const std::string parts = (*it)[3].str() + ".";
        const auto has = [&](const char* space) { return parts.find(std::string(".") + space + ".") != std::string::npos; };
        if (kind.rfind("cp", 0) == 0) {
            // The destination's space comes first ("cp.async.bulk.tensor.2d.global.shared::cta"
            // stores a tile; ".shared::cluster.global" loads one).
            std::string to = parts;
            if (to.rfind(".tensor.", 0) == 0)
                to = to.substr(to.find('.', 8));
            if (to.rfind(".global.", 0) == 0)
                ++ops.other_writes;
        } else if (!has("global") && !has("shared") && !has("local") && !has("param") && !has("const") &&
                   parts.find(".shared::") == std::string::npos) {
            ++ops.other_writes; // generic: st.u32, atom.add.u32
        } else if (has("global") && (kind != "st" || parts.rfind(".global.", 0) != 0)) {
            ++ops.other_writes; // atom.global, red.global, st.relaxed.gpu.global (st.global is counted above)
        }
    }
    return ops;
}

} // namespace autotune
