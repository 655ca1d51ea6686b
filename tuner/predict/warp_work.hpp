// What one warp of a kernel executes, read from its PTX: issue slots by pipe, bytes by
// memory space, and how many cycles one warp alone needs when every instruction waits
// for its operands (in-order issue, as GPU warps do). Given the block's shape, sample
// threads are walked through the code (thread_walk.hpp) and each instruction counts as
// often as a warp ran it; where they cannot be (a loop the data ends), loops count the trips
// their exit test shows (an induction variable stepped by a constant towards a constant).
// Code skipped by a data-dependent branch counts at half weight. The time model
// (time_model.hpp) turns this into a time per launch.
#pragma once

#include "compile/machine_loops.hpp"
#include "predict/lane_addresses.hpp"
#include "predict/ptx_kernel.hpp"
#include "predict/thread_walk.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace autotune {

// Load latencies warp_work charges, cycles: a local load as an L1 hit (spills and stack
// arrays mostly are), a global load as DRAM's. The time model charges a local load that
// misses L1 (its stack frames outgrow it) the difference to L2's or DRAM's.
inline constexpr double local_load_hit_cycles = 30;
inline constexpr double dram_load_cycles = 450;

// The counts of one stretch of a warp's run: the whole kernel, or one of its phases.
struct WarpCounts {
    // Issue slots (SASS instructions, as the PTX expands: a div.rn.f32 is ~10) per warp.
    double issue = 0;
    double static_issue = 0; // the same, each instruction once: issue / static_issue is how often code runs
    double fp32 = 0;      // FP32 pipe (fma, add, mul, fp compares)
    double fp64 = 0;      // FP64 pipe
    double fp16 = 0;      // half/bfloat16 SIMT arithmetic
    double integer = 0;   // INT pipe (address arithmetic, integer compares, logic)
    double sfu = 0;       // multi-function unit: rcp, rsqrt, sin, ex2, lg2, conversions
    double tensor = 0;    // mma issue slots weighted by shape (m16n8k16 = 4)
    // Memory instructions, each one wavefront per 128 bytes the warp moves (or one for a
    // uniform constant load).
    double shared_wavefronts = 0;
    double constant_loads = 0;   // register-addressed ld.const (immediate ones fold into operands)
    double global_wavefronts = 0;
    double local_wavefronts = 0; // spills and stack arrays
    double local_loads = 0;      // of those, the loads (a warp waits for a load, not for a store)
    // The same accesses as instructions: a warp-wide access takes at least as many clocks
    // as the SM's load/store units need for 32 lanes, however few wavefronts it moves.
    double shared_instructions = 0;
    double lsu_instructions = 0; // global and local
    double local_instructions = 0; // of those, the local ones
    double global_load_bytes = 0;  // per warp, as the instructions ask (before any cache)
    double global_store_bytes = 0;
    double barriers = 0;
    // Cycles one warp needs alone: in-order issue, each instruction waiting for its
    // operands (the latencies are the typical ones of the pipe or memory it uses).
    double latency_cycles = 0;
};

// One loop of the PTX (a backward branch): its body's issue slots, each once (inner loops'
// included), its trips per entry, and whether the code fixes them (start and bound are in
// it, not arguments), so that ptxas may unroll it fully. For the machine code's count
// (count_machine_code): the body's unroll markers (machine_loops.hpp), each once, how often
// one warp runs them all told, and the body's issue slots one warp runs all told.
struct PtxLoop {
    double static_issue = 0;
    double trips = 0;
    bool literal_trips = false;
    int parent = -1; // the loop it sits in (an index into WarpWork::loops), -1 for none
    bool innermost = true;
    UnrollMarkers markers;
    double marker_runs = 0;
    double issue = 0;
};

struct WarpWork : WarpCounts {
    // Loops whose trip count the PTX did not show (counted once per entry).
    int unknown_trip_counts = 0;
    std::vector<PtxLoop> loops; // outer ones first
    // Where barriers outside every loop split the block's run (a fill of shared memory,
    // then the work on it), the counts of each part between them, in order; empty where
    // no such barrier runs. The parts' counts add up to the whole's; each part's latency
    // is its own chain, from the barrier before it.
    std::vector<WarpCounts> phases;
};

// With the block's shape, accesses whose address is affine in the thread index count the
// sectors and bank conflicts of the first warp's lanes (lane_addresses.hpp); others count
// as coalesced and conflict-free.
// Spills are ptxas' (the PTX has none): its spill stores and loads (bytes per thread, as
// ptxas -v counts them) as local traffic, run as often as the kernel's code runs on average.
void add_spills(WarpWork& work, std::int64_t spill_store_bytes, std::int64_t spill_load_bytes);

// A kernel ptxas gave no stack frame keeps the PTX's local arrays in registers: their loads
// and stores move nothing through the LD/ST units or local memory (the run's and every
// phase's local traffic is dropped). Their issue slots stay, as the moves ptxas made of them
// (count_machine_code counts those), and so does the chain's wait on them, an L1 hit each.
void keep_local_in_registers(WarpWork& work);

// ptxas' machine code is what the schedulers issue, and it is not the PTX one for one:
// ptxas folds moves and address arithmetic, expands divisions, and where more predicates
// are live than the 7 a thread has, moves them through registers (P2R, R2P and compares
// that the PTX never shows). Given the entry's machine instructions (its code before any
// subroutine, spill instructions left out: add_spills counts those), each issue slot the
// PTX counted stands for machine_instructions / static_issue of them, as if ptxas
// expanded the code evenly: the run's and every phase's issue scale by that ratio.
// Where the machine code has fewer loops (backward branches, `machine_loops`) than the
// PTX, ptxas unrolled the difference fully (the innermost loops whose trips the code
// fixes, smallest first): their copies are counted as PTX before the ratio is taken.
// Where it has as many or more, and its innermost loops (`inner_loops`) hold the unroll
// markers the PTX's innermost loops hold, in one proportion for every kind, the loops are
// counted by their own code instead: each marker the PTX's loops run stands for the
// machine loops' instructions per marker (a body ptxas wrote out four times holds four
// times the markers, so its copies do not count as work; a body ptxas grew, as when it
// keeps an array indexed by the loop counter in registers through chains of predicated
// moves, counts what it grew), and the code outside them at its own ratio.
void count_machine_code(WarpWork& work, double machine_instructions, int machine_loops,
                        const std::vector<MachineLoop>& inner_loops = {});

[[nodiscard]] WarpWork analyse_warp_work(const PtxKernel& kernel, const ParameterValues& parameters = {},
                                         const std::optional<BlockShape>& block = std::nullopt,
                                         const std::optional<GridShape>& grid = std::nullopt);

} // namespace autotune
