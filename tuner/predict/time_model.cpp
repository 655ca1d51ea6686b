#include "predict/time_model.hpp"

#include "predict/closed_network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace autotune {

PipeRates pipe_rates(int cc)
{
    // Results per clock per SM / 32 (Programming Guide, "Arithmetic Instructions"): FP32
    // 64 on 7.x and 8.0, 128 from 8.6; FP64 32 on 7.0/8.0, 64 on 9.0/10.0, 2 elsewhere;
    // INT32 64; MUFU and conversions 16; half precision twice FP32; shared memory 128
    // bytes (one wavefront) per clock.
    PipeRates r;
    const bool wide_fp32 = cc >= 86;
    r.fp32 = wide_fp32 ? 4 : 2;
    r.fp16 = 2 * r.fp32;
    r.fp64 = (cc == 70 || cc == 80) ? 1 : (cc == 90 || cc == 100) ? 2 : 2.0 / 32;
    r.integer = 2;
    r.sfu = 0.5;
    // LD/ST units per SM in the architecture whitepapers' SM diagrams: 8 per partition (32
    // an SM) on GV100, GA100 and GH100; 4 per partition (16) on Turing TU10x, GA10x and
    // AD10x, where a 32-lane access takes two clocks even without bank conflicts.
    r.lsu_clocks_per_access = (cc == 75 || cc == 86 || cc == 87 || cc == 89) ? 2 : 1;
    // An RTX 2080 Ti runs the convolution's unpadded tiles, whose lanes meet 2-way bank
    // conflicts, 1.85 times as long as the padded ones; an RTX 3090 runs both alike
    // (docs/prediction.md). Conflict-free accesses cost what they did.
    r.shared_conflicts_replay = cc == 75;
    // Unified L1/shared per SM, from each architecture's tuning guide: 128 KB on Volta,
    // GA10x, AD10x and consumer Blackwell; 96 KB on Turing; 192 KB on GA100 and Orin; 256 KB
    // on Hopper and Blackwell data-centre parts.
    r.l1_bytes = 1024.0 * (cc == 75 ? 96 : (cc == 80 || cc == 87) ? 192 : (cc == 90 || cc == 100 || cc == 103) ? 256 : 128);
    return r;
}

LocalHits local_memory_hits(const PipeRates& rates, const LaunchShape& launch)
{
    LocalHits hits;
    if (launch.stack_bytes_per_thread <= 0 || launch.blocks_per_sm <= 0)
        return hits;
    const double per_sm = static_cast<double>(launch.blocks_per_sm) * launch.threads_per_block *
                          static_cast<double>(launch.stack_bytes_per_thread);
    const double l1_free =
        std::max(0.0, rates.l1_bytes - static_cast<double>(launch.blocks_per_sm) * static_cast<double>(launch.shared_bytes_per_block));
    hits.l1 = std::min(1.0, l1_free / per_sm);
    if (launch.l2_bytes > 0 && launch.sms > 0)
        hits.l2 = std::min(1.0, launch.l2_bytes / (per_sm * launch.sms));
    return hits;
}

