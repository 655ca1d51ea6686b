// TuningRun: everything one `autotune <kernel> --arch sm_XX` run produced, stage by
// stage, as plain data for the emitters.
#pragma once

#include "arch/device_spec.hpp"
#include "compile/compiled_variant.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "predict/variant_prediction.hpp"
#include "rank/rank_problem.hpp"
#include "strategy/prune_variants.hpp"
#include "measure/consumer_build.hpp"
#include "strategy/search_measurements.hpp"
#include "space/enumerate_space.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct TuningRun {
    std::string kernel;
    std::string spec_path;       // relative to the project where possible
    std::string spec_sha256;     // of the spec file's bytes
    std::string arch;            // "sm_90"
    std::string nvrtc_version;   // "13.0"
    // Options every variant was compiled with beyond the spec file's (--compile-option): a
    // results file's spec, read again, needs them to compile what was tuned.
    std::vector<std::string> compile_options_added;
    std::string created;         // UTC time of the run, "2026-11-29T05:43:09Z" (the run facts file only)
    const DeviceSpec* roofline_device = nullptr; // whose datasheet ceilings apply; null: none known
    bool roofline_device_named = false;          // --device, rather than the arch's default
    CompilerKind compiler = CompilerKind::nvrtc;
    Problem problem;
    std::vector<std::string> exact_problem_variables; // categories the header matches exactly
    SpaceSelection selection = SpaceSelection::default_space;
    std::size_t combinations = 0;
    std::size_t valid = 0;          // valid variants of the space, before --variants or --shard took some
    bool picked_by_variants = false; // --variants named the variants tuned
    std::vector<RuleRemoval> removals;
    std::vector<Variant> variants;          // the valid ones, in enumeration order
    std::vector<CompiledVariant> compiled;  // compiled[i] belongs to variants[i]
    std::vector<PredictionOutcome> predictions; // predictions[i] belongs to variants[i]
    std::optional<GpuDevice> device;            // the GPU that measured, if any
    std::string not_measured;                   // why nothing was measured (empty when measured)
    std::vector<std::optional<VariantMeasurement>> measurements; // [i] belongs to variants[i]
    PruneReport pruning;                        // what gets no GPU time, and why
    std::optional<SearchOutcome> search;        // the measured run's search (strategy, evaluations)
    std::string strategy;                       // the strategy asked for
    Budget budget;                              // ... its budget and seed
    std::uint64_t seed = 1;
    std::string prior;                          // the --prior file the search learned from; empty: none
    std::size_t resumed = 0;                    // measurements taken from an interrupted run's journal
    std::optional<std::pair<std::size_t, std::size_t>> shard; // (I, N): this run covers a 1/N part
    std::vector<RankFacts> facts;               // [i] belongs to variants[i]: what ranking used
    // --launch-bounds: around each of the best configurations, its register-policy sweep
    // (variant indices, the base included) and the register/time frontier among them.
    struct LaunchBoundSearch {
        std::size_t base = 0;
        std::vector<std::size_t> sweep;
        std::vector<std::size_t> frontier;
    };
    std::vector<LaunchBoundSearch> launch_bound_search;
    std::optional<ConsumerBuildOutcome> consumer_builds; // the best variants as nvcc builds them (measured runs)
    std::optional<ProblemRanking> ranking;      // the rank stage's view of the problem
    double seconds = 0;                     // wall time of the compile stage
};

} // namespace autotune
