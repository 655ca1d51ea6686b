#include "predict/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <cuda_occupancy.h>
#include <fmt/format.h>
#include <string>
#include <utility>

namespace autotune {

std::string to_string(OccupancyLimiter limiter)
{
    switch (limiter) {
    case OccupancyLimiter::warps: return "warps";
    case OccupancyLimiter::blocks: return "blocks";
    case OccupancyLimiter::registers: return "registers";
    case OccupancyLimiter::shared_memory: return "shared_memory";
    case OccupancyLimiter::barriers: return "barriers";
    }
    return "unknown";
}

namespace {

cudaOccDeviceProp device_properties(const ArchSpec& arch)
{
    cudaOccDeviceProp p;
    p.computeMajor = arch.compute_capability / 10;
    p.computeMinor = arch.compute_capability % 10;
    p.maxThreadsPerBlock = arch.max_threads_per_block;
    // The calculator's own tables do not know threads per SM: it must come from ours.
    p.maxThreadsPerMultiprocessor = arch.max_threads_per_sm;
    p.regsPerBlock = arch.max_registers_per_block;
    p.regsPerMultiprocessor = arch.registers_per_sm;
    p.warpSize = arch.warp_size;
    p.sharedMemPerBlock = static_cast<std::size_t>(arch.max_shared_per_block);
    p.sharedMemPerMultiprocessor = static_cast<std::size_t>(arch.shared_per_sm);
    p.numSms = 1; // per-SM figures; the count of SMs does not enter them
    p.sharedMemPerBlockOptin = static_cast<std::size_t>(arch.max_shared_per_block_optin);
    p.reservedSharedMemPerBlock = static_cast<std::size_t>(arch.reserved_shared_per_block);
    return p;
}

cudaOccResult calculate(const ArchSpec& arch, const KernelFootprint& kernel, int registers)
{
    const cudaOccDeviceProp properties = device_properties(arch);
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = arch.max_threads_per_block;
    attributes.numRegs = registers;
    attributes.sharedSizeBytes = static_cast<std::size_t>(kernel.static_shared_bytes);
    // Dynamic shared memory above 48 KB needs the opt-in the measure stage performs.
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attributes.maxDynamicSharedSizeBytes = static_cast<std::size_t>(kernel.dynamic_shared_bytes);
    // The default constructor leaves 0 barriers, which switches the barrier limit off.
    attributes.numBlockBarriers = kernel.barriers;
    const cudaOccDeviceState state;
    cudaOccResult result{};
    const cudaOccError error = cudaOccMaxActiveBlocksPerMultiprocessor(
        &result, &properties, &attributes, &state, kernel.threads_per_block,
        static_cast<std::size_t>(kernel.dynamic_shared_bytes));
    if (error == CUDA_OCC_ERROR_UNKNOWN_DEVICE)
        throw OccupancyError(fmt::format("{}: cuda_occupancy.h does not know compute capability {}.{}", arch.name,
                                         properties.computeMajor, properties.computeMinor));
    if (error != CUDA_OCC_SUCCESS)
        throw OccupancyError(fmt::format("{}: invalid kernel footprint ({} threads, {} registers, {} + {} bytes shared)",
                                         arch.name, kernel.threads_per_block, registers, kernel.static_shared_bytes,
                                         kernel.dynamic_shared_bytes));
    return result;
}

void check_footprint(const ArchSpec& arch, const KernelFootprint& kernel)
{
    if (kernel.threads_per_block < 1 || kernel.threads_per_block > arch.max_threads_per_block)
        throw OccupancyError(fmt::format("{} threads per block: {} allows 1 to {}", kernel.threads_per_block,
                                         arch.name, arch.max_threads_per_block));
    if (kernel.registers_per_thread < 0 || kernel.registers_per_thread > arch.max_registers_per_thread)
        throw OccupancyError(fmt::format("{} registers per thread: {} allows 0 to {}", kernel.registers_per_thread,
                                         arch.name, arch.max_registers_per_thread));
    if (kernel.static_shared_bytes < 0 || kernel.dynamic_shared_bytes < 0 || kernel.barriers < 0)
        throw OccupancyError(fmt::format("negative shared memory or barriers for {}", arch.name));
    const std::int64_t shared = kernel.static_shared_bytes + kernel.dynamic_shared_bytes;
    if (shared > arch.max_shared_per_block_optin)
        throw OccupancyError(fmt::format("{} bytes of shared memory per block: {} allows at most {}", shared,
                                         arch.name, arch.max_shared_per_block_optin));
}

int blocks_at(const ArchSpec& arch, const KernelFootprint& kernel, int registers)
{
    return calculate(arch, kernel, registers).activeBlocksPerMultiprocessor;
}

} // namespace

int blocks_allowed_by_registers(const ArchSpec& arch, int threads_per_block, int registers_per_thread)
{
    return calculate(arch, {threads_per_block, registers_per_thread, 0, 0, 0}, registers_per_thread).blockLimitRegs;
}

int most_registers_for_one_block(const ArchSpec& arch, int threads_per_block)
{
    if (threads_per_block < 1 || threads_per_block > arch.max_threads_per_block)
        return -1;
    // Blocks allowed fall as registers rise: the last count that allows one.
    int registers = arch.max_registers_per_thread;
    while (registers > 0 && blocks_allowed_by_registers(arch, threads_per_block, registers) == 0)
        --registers;
    return registers;
}

Occupancy predict_occupancy(const ArchSpec& arch, const KernelFootprint& kernel)
{
    check_footprint(arch, kernel);
    const cudaOccResult r = calculate(arch, kernel, kernel.registers_per_thread);
    if (r.activeBlocksPerMultiprocessor == 0) {
        // Name the limits that allow no block (a limit that binds nothing reads INT_MAX).
        std::string none;
        for (const auto& [limit, blocks] : {std::pair{"registers", r.blockLimitRegs},
                                            std::pair{"shared memory", r.blockLimitSharedMem},
                                            std::pair{"warps", r.blockLimitWarps},
                                            std::pair{"barriers", r.blockLimitBarriers}})
            if (blocks == 0)
                none += fmt::format("{}{}", none.empty() ? "" : " and ", limit);
        const std::string which = none.empty() ? "the calculator's limits allow" // none named: still none fits
                                  : none == "shared memory" ? "the shared memory allows"
                                                            : "the " + none + " allow";
        throw OccupancyError(fmt::format("no block fits an {} SM: {} threads × {} registers, {} bytes shared ({} none)",
                                         arch.name, kernel.threads_per_block, kernel.registers_per_thread,
                                         kernel.static_shared_bytes + kernel.dynamic_shared_bytes, which));
    }

    Occupancy o;
    o.blocks_per_sm = r.activeBlocksPerMultiprocessor;
    const int warps_per_block = (kernel.threads_per_block + arch.warp_size - 1) / arch.warp_size;
    o.active_warps = o.blocks_per_sm * warps_per_block;
    o.max_warps = arch.max_warps_per_sm();
    o.fraction = static_cast<double>(o.active_warps) / o.max_warps;
    o.blocks_by_warps = r.blockLimitWarps;
    o.blocks_by_blocks = r.blockLimitBlocks;
    o.blocks_by_registers = r.blockLimitRegs;
    o.blocks_by_shared_memory = r.blockLimitSharedMem;
    o.blocks_by_barriers = r.blockLimitBarriers;

    // Binding limits, read from the per-limit counts: the calculator's bit field keeps
    // bits set before it applies the barrier limit, so it can name limits that no
    // longer bind.
    const std::pair<OccupancyLimiter, int> limits[] = {
        {OccupancyLimiter::warps, o.blocks_by_warps},
        {OccupancyLimiter::blocks, o.blocks_by_blocks},
        {OccupancyLimiter::registers, o.blocks_by_registers},
        {OccupancyLimiter::shared_memory, o.blocks_by_shared_memory},
        {OccupancyLimiter::barriers, o.blocks_by_barriers},
    };
    for (const auto& [limiter, blocks] : limits)
        if (blocks == o.blocks_per_sm)
            o.limiters.push_back(limiter);
    if (!o.limiters.empty())
        o.limiter = o.limiters.front();

    // Headroom, asked of the calculator register by register: its allocation rules
    // (per-warp granularity, per-block limits) stay NVIDIA's.
    for (int more = 1; kernel.registers_per_thread + more <= arch.max_registers_per_thread; ++more)
        if (blocks_at(arch, kernel, kernel.registers_per_thread + more) < o.blocks_per_sm) {
            o.registers_to_lose_a_block = more;
            break;
        }
    for (int fewer = 1; kernel.registers_per_thread - fewer >= 1; ++fewer)
        if (blocks_at(arch, kernel, kernel.registers_per_thread - fewer) > o.blocks_per_sm) {
            o.registers_to_gain_a_block = fewer;
            break;
        }
    return o;
}

} // namespace autotune