namespace {

// A unit's share of one wave, in SM cycles (a TimeTerm once the clock turns it into seconds).
struct CycleTerm {
    std::string name;
    double cycles = 0;
};

struct WaveCycles {
    double cycles = 0;
    std::vector<CycleTerm> terms;
    std::string bound;           // the largest unit's term's name
    std::vector<std::string> phase_bounds; // each phase's, where there are phases
};

// One wave on one SM of `warps` warps. They are dealt to its schedulers in turn and stay
// there, so the busiest holds ceil(warps / schedulers): the units each scheduler has alone
// (issue slots, pipes, the LD/ST units that dispatch a warp's access) work for that many,
// the SM's shared-memory banks and L1 wavefronts for all.
WaveCycles wave_cycles(const WarpCounts& w, const PipeRates& r, double warps)
{
    const int per_scheduler = std::max(1, static_cast<int>(std::ceil(warps / r.schedulers - 1e-9)));
    const double busiest = per_scheduler * r.schedulers; // the SM's warps, were every scheduler the busiest
    // Cycles of the SM's units one warp needs: a shared access's dispatch (a register-
    // addressed constant load goes through the same queue) and its banks' wavefronts; a
    // global or local access's dispatch and its L1 wavefronts.
    const double shared_dispatch = (w.shared_instructions * r.lsu_clocks_per_access + w.constant_loads) / r.mio;
    const double shared_banks = w.shared_wavefronts / r.mio;
    const double lsu_dispatch = w.lsu_instructions * r.lsu_clocks_per_access / r.lsu;
    const double l1_wavefronts = (w.global_wavefronts + w.local_wavefronts) / r.lsu;
    const std::vector<CycleTerm> pipes{
        {"issue", w.issue / r.issue},     {"fp32", w.fp32 / r.fp32},       {"fp64", w.fp64 / r.fp64},
        {"fp16", w.fp16 / r.fp16},         {"integer", w.integer / r.integer}, {"sfu", w.sfu / r.sfu},
        {"tensor", w.tensor / r.tensor},
    };
    std::vector<CycleTerm> terms{{"latency", w.latency_cycles}};
    for (const CycleTerm& pipe : pipes)
        terms.push_back({pipe.name, busiest * pipe.cycles});
    terms.push_back({"shared", std::max(warps * shared_banks, busiest * shared_dispatch)});
    terms.push_back({"l1", std::max(warps * l1_wavefronts, busiest * lsu_dispatch)});
    const CycleTerm most = *std::max_element(terms.begin(), terms.end(),
                                             [](const CycleTerm& a, const CycleTerm& b) { return a.cycles < b.cycles; });
    // The units as a closed network of the wave's warps, each scheduler's a class
    // (closed_network.hpp): what their work costs together, which is never less than the
    // largest term. The largest term still names the bound: the unit the others queue behind.
    ClosedNetwork network;
    network.customers = per_scheduler;
    network.warps = std::max(warps, static_cast<double>(per_scheduler));
    for (const CycleTerm& pipe : pipes)
        network.per_scheduler.push_back(r.schedulers * pipe.cycles);
    network.per_scheduler.push_back(r.schedulers * shared_dispatch);
    network.per_scheduler.push_back(r.schedulers * lsu_dispatch);
    // A warp's access passes its scheduler's LD/ST units and then the SM's banks or L1, a
    // pipeline: what the shared stage adds to one warp is only its time beyond the dispatch's.
    network.per_sm = {std::max(0.0, shared_banks - shared_dispatch), std::max(0.0, l1_wavefronts - lsu_dispatch)};
    double one_warp = 0; // its demands, alone on its scheduler
    for (const auto* demands : {&network.per_scheduler, &network.per_sm})
        for (const double d : *demands)
            one_warp += d;
    network.delay = std::max(0.0, w.latency_cycles - one_warp);
    const double contention = closed_network_cycle(network);
    terms.push_back({"contention", contention});
    return {std::max(contention, most.cycles), std::move(terms), most.name, {}};
}

} // namespace

