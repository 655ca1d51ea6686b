#include "tune/lazy_search.hpp"

#include "predict/variant_prediction.hpp"
#include "strategy/prune_variants.hpp"

#include <chrono>
#include <map>
#include <numeric>
#include <stdexcept>

namespace autotune {

void check_lazy_search(const SearchSettings& search)
{
    if (search.strategy == "exhaustive")
        throw std::invalid_argument("--lazy-compile: --strategy exhaustive measures every variant; name a search "
                                    "strategy and a --budget");
    if (search.strategy == "model" && !search.prior)
        throw std::invalid_argument("--lazy-compile with --strategy model needs --prior: the model's order needs "
                                    "every variant compiled");
}

LazySearchOutcome search_compiling_lazily(const TuneSetup& setup, const Problem& problem,
                                          const std::vector<Variant>& space, VariantMeasurer& measurer)
{
    const SearchSettings& search = setup.search;
    check_lazy_search(search);
    LazySearchOutcome out;
    out.candidates = space.size();
    if (space.empty())
        return out;
    std::vector<std::size_t> all(space.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    const SearchSpace search_space = search_space_of(space, all, {}, {}, search.prior);

    CompileSettings compile = setup.compile;
    compile.progress = nullptr; // the search's progress is the run's
    // One compiler for the whole search: its worker (NVRTC loaded once) serves every
    // proposal, where a call of its own would start one per proposal.
    LimitedCompiler compiler = limited_compiler(compile);
    // A measured run's identity (prune_variants' duplicate key) → the position it is at.
    std::map<std::string, std::size_t> measured_run;
    const std::size_t most = search.budget.evaluations_for(space.size());
    const Evaluate evaluate = [&](std::size_t point) -> std::optional<double> {
        const Variant& variant = space[point];
        const auto start = std::chrono::steady_clock::now();
        std::vector<CompiledVariant> compiled = compile_variants(*setup.spec, problem, {variant}, setup.arch, compile, compiler);
        out.compile_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::vector<PredictionOutcome> predicted = predict_variants(*setup.arch_spec, {variant}, compiled);
        const PruneReport pruning = prune_variants(*setup.spec, problem, {variant}, compiled, predicted);
        const std::size_t at = out.variants.size();
        out.variants.push_back(variant);
        out.compiled.push_back(std::move(compiled.front()));
        out.predictions.push_back(std::move(predicted.front()));
        out.measurements.emplace_back();
        ++out.evaluations;
        if (search.progress)
            search.progress(out.evaluations, most);

        const CompiledVariant& c = out.compiled[at];
        if (c.status != CompileStatus::ok || pruning.decisions.front().pruned)
            return std::nullopt; // recorded as the whole-space path records it; no GPU time
        const auto [earlier, first] = measured_run.emplace(
            run_identity(*setup.spec, problem, variant, c.sass_sha256, c.resources.registers, c.resources.shared_static), at);
        out.measurements[at] = first ? measurer.measure(variant, c, out.predictions[at].prediction)
                                     : out.measurements[earlier->second];
        return search_time(*out.measurements[at]);
    };
    (void)run_strategy(search.strategy, search_space, evaluate, search.budget, search.seed);
    out.compile_workers_started = compiler.workers_started();
    return out;
}

} // namespace autotune
