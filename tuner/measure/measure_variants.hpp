// The measure stage's driver, on the tuner's side: every compiled variant that can run is
// sent to a worker process (measure-worker) to be verified and timed; a worker that dies
// or hangs marks its variant `fault` and a new one takes over. Each result is appended to
// a journal on disk before the next variant starts.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_job.hpp"
#include "predict/variant_prediction.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct MeasureSettings {
    std::vector<std::string> worker_argv;   // e.g. {"/path/to/autotune", "measure-worker"}
    int device = 0;                         // ordinal
    StoppingRule timing;
    std::chrono::milliseconds variant_timeout{60000}; // a worker silent this long is killed
    std::uint64_t seed = 1;
    std::filesystem::path scratch_dir;      // where cubins are written for the worker
    std::filesystem::path journal;          // one record per measured variant
    std::function<void(std::size_t, std::size_t)> progress;
};

// A variant's outcome: the status (ok, launch_error, wrong_result, fault), the reply,
// and where the driver disagrees with the compile stage or the prediction.
struct VariantMeasurement {
    std::string status;
    std::string error;
    std::optional<DriverAttributes> driver;
    std::optional<Measurement> measurement;
    std::vector<std::string> disagreements;
};

// results[i] belongs to variants[i]; nullopt where nothing was measured (did not compile
// or cannot run). Throws std::invalid_argument when the spec's reference is unknown.
[[nodiscard]] std::vector<std::optional<VariantMeasurement>> measure_variants(
    const KernelSpec& spec, const Problem& problem, const std::vector<Variant>& variants,
    const std::vector<CompiledVariant>& compiled, const std::vector<PredictionOutcome>& predictions,
    const MeasureSettings& settings);

// Where the driver's view of a loaded variant differs from the tuner's own.
[[nodiscard]] std::vector<std::string> driver_disagreements(const DriverAttributes& driver,
                                                            const ResourceUsage& compiled,
                                                            const std::optional<VariantPrediction>& predicted);

} // namespace autotune
