// ResourceUsage: what ptxas gave one kernel — registers, spills, stack, shared and
// constant memory, barriers — and the register cap it really compiled under, with the
// mechanism that set it. Built from ptxas' log and the cubin's own metadata, which must
// agree.
#pragma once

#include "compile/cubin_info.hpp"
#include "compile/ptxas_log.hpp"
#include "space/variant.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

struct ResourceUsage {
    int registers = 0;
    std::int64_t spill_stores = 0; // bytes
    std::int64_t spill_loads = 0;  // bytes
    std::int64_t stack_frame = 0;  // bytes per thread
    std::int64_t shared_static = 0;
    std::optional<std::int64_t> constant_bank0; // where ptxas printed cmem[0]
    int barriers = 0;
    // The per-thread cap ptxas compiled under (255: none below the architecture's maximum).
    int register_cap = 255;
    // What set the cap: "none", "maxrregcount", "launch_bounds", "maxnreg".
    std::string register_cap_source = "none";
    // The file-level --maxrregcount ptxas replaced with the cap it derived from
    // __launch_bounds__ (it still shapes the code: NVVM sees it).
    std::optional<int> maxrregcount_overridden;
    // A requested cap below the architecture's lower bound, which ptxas raised.
    std::optional<int> cap_raised_from;
    std::optional<std::int64_t> launch_bound_max_threads; // as recorded in the cubin
    bool min_blocks_ignored = false; // ptxas dropped an unreachable __launch_bounds__ min blocks
    std::vector<std::string> warnings; // ptxas warnings about the kernel
};

// ptxas' log and the cubin disagree: the message names the quantity and both values.
class ResourceMismatch : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[nodiscard]] ResourceUsage combine_resource_usage(const PtxasReport& log, const CubinFunctionInfo& cubin,
                                                   const RegisterPolicy& requested);

} // namespace autotune
