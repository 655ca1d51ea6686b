#include "rank/diagnosis.hpp"

#include <fmt/format.h>

namespace autotune {

namespace {
// An SM issues from four warp schedulers; each needs about four warps to hide latency
// (the seeds' "a block wants at least four warps, 128 threads").
constexpr int schedulers_per_sm = 4;
constexpr int warps_per_scheduler_floor = 4;
} // namespace

std::vector<std::string> diagnose(const VariantFacts& f)
{
    std::vector<std::string> out;
    // First: a kernel that writes nothing has no outputs to time (the compiler removed its
    // work, or the store is missing), whatever else its code says.
    if (!f.memory_ops.writes_global())
        out.push_back("stores nothing to global memory: its code has no global store, atomic or bulk copy out, so its "
                      "outputs are never written (the compiler removes work whose results are not stored)");
    const ResourceUsage& r = f.resources;
    if (r.spill_stores > 0 || r.spill_loads > 0)
        out.push_back(fmt::format("spills: {} bytes stored and {} loaded per thread through local memory",
                                  r.spill_stores, r.spill_loads));
    else if (r.stack_frame > 0)
        out.push_back(fmt::format("stack frame of {} bytes per thread in local memory", r.stack_frame));

    const double per_scheduler = static_cast<double>(f.occupancy.active_warps) / schedulers_per_sm;
    if (per_scheduler < warps_per_scheduler_floor)
        out.push_back(fmt::format("occupancy below the latency-hiding floor: {:.1f} warps per scheduler (fewer than {}; "
                                  "limited by {})",
                                  per_scheduler, warps_per_scheduler_floor, to_string(f.occupancy.limiter)));
    if (f.threads_per_block < 128)
        out.push_back(fmt::format("blocks of {} threads: fewer than four warps each (the floor is 128)",
                                  f.threads_per_block));

    const GlobalMemoryOps& m = f.memory_ops;
    if (f.vectors_possible && m.vector_loads + m.vector_stores == 0 && m.scalar_loads + m.scalar_stores > 0)
        out.push_back(fmt::format("scalar global memory access: {} loads and {} stores of one element where other "
                                  "variants move vectors",
                                  m.scalar_loads, m.scalar_stores));

    if (f.sms > 0 && f.grid_blocks < f.sms)
        out.push_back(fmt::format("under-filled grid: {} blocks for {} SMs", f.grid_blocks, f.sms));

    if (f.seconds && *f.seconds > 0) {
        const double achieved_gbs = f.problem.bytes / *f.seconds / 1e9;
        const double achieved_gflops = f.problem.flops / *f.seconds / 1e9;
        if (!f.problem.compute_bound && achieved_gbs < 0.8 * f.ceilings.bandwidth_gbs)
            out.push_back(fmt::format("memory-bound at {:.0f}% of bandwidth ({:.0f} of {:.0f} GB/s; below 80%)",
                                      100 * achieved_gbs / f.ceilings.bandwidth_gbs, achieved_gbs,
                                      f.ceilings.bandwidth_gbs));
        if (f.problem.compute_bound && achieved_gflops < 0.5 * f.ceilings.compute_gflops)
            out.push_back(fmt::format("compute-bound at {:.0f}% of peak ({:.0f} of {:.0f} GFLOP/s; below 50%)",
                                      100 * achieved_gflops / f.ceilings.compute_gflops, achieved_gflops,
                                      f.ceilings.compute_gflops));
    }
    return out;
}

} // namespace autotune
