// --lazy-compile: a search on a GPU that compiles only what it is about to measure. A space
// whose variants take seconds each to compile (Kernel Tuner's convolution: hours on a
// workstation) is searched at the cost of the budget's compiles, not the space's. The
// strategy then sees the parameters and a --prior's times, not compiled facts or the model's
// order (those need every variant compiled).
#pragma once

#include "tune/tune_problem.hpp"

#include <cstddef>
#include <vector>

namespace autotune {

// The variants the search compiled, in the order it proposed them, with what each gave.
struct LazySearchOutcome {
    std::vector<Variant> variants;
    std::vector<CompiledVariant> compiled;                        // [i] belongs to variants[i]
    std::vector<PredictionOutcome> predictions;                   // [i] belongs to variants[i]
    std::vector<std::optional<VariantMeasurement>> measurements;  // [i] belongs to variants[i]
    std::size_t evaluations = 0;                                  // proposals the strategy made
    std::size_t candidates = 0;                                   // the space it chose from
    double compile_seconds = 0;                                   // wall time spent compiling
    int compile_workers_started = 0;                              // one, unless a compile killed one
};

// Throws std::invalid_argument when `search` cannot run lazily: exhaustive measures every
// variant (compile them all, in parallel), and the model strategy without a --prior orders
// by every variant's prediction.
void check_lazy_search(const SearchSettings& search);

// Runs setup.search's strategy over `space` (every valid variant is a candidate); each
// proposal is compiled, predicted and checked as the whole-space path does: one that fails
// to compile or cannot launch costs its evaluation and no GPU time, one with the machine
// code and launch of a variant already measured takes that measurement. Throws as
// check_lazy_search does.
[[nodiscard]] LazySearchOutcome search_compiling_lazily(const TuneSetup& setup, const Problem& problem,
                                                        const std::vector<Variant>& space, VariantMeasurer& measurer);

} // namespace autotune
