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
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

// The spec's reference variant ([reference] variant) compiled for the problem measured.
struct ReferenceVariantBuild {
    Variant variant;
    CompiledVariant compiled;
};

struct MeasureSettings {
    std::vector<std::string> worker_argv;   // e.g. {"/path/to/autotune", "measure-worker"}
    int device = 0;                         // ordinal
    StoppingRule timing;
    std::chrono::milliseconds variant_timeout{60000}; // a worker silent this long is killed
    std::uint64_t seed = 1;
    std::filesystem::path scratch_dir;      // where cubins are written for the worker
    std::filesystem::path journal;          // one record per measured variant; read back to resume
    std::string device_id;                  // the GPU (PCI bus id); a journal of another device is not reused
    std::function<void(std::size_t, std::size_t)> progress;
    // Measured first; while it serves, its outputs are every variant's reference. Required
    // when the spec names a reference variant.
    std::optional<ReferenceVariantBuild> reference_variant;
    // The one line a run prints when the reference variant cannot serve; nullptr: stderr.
    std::function<void(const std::string&)> notice;
};

// Why a reference variant cannot serve, as the one line the run prints: it did not
// compile (`why` empty: the compile error), or it failed when run (`why`). The variants
// are then only scanned for unwritten elements and NaN (verified_elements 0).
[[nodiscard]] std::string reference_variant_notice(const KernelSpec& spec, const Variant& reference,
                                                   const std::string& why);

// A variant's outcome: the status (ok, launch_error, wrong_result, fault), the reply,
// and where the driver disagrees with the compile stage or the prediction.
struct VariantMeasurement {
    std::string status;
    std::string error;
    std::optional<DriverAttributes> driver;
    std::optional<Measurement> measurement;
    std::vector<std::string> disagreements;
};

// Measures variants one at a time on request (strategies ask for them one by one), through
// one supervised worker and one journal. A journal left by an interrupted run with the same
// problem and device answers for the variants it holds: nothing is measured twice.
class VariantMeasurer {
public:
    // Throws std::invalid_argument when the spec's reference is unknown, or when the spec
    // names a reference variant and the settings do not carry it.
    VariantMeasurer(const KernelSpec& spec, const Problem& problem, MeasureSettings settings);
    ~VariantMeasurer();
    VariantMeasurer(const VariantMeasurer&) = delete;
    VariantMeasurer& operator=(const VariantMeasurer&) = delete;

    // The outcome for one compiled variant that can run; appended to the journal.
    [[nodiscard]] VariantMeasurement measure(const Variant& variant, const CompiledVariant& compiled,
                                             const std::optional<VariantPrediction>& predicted);
    // How many answers came from an earlier run's journal.
    [[nodiscard]] std::size_t resumed() const { return resumed_; }
    // Whether the reference variant's outputs are (still) the reference: false when there
    // is none or it failed (the run said so then).
    [[nodiscard]] bool reference_variant_serves() const;

private:
    struct State;
    void check_reference_variant();
    void drop_reference_variant(const std::string& why);
    [[nodiscard]] VariantMeasurement measure_one(const Variant& variant, const CompiledVariant& compiled,
                                                 const std::optional<VariantPrediction>& predicted);
    const KernelSpec& spec_;
    const Problem& problem_;
    MeasureSettings settings_;
    std::unique_ptr<State> state_;
    std::size_t resumed_ = 0;
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
