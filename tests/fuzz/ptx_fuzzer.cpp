// Fuzz target: the PTX reader and what the time model reads from it — each entry's lane
// addresses, the warp's work with the sample threads walked through its integer and control
// flow (a block of 64 x 2, a grid of 32, parameters 1024, a pointer, 64). NVRTC and nvcc
// write the PTX, but a user's kernel can make any of it; nothing here throws: any exception,
// a sanitizer report or a hang is a finding.
#include "predict/lane_addresses.hpp"
#include "predict/ptx_kernel.hpp"
#include "predict/warp_work.hpp"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view ptx(reinterpret_cast<const char*>(data), size);
    const autotune::ParameterValues parameters{1024, std::nullopt, 64};
    int entries = 0;
    for (const auto& kernel : autotune::parse_ptx_kernels(ptx)) {
        if (++entries > 4)
            break;
        (void)autotune::lane_addresses(kernel);
        (void)autotune::analyse_warp_work(kernel, parameters, autotune::BlockShape{64, 2, 1},
                                          autotune::GridShape{32, 1, 1});
    }
    return 0;
}
