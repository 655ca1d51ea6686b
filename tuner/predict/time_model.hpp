// A predicted time per launch, from what one warp executes (warp_work.hpp), how many
// warps share an SM (occupancy), how many waves the grid takes, and the device's clock
// and memory bandwidth. Each term is a lower bound on the time. The largest of the units'
// terms (or phases, or dram) names what bounds the variant; the prediction is the largest of
// contention, phases and dram, and contention is never less than any unit's term:
//
//   latency   one warp's in-order run, waiting on its operands, per wave
//   issue     the warps' instructions through the SM's 4 schedulers; a warp stays on the
//             one it was dealt to, so the busiest, with ceil(warps / 4), sets the pace
//   fp32, fp64, fp16, integer, sfu, tensor   the same through one pipe at its rate (each
//             scheduler has its share of every pipe)
//   shared    shared-memory and shuffle wavefronts through the SM's banks (1 per clock), or
//             the busiest scheduler's LD/ST units dispatching its warps' accesses (the clocks
//             they need for 32 lanes) and register-addressed constant loads, if longer
//   l1        global and local wavefronts through the SM's L1 (1 per clock), or the busiest
//             scheduler's LD/ST units dispatching its warps' accesses, if longer
//   contention  the units' terms and one warp's chain as a closed queueing network of the
//             wave's warps, each scheduler's a class (closed_network.hpp): the largest term
//             where warps to spare hide the rest under it, up to their sum where units near
//             their limit and few warps a scheduler leave nothing to overlap with (each
//             phase's own, where there are phases)
//   phases    where barriers outside loops split a block's run (a shared-memory fill, then
//             the work on it): the wave's blocks pass them together, so each phase takes
//             its own contention, one after another (only where there are phases)
//   dram      the launch's bytes at the device's memory bandwidth, with the local traffic
//             (spills, stack arrays) that neither L1 nor L2 can hold
//
// Local memory is cached in L1 and L2. Where the resident threads' stack frames outgrow
// the L1 left beside the blocks' shared memory, the share that does not fit misses to L2,
// and what the whole GPU's stack frames hold beyond L2's size goes to DRAM: each such load
// waits for the longer latency, and the bytes move at the memory's bandwidth. L1 writes
// local stores through, so every store reaches L2, and DRAM where L2 cannot hold the frames.
//
// Rates per SM per clock come from the CUDA C++ Programming Guide's arithmetic
// instruction throughput table (pipe_rates). Nothing here is fitted to measurements.
#pragma once

#include "predict/warp_work.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace autotune {

// Warp instructions (or wavefronts) per SM per clock.
struct PipeRates {
    double issue = 4, fp32 = 2, fp64 = 1, fp16 = 4, integer = 2, sfu = 0.5, tensor = 1, mio = 1, lsu = 1;
    // The SM's schedulers (sub-partitions), each with its own issue slot, pipes and LD/ST
    // units and its own warps: four on every architecture from Volta to Blackwell.
    int schedulers = 4;
    // Clocks the SM's load/store units take for one warp-wide shared or global access
    // (32 lanes over its LD/ST units), however few wavefronts it moves.
    double lsu_clocks_per_access = 1;
    // Whether a shared-memory bank conflict replays the warp's access (each further way
    // another pass of lsu_clocks_per_access) rather than adding a wavefront: Turing's.
    bool shared_conflicts_replay = false;
    // The SM's unified L1 data cache and shared memory, bytes (the architecture tuning guides).
    double l1_bytes = 128 * 1024;
    // Load latencies, cycles: an L1 hit, an L2 hit, DRAM (typical of published
    // microbenchmarks of Volta to Hopper); warp_work charges the first and the last.
    double l1_latency = local_load_hit_cycles, l2_latency = 200, dram_latency = dram_load_cycles;
};

[[nodiscard]] PipeRates pipe_rates(int compute_capability);

struct LaunchShape {
    std::int64_t grid_blocks = 0;
    int threads_per_block = 0;
    int blocks_per_sm = 0;    // resident, from the occupancy prediction
    int sms = 0;
    double clock_mhz = 0;
    double bandwidth_gbs = 0;
    double dram_bytes = 0;    // the launch's unique traffic (the cost model's bytes); 0: the instructions'
    std::int64_t stack_bytes_per_thread = 0; // ptxas' stack frame: where spills and stack arrays live
    std::int64_t shared_bytes_per_block = 0; // static and dynamic: what L1 gives up to shared memory
    double l2_bytes = 0;      // the device's L2; 0: unknown (local traffic is taken to stay in L2)
};

// Of a launch's local traffic, the share L1 serves and, of the rest, the share L2 serves.
struct LocalHits {
    double l1 = 1, l2 = 1;
};
[[nodiscard]] LocalHits local_memory_hits(const PipeRates& rates, const LaunchShape& launch);

struct TimeTerm {
    std::string name;
    double seconds = 0;
};

struct TimePrediction {
    double seconds = 0;
    std::string bound;            // the largest term's name
    std::vector<TimeTerm> terms;  // every term, in the order of the list above
    // Where the run has phases: the largest unit's term of each, in order (a full wave's; the
    // tail's where every block fits in one wave).
    std::vector<std::string> phase_bounds;
    double waves = 0;
    // Warp instructions the launch issues: its warps times each warp's issue slots, what a
    // profiler counts as instructions executed (Nsight Compute's smsp__inst_executed.sum).
    double warp_instructions = 0;
    // Bytes the dram term charges: what a profiler counts as DRAM traffic (Nsight Compute's
    // dram__sectors_read.sum + dram__sectors_write.sum, 32 bytes each).
    double dram_bytes = 0;
};

// Throws std::invalid_argument when the shape cannot run (no SMs, no resident block).
[[nodiscard]] TimePrediction predict_time(const WarpWork& work, const PipeRates& rates, const LaunchShape& launch);

} // namespace autotune
