#include "predict/launch_bounds.hpp"

#include "predict/occupancy.hpp"

#include <algorithm>

namespace autotune {

std::optional<LaunchBoundCap> launch_bound_register_cap(const ArchSpec& arch, std::int64_t max_threads,
                                                        std::int64_t min_blocks)
{
    if (max_threads <= 0)
        return std::nullopt;
    const std::int64_t warps = (max_threads + arch.warp_size - 1) / arch.warp_size;
    const std::int64_t wanted = std::max<std::int64_t>(min_blocks, 1);

    LaunchBoundCap cap;
    cap.min_blocks_resident = wanted * warps <= arch.max_warps_per_sm() && wanted <= arch.max_blocks_per_sm;
    cap.blocks_assumed = cap.min_blocks_resident ? static_cast<int>(wanted) : 1;

    // The most registers per thread at which blocks_assumed blocks still fit the register
    // file. Registers go to warps in units of 256, and the warps of the SM are spread over
    // its four sub-partitions, each with a quarter of the file: so (96, 3) caps at 168,
    // not the 224 a whole-SM division gives. The calculator knows both rules; ptxas agrees
    // with it (tests/predict).
    for (int registers = arch.max_registers_per_thread; registers > 0; --registers)
        if (blocks_allowed_by_registers(arch, static_cast<int>(max_threads), registers) >= cap.blocks_assumed) {
            cap.register_cap = registers;
            break;
        }
    return cap;
}

} // namespace autotune
