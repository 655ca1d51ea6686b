// What ptxas says about one entry function in its verbose (-v) log, as NVRTC, nvcc and
// the standalone ptxas print it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

struct PtxasReport {
    bool found = false;                   // the log has a "Used N registers" line for the function
    int registers = 0;
    // "used N barriers": CUDA 12 and later print it (where there are any); CUDA 11's
    // ptxas never does, so the cubin says.
    std::optional<int> barriers;
    std::int64_t stack_frame = 0;         // bytes per thread, the kernel's own frame
    std::optional<std::int64_t> cumulative_stack; // with callees' frames, where printed
    std::int64_t spill_stores = 0;        // bytes
    std::int64_t spill_loads = 0;         // bytes
    std::int64_t shared_bytes = 0;        // "N bytes smem": static shared memory
    std::optional<std::int64_t> constant_bank0; // "N bytes cmem[0]", printed by some toolkits only
    // "Overriding global maxrregcount 64 with entry-specific value 128 computed using thread count":
    // ptxas replaced the file-level cap with the one it derived from __launch_bounds__.
    std::optional<int> maxrregcount_overridden_from;
    std::optional<int> maxrregcount_overridden_to;
    // "adjusting per thread register count of 8 to lower bound of 24": a cap below the
    // architecture's minimum was raised.
    std::optional<int> cap_raised_from;
    std::optional<int> cap_raised_to;
    // ".minnctapersm will be ignored": the min-blocks launch bound cannot be met on this arch.
    bool min_blocks_ignored = false;
    std::vector<std::string> warnings;    // every "ptxas warning" line that concerns the function
};

// `function` is the mangled (lowered) name. Lines that name no function (the global
// maxrregcount override, profile-wide warnings) are attributed to it: the tuner compiles
// one entry function per program, so they can only be about that one.
[[nodiscard]] PtxasReport parse_ptxas_log(std::string_view log, std::string_view function);

} // namespace autotune
