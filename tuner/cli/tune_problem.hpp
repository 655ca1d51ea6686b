// One problem of a tuning run, stage by stage: enumerate (the --variants selection, the
// --shard part), compile, predict, prune, measure through the strategy, rank, and the
// launch-bound search. The run's options are settled before; this only does the work.
#pragma once

#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"
#include "cli/progress_line.hpp"
#include "compile/compile_variants.hpp"
#include "emit/tuning_run.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "strategy/search_measurements.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace autotune::cli {

struct TuneSetup {
    const KernelSpec* spec = nullptr;
    ArchTarget arch;
    const ArchSpec* arch_spec = nullptr;
    const DeviceSpec* roofline_device = nullptr; // whose datasheet ceilings apply
    bool roofline_device_named = false;
    SpaceSelection selection = SpaceSelection::default_space;
    CompileSettings compile;
    std::optional<std::set<std::size_t>> only_variants;        // --variants
    std::optional<std::pair<std::size_t, std::size_t>> shard;  // --shard I/N
    SearchSettings search;                                     // strategy, budget, seed
    bool launch_bounds = false;
    std::optional<GpuDevice> device;  // the GPU that measures; none: compile and predict only
    std::string not_measured;         // why there is none
    MeasureSettings measure;          // the worker, timing rule, journal
    std::filesystem::path out;        // results directory (devices/ there holds measured ceilings)
    ProgressLine* progress = nullptr;
};

// Throws UsageError when --variants names an index outside this problem's space.
[[nodiscard]] TuningRun tune_problem(const TuneSetup& setup, const Problem& problem);

} // namespace autotune::cli
