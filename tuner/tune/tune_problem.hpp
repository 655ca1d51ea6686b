// The pipeline's driver: one problem of a tuning run, stage by stage — enumerate (a
// selection of indices, a shard), compile, predict, prune, measure through the strategy,
// rank, and the launch-bound search. Every command that runs the pipeline (run, the
// built-in kernels, check-model) calls it; the options are settled before (by the command
// line or by a C++ caller), this only does the work.
#pragma once

#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"
#include "compile/compile_variants.hpp"
#include "emit/tuning_run.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "strategy/search_measurements.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace autotune {

// What the driver says as it goes, for whoever shows it (the command line draws a progress
// line); either may be empty. The counts within a phase come through CompileSettings and
// SearchSettings' own progress callbacks.
struct TuneProgress {
    std::function<void(const std::string& label)> phase; // a phase begins: "compiling copy for sm_90 (N=..)"
    std::function<void()> phase_done;
};

// Bad input the driver finds: an index to tune that is not in the problem's space.
class TuneError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct TuneSetup {
    const KernelSpec* spec = nullptr;
    ArchTarget arch;
    const ArchSpec* arch_spec = nullptr;
    const DeviceSpec* roofline_device = nullptr; // whose datasheet ceilings apply
    bool roofline_device_named = false;
    std::optional<double> sm_clock_mhz; // predict at this SM clock, not the ceilings' (a GPU held at its base clock)
    std::map<std::size_t, double> variant_clock_mhz; // by variant index: predict these at their own clock
    SpaceSelection selection = SpaceSelection::default_space;
    CompileSettings compile;
    std::vector<std::string> compile_options_added;            // --compile-option: the spec's end with them
    std::optional<std::set<std::size_t>> only_variants;        // --variants
    std::optional<std::pair<std::size_t, std::size_t>> shard;  // --shard I/N
    SearchSettings search;                                     // strategy, budget, seed
    bool launch_bounds = false;
    bool lazy_compile = false;        // --lazy-compile: with a GPU, compile only what the search measures
    std::optional<GpuDevice> device;  // the GPU that measures; none: compile and predict only
    std::string not_measured;         // why there is none
    MeasureSettings measure;          // the worker, timing rule, journal
    std::filesystem::path out;        // results directory (devices/ there holds measured ceilings)
    TuneProgress progress;
};

// The problem's space as tune_problem tunes it, before --shard takes its part: enumerated
// (holding only the variants only_variants names, when it names some; `valid` counts all)
// and checked. An impossible problem (no variant, an overflowing size) or a reference
// variant outside the space throws SpecError naming the spec; an index of only_variants
// that is not a valid variant of the space throws TuneError. The command line calls it for
// every problem before anything is compiled.
[[nodiscard]] Space checked_space(const TuneSetup& setup, const Problem& problem);

// Throws as checked_space does.
[[nodiscard]] TuningRun tune_problem(const TuneSetup& setup, const Problem& problem);

// The pipeline up to the model's ranking for exactly these variants (not the space's):
// compile, predict, prune, rank by the model. Nothing is measured, whatever the setup's
// device; only_variants and shard do not apply. check-model's part of the pipeline.
[[nodiscard]] TuningRun predict_problem(const TuneSetup& setup, const Problem& problem, std::vector<Variant> variants);

} // namespace autotune
