// What you tune is what you ship: the configuration a consumer ships is compiled by nvcc,
// not NVRTC. After a measured search, the best few variants are rebuilt as a consumer
// builds them; where the machine code is the same, the measurement stands, and where it
// differs, the consumer's build is measured too. The winner as built by nvcc is the one
// the tuned header keeps.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_variants.hpp"
#include "predict/variant_prediction.hpp"
#include "space/variant.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct ConsumerBuild {
    std::size_t variant = 0;         // into the run's variants
    bool same_machine_code = false;  // nvcc built the SASS that was measured
    std::string sass_sha256;         // of nvcc's build
    std::optional<double> median;    // seconds, as nvcc builds it (the NVRTC measurement when the same)
    std::optional<double> noise;     // that median's relative standard error
    std::optional<VariantMeasurement> measurement; // of nvcc's build, when it differs
    std::string error;               // why there is no median: the rebuild failed, or its run did
};

struct ConsumerBuildOutcome {
    std::vector<ConsumerBuild> builds;  // the best measured variants, fastest first
    std::optional<std::size_t> winner;  // the variant fastest as nvcc builds it
};

// Builds variants as the consumer does; out[i] belongs to the i-th asked for (one call for
// all of them, so that they compile in parallel).
using ConsumerRebuild = std::function<std::vector<CompiledVariant>(const std::vector<Variant>&)>;

// The `top` fastest verified measurements among `measurements` (measurements[i] belongs
// to variants[i]; one per machine code) are rebuilt with `rebuild` and, where the machine
// code differs, measured with `measurer`. Nothing measured: no builds, no winner.
[[nodiscard]] ConsumerBuildOutcome measure_consumer_builds(
    const std::vector<Variant>& variants, const std::vector<CompiledVariant>& compiled,
    const std::vector<PredictionOutcome>& predictions,
    const std::vector<std::optional<VariantMeasurement>>& measurements, std::size_t top,
    const ConsumerRebuild& rebuild, VariantMeasurer& measurer);

} // namespace autotune