TimePrediction predict_time(const WarpWork& work, const PipeRates& rates, const LaunchShape& launch)
{
    if (launch.sms <= 0 || launch.blocks_per_sm <= 0 || launch.clock_mhz <= 0 || launch.threads_per_block <= 0)
        throw std::invalid_argument("the launch cannot run: no SM, no resident block or no clock");
    const double warps_per_block = std::ceil(launch.threads_per_block / 32.0);
    const double per_wave = static_cast<double>(launch.sms) * launch.blocks_per_sm;
    const double blocks = static_cast<double>(std::max<std::int64_t>(launch.grid_blocks, 1));
    const double full_waves = std::floor(blocks / per_wave);
    const double rest = blocks - full_waves * per_wave;

    // Local loads that miss L1 wait for L2 or DRAM instead (warp_work counts an L1 hit).
    const LocalHits hits = local_memory_hits(rates, launch);
    auto with_local_misses = [&](WarpCounts c) {
        c.latency_cycles += c.local_loads * (1 - hits.l1) *
                            (hits.l2 * rates.l2_latency + (1 - hits.l2) * rates.dram_latency - rates.l1_latency);
        return c;
    };
    const WarpCounts whole = with_local_misses(work);
    std::vector<WarpCounts> phases;
    for (const WarpCounts& phase : work.phases)
        phases.push_back(with_local_misses(phase));
    // A wave's blocks start together and pass their barriers together: each phase takes
    // its own time (its contention), one after the other (a fill that waits on memory does not
    // overlap the arithmetic after the barrier, as the whole's terms would let it).
    auto wave = [&](double warps) {
        WaveCycles w = wave_cycles(whole, rates, warps);
        if (phases.empty())
            return w;
        double phased = 0;
        for (const WarpCounts& phase : phases) {
            const WaveCycles part = wave_cycles(phase, rates, warps);
            phased += part.cycles;
            w.phase_bounds.push_back(part.bound);
        }
        w.terms.push_back({"phases", phased});
        w.cycles = std::max(w.cycles, phased);
        return w;
    };

    // Full waves at full residency; the last, partial one with the blocks left spread
    // over the SMs.
    WaveCycles full = wave(launch.blocks_per_sm * warps_per_block);
    WaveCycles tail = rest > 0 ? wave(std::ceil(rest / launch.sms) * warps_per_block) : WaveCycles{};
    const double hz = launch.clock_mhz * 1e6;
    TimePrediction p;
    p.waves = full_waves + (rest > 0 ? rest / per_wave : 0);
    if (!phases.empty())
        p.phase_bounds = full_waves > 0 ? full.phase_bounds : tail.phase_bounds;
    for (std::size_t i = 0; i < full.terms.size(); ++i) {
        const double cycles = full_waves * full.terms[i].cycles + (rest > 0 ? tail.terms[i].cycles : 0);
        p.terms.push_back({full.terms[i].name, cycles / hz});
    }
    // The SM's time is each wave's own, not one taken from the terms' sums over waves.
    const double sm_seconds = (full_waves * full.cycles + (rest > 0 ? tail.cycles : 0)) / hz;

    const double total_warps = blocks * warps_per_block;
    p.warp_instructions = total_warps * work.issue;
    const double instruction_bytes = total_warps * (work.global_load_bytes + work.global_store_bytes);
    // L1 writes local stores through to L2 (KTT's Nsight counters on an RTX 2080 Ti: L2 took
    // a write sector for every local store's sector, whatever L1 held), so only loads are
    // served by L1; of what reaches L2, the frames L2 cannot hold go on to DRAM.
    const double local_stores = std::max(0.0, work.local_wavefronts - work.local_loads);
    const double local_bytes =
        total_warps * 128 * (work.local_loads * (1 - hits.l1) + local_stores) * (1 - hits.l2);
    const double bytes = (launch.dram_bytes > 0 ? launch.dram_bytes : instruction_bytes) + local_bytes;
    const double dram = launch.bandwidth_gbs > 0 ? bytes / (launch.bandwidth_gbs * 1e9) : 0;
    p.terms.push_back({"dram", dram});
    p.dram_bytes = bytes;

    p.seconds = std::max(sm_seconds, dram);
    // Name the bound: the term whose share of the time is largest (contention is the
    // units' work together, not a unit of its own).
    const auto largest = std::max_element(p.terms.begin(), p.terms.end(), [](const TimeTerm& a, const TimeTerm& b) {
        return (a.name == "contention" ? 0 : a.seconds) < (b.name == "contention" ? 0 : b.seconds);
    });
    p.bound = largest->name;
    return p;
}

} // namespace autotune
