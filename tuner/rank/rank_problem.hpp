// The rank stage for one problem: every variant's figures against the roofline
// (achieved GFLOP/s and GB/s, fraction of the roof), its diagnosis, its place in the
// measured ranking and in the model's, the winner, and how well the model ranked what
// was measured.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_variants.hpp"
#include "predict/time_model.hpp"
#include "predict/variant_prediction.hpp"
#include "predict/warp_work.hpp"
#include "rank/performance_model.hpp"
#include "rank/roofline.hpp"
#include "space/problem_work.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct RankInputs {
    const KernelSpec* spec = nullptr;
    const Problem* problem = nullptr;
    const std::vector<Variant>* variants = nullptr;
    const std::vector<CompiledVariant>* compiled = nullptr;
    const std::vector<PredictionOutcome>* predictions = nullptr;
    const std::vector<std::optional<VariantMeasurement>>* measurements = nullptr; // may be empty
    std::optional<Ceilings> ceilings; // none: no roofline for this arch (figures stay relative)
    int sms = 0;                      // of the device the figures are for
    int compute_capability = 0;       // of the arch: the time model's pipe rates
};

// What ranking needs to know of one variant, as plain values: a run provides them from its
// stages (rank_facts_of_run), a results file from its records (merge), and both rank the
// same way.
struct MeasuredTime {
    double median = 0;          // seconds
    double relative_spread = 0;
    double sm_clock_mhz = 0;
};

struct RankFacts {
    bool predicted = false;     // compiled and fits an SM
    ResourceUsage resources;
    Occupancy occupancy;
    std::int64_t threads_per_block = 0;
    std::int64_t grid_blocks = 0;
    std::int64_t dynamic_shared_bytes = 0;
    GlobalMemoryOps memory_ops;
    double arithmetic_share = 0;
    std::optional<WarpWork> warp_work;    // from the PTX; none where the PTX did not show the kernel
    std::optional<MeasuredTime> measured; // verified and timed
    // The SM clock to predict this variant at, where it is not the ceilings' (a measured
    // file records the clock each configuration ran at, or tuned it: Kernel Tuner's
    // nvml_gr_clock).
    std::optional<double> clock_mhz;
};

// With the spec and problem, each variant's scalar kernel parameters are known to the time
// model (a loop bounded by K counts K's trips).
[[nodiscard]] std::vector<RankFacts> rank_facts_of_run(const std::vector<Variant>& variants,
                                                       const std::vector<CompiledVariant>& compiled,
                                                       const std::vector<PredictionOutcome>& predictions,
                                                       const std::vector<std::optional<VariantMeasurement>>& measurements,
                                                       const KernelSpec* spec = nullptr, const Problem* problem = nullptr);

struct RankedVariant {
    bool predicted = false;              // has a model figure (compiled and fits an SM)
    bool measured = false;               // verified and timed
    std::optional<double> gflops;        // measured
    std::optional<double> gbps;          // measured
    std::optional<double> roofline_fraction; // measured, against the roof at the run's clock
    double predicted_fraction = 0;       // the model's: the roof's time over the predicted time
    std::optional<TimePrediction> predicted_time; // the time model's (time_model.hpp)
    ModelFactors factors;
    std::vector<std::string> diagnosis;
    std::size_t rank = 0;                // 1-based in the ranking the winner comes from; 0: not ranked
    std::size_t predicted_rank = 0;      // 1-based in the model's ranking; 0: not predicted
};

struct ProblemRanking {
    double flops = 0;
    double bytes = 0;
    std::optional<ProblemRoofline> roofline;
    std::optional<Ceilings> ceilings;
    bool measured = false;               // the ranking (and the winner) come from measurements
    std::vector<RankedVariant> variants; // [i] belongs to variants[i]
    std::optional<std::size_t> winner;   // index into variants
    std::optional<double> spearman;      // model vs measurement, over the measured variants
    std::optional<std::size_t> measured_winner_predicted_rank;
};

// Throws SpecError naming cost.flops or cost.bytes when they cannot be evaluated
// (space/problem_work.hpp).
[[nodiscard]] ProblemRanking rank_problem(const RankInputs& inputs);

// The ranking itself, from facts: the problem's work, the ceilings (none: no roofline),
// the SM count of the device the figures are for and its compute capability (the pipes'
// rates). Variants with a warp work are ranked by their predicted time; the clock and
// bandwidth come from the ceilings (without them the time is in cycles at 1 GHz and the
// memory term is left out).
[[nodiscard]] ProblemRanking rank_facts(const std::vector<RankFacts>& facts, double flops, double bytes,
                                        const std::optional<Ceilings>& ceilings, int sms, int compute_capability);

// Spearman's rank correlation of two equally long series (ties get average ranks);
// nullopt with fewer than 3 pairs or a constant series.
[[nodiscard]] std::optional<double> spearman_correlation(const std::vector<double>& a, const std::vector<double>& b);

} // namespace autotune
