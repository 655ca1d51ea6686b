#include "tune/tune_problem.hpp"

#include "compile/compile_variants.hpp"
#include "measure/consumer_build.hpp"
#include "rank/rank_problem.hpp"
#include "strategy/launch_bound_sweep.hpp"
#include "strategy/prune_variants.hpp"
#include "tune/lazy_search.hpp"
#include "tune/ranking_ceilings.hpp"
#include "predict/variant_prediction.hpp"
#include "space/enumerate_space.hpp"
#include "space/check_problem.hpp"
#include "space/reference_variant.hpp"
#include "util/project_paths.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <fmt/format.h>
#include <limits>
#include <numeric>

namespace autotune {
namespace {

// A file's bytes hashed: which spec a results file came from, so that the parts of a
// sharded run are known to be of one spec.
std::string file_sha256(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return sha256_hex(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
}

// A deterministic 1/N of the variants: every N-th in enumeration order, from the I-th, so
// the parts are balanced and together are the whole space.
std::vector<Variant> shard_of(const std::vector<Variant>& all, const std::pair<std::size_t, std::size_t>& shard)
{
    std::vector<Variant> part;
    for (std::size_t i = shard.first; i < all.size(); i += shard.second)
        part.push_back(all[i]);
    return part;
}

// Every index --variants names is one of `selected`, the space's variants it picked.
void require_all_selected(const std::vector<Variant>& selected, const std::set<std::size_t>& wanted,
                          const Problem& problem)
{
    if (selected.size() == wanted.size())
        return;
    std::set<std::size_t> found;
    for (const auto& v : selected)
        found.insert(v.index);
    const auto missing = std::find_if(wanted.begin(), wanted.end(), [&](std::size_t i) { return !found.count(i); });
    throw TuneError(fmt::format("--variants: {} is not a valid variant of this space for {} (see the # column of "
                                "autotune <kernel> --compile-only, or --space full)",
                                *missing, problem.to_string()));
}

// Orders the run's per-variant vectors by variant index (the enumeration order) after
// variants were appended.
void sort_by_index(TuningRun& run)
{
    std::vector<std::size_t> order(run.variants.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return run.variants[a].index < run.variants[b].index; });
    auto permute = [&order](auto& v) {
        auto copy = v;
        for (std::size_t i = 0; i < order.size(); ++i)
            v[i] = std::move(copy[order[i]]);
    };
    permute(run.variants);
    permute(run.compiled);
    permute(run.predictions);
    run.measurements.resize(run.variants.size());
    permute(run.measurements);
}

// The rank stage: ceilings measured on this GPU by `autotune roofline` when there are
// some, the device table's datasheet otherwise; at the clock the setup names, if it names one.
ProblemRanking rank_run(const TuneSetup& setup, const Problem& problem, const TuningRun& run)
{
    const KernelSpec& spec = *setup.spec;
    std::optional<Ceilings> ceilings = ranking_ceilings(spec.cost.precision, setup.out / "devices",
                                                        run.device ? &*run.device : nullptr, run.roofline_device);
    if (ceilings && setup.sm_clock_mhz)
        ceilings = at_clock(*ceilings, *setup.sm_clock_mhz);
    const ProblemWork work = problem_work(spec, problem, run.variants);
    const int sms = run.device ? run.device->sms : run.roofline_device ? run.roofline_device->sms : 0;
    // A clock named for the whole run (--clock) holds for every variant the setup gives
    // none of its own; without one, a variant asking for a clock (nvml_gr_clock) runs at it.
    const bool clock_parameter = !setup.sm_clock_mhz && !spec.sm_clock_parameter.empty();
    if (setup.variant_clock_mhz.empty() && !clock_parameter)
        return rank_facts(run.facts, work.flops, work.bytes, ceilings, sms, setup.arch.number());
    std::vector<RankFacts> facts = run.facts; // a copy only where some variant has a clock of its own
    for (std::size_t i = 0; i < facts.size(); ++i)
        if (const auto clock = setup.variant_clock_mhz.find(run.variants[i].index); clock != setup.variant_clock_mhz.end())
            facts[i].clock_mhz = clock->second;
        else if (clock_parameter)
            facts[i].clock_mhz = static_cast<double>(run.variants[i].value(spec.sm_clock_parameter));
    return rank_facts(facts, work.flops, work.bytes, ceilings, sms, setup.arch.number());
}

// The three best configurations that differ in more than their register policy.
std::vector<std::size_t> launch_bound_bases(const KernelSpec& spec, const TuningRun& run)
{
    std::vector<std::size_t> bases;
    std::set<std::string> seen_configurations;
    const std::set<std::string> policy_names{spec.register_policy.max_threads, spec.register_policy.min_blocks,
                                             spec.register_policy.maxnreg, spec.register_policy.maxrregcount};
    std::vector<std::size_t> by_rank(run.variants.size());
    std::iota(by_rank.begin(), by_rank.end(), 0);
    std::sort(by_rank.begin(), by_rank.end(), [&](auto a, auto b) {
        const auto ra = run.ranking->variants[a].rank, rb = run.ranking->variants[b].rank;
        return (ra ? ra : SIZE_MAX) < (rb ? rb : SIZE_MAX);
    });
    for (const std::size_t i : by_rank) {
        if (bases.size() == 3 || run.ranking->variants[i].rank == 0)
            break;
        std::string configuration;
        for (const auto& [name, value] : run.variants[i].parameters)
            if (!policy_names.count(name))
                configuration += fmt::format("{}={},", name, value);
        if (seen_configurations.insert(configuration).second)
            bases.push_back(run.variants[i].index);
    }
    return bases;
}

// --launch-bounds: compiles, predicts and (with a GPU) measures the register-policy sweep
// around the three best variants, then records each sweep's register/time frontier.
void search_launch_bounds(const TuneSetup& setup, const Problem& problem, TuningRun& run, VariantMeasurer* measurer)
{
    const KernelSpec& spec = *setup.spec;
    std::set<std::size_t> known;
    for (const auto& v : run.variants)
        known.insert(v.index);
    std::vector<Variant> added;
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> sweeps;
    for (const std::size_t base : launch_bound_bases(spec, run)) {
        const auto it = std::find_if(run.variants.begin(), run.variants.end(), [&](const Variant& v) { return v.index == base; });
        std::vector<std::size_t> sweep{base};
        for (auto& v : launch_bound_sweep(spec, problem, *it)) {
            sweep.push_back(v.index);
            if (known.insert(v.index).second)
                added.push_back(std::move(v));
        }
        sweeps.emplace_back(base, std::move(sweep));
    }
    const auto compiled = compile_variants(spec, problem, added, setup.arch, setup.compile);
    const auto predictions = predict_variants(*setup.arch_spec, added, compiled);
    run.variants.insert(run.variants.end(), added.begin(), added.end());
    run.compiled.insert(run.compiled.end(), compiled.begin(), compiled.end());
    run.predictions.insert(run.predictions.end(), predictions.begin(), predictions.end());
    sort_by_index(run);
    run.pruning = prune_variants(spec, problem, run.variants, run.compiled, run.predictions);
    if (measurer) {
        const std::set<std::size_t> swept = [&] {
            std::set<std::size_t> s;
            for (const auto& v : added)
                s.insert(v.index);
            return s;
        }();
        for (std::size_t i = 0; i < run.variants.size(); ++i) {
            const PruneDecision& d = run.pruning.decisions[i];
            if (swept.count(run.variants[i].index) && run.compiled[i].status == CompileStatus::ok &&
                run.predictions[i].prediction && !d.pruned && !d.duplicate_of && !run.measurements[i])
                run.measurements[i] = measurer->measure(run.variants[i], run.compiled[i], run.predictions[i].prediction);
        }
        for (std::size_t i = 0; i < run.variants.size(); ++i)
            if (const auto& of = run.pruning.decisions[i].duplicate_of; of && run.measurements[*of] && !run.measurements[i])
                run.measurements[i] = run.measurements[*of];
    }
    run.facts = rank_facts_of_run(run.variants, run.compiled, run.predictions, run.measurements, setup.spec, &problem);
    run.ranking = rank_run(setup, problem, run);
    for (const auto& [base, sweep] : sweeps) {
        std::vector<PolicyPoint> points;
        for (const std::size_t index : sweep)
            for (std::size_t i = 0; i < run.variants.size(); ++i)
                if (run.variants[i].index == index && run.ranking->variants[i].predicted &&
                    !run.pruning.decisions[i].duplicate_of) { // a duplicate ties with the variant it repeats
                    const RankedVariant& r = run.ranking->variants[i];
                    // Measured time, else the model's: the least time the roof allows over its fraction.
                    const double bound = run.ranking->roofline ? run.ranking->roofline->time_bound_seconds : 1.0;
                    points.push_back({index, run.compiled[i].resources.registers,
                                      run.facts[i].measured ? std::optional(run.facts[i].measured->median)
                                                            : std::optional(bound / std::max(r.predicted_fraction, 1e-9))});
                }
        run.launch_bound_search.push_back({base, sweep, register_time_frontier(points)});
    }
}

// [reference] variant, compiled like the run's variants: measured first, its outputs the
// reference. A compile error is the measurer's to report (once, and the run goes on).
std::optional<ReferenceVariantBuild> build_reference_variant(const TuneSetup& setup, const Problem& problem,
                                                             const std::optional<Variant>& reference)
{
    if (!reference)
        return std::nullopt;
    CompileSettings settings = setup.compile;
    settings.progress = nullptr;
    auto compiled = compile_variants(*setup.spec, problem, {*reference}, setup.arch, settings);
    return ReferenceVariantBuild{*reference, std::move(compiled.front())};
}

// What you tune is what you ship: the best measured variants rebuilt the way a consumer
// builds the tuned header's kernels (nvcc, NVRTC's shared-pointer width), measured again
// where the machine code differs; the header keeps the fastest as nvcc builds it.
constexpr std::size_t consumer_builds_checked = 3;

ConsumerBuildOutcome measure_as_nvcc_builds(const TuneSetup& setup, const Problem& problem, const TuningRun& run,
                                            VariantMeasurer& measurer)
{
    CompileSettings nvcc = setup.compile;
    nvcc.compiler = CompilerKind::nvcc;
    nvcc.nvcc = default_nvcc();
    nvcc.nvcc_flags = {nvcc_flag_matching_nvrtc};
    nvcc.progress = nullptr;
    const auto rebuild = [&](const std::vector<Variant>& variants) {
        return compile_variants(*setup.spec, problem, variants, setup.arch, nvcc);
    };
    return measure_consumer_builds(run.variants, run.compiled, run.predictions, run.measurements,
                                   consumer_builds_checked, rebuild, measurer);
}

// What the compiler and the model say of each variant, for the search.
std::vector<CompiledFacts> compiled_facts_of_run(const TuningRun& run, const ProblemRanking& predicted)
{
    std::vector<CompiledFacts> facts(run.variants.size());
    for (std::size_t i = 0; i < facts.size(); ++i) {
        const CompiledVariant& c = run.compiled[i];
        if (c.status != CompileStatus::ok)
            continue;
        facts[i].registers = c.resources.registers;
        facts[i].spilled_bytes = static_cast<double>(c.resources.spill_stores + c.resources.spill_loads);
        facts[i].shared_bytes = static_cast<double>(c.resources.shared_static);
        if (run.predictions[i].prediction)
            facts[i].occupancy = run.predictions[i].prediction->occupancy.fraction;
        if (const auto& t = predicted.variants[i].predicted_time)
            facts[i].predicted_seconds = t->seconds;
    }
    return facts;
}

// The run's record before any stage ran: what was asked, of which spec and problem.
TuningRun new_run(const TuneSetup& setup, const Problem& problem, std::vector<Variant> variants)
{
    const KernelSpec& spec = *setup.spec;
    TuningRun run;
    run.kernel = spec.name;
    run.spec_path = portable_path(spec.spec_path, setup.compile.project_root);
    run.spec_sha256 = file_sha256(spec.spec_path);
    run.arch = setup.arch.name();
    run.nvrtc_version = setup.compile.nvrtc.version;
    run.compile_options_added = setup.compile_options_added;
    run.roofline_device = setup.roofline_device;
    run.roofline_device_named = setup.roofline_device_named;
    run.compiler = setup.compile.compiler;
    run.problem = problem;
    for (const auto& variable : spec.problem)
        if (variable.exact)
            run.exact_problem_variables.push_back(variable.name);
    run.selection = setup.selection;
    run.variants = std::move(variants);
    run.strategy = setup.search.strategy;
    run.budget = setup.search.budget;
    run.seed = setup.search.seed;
    run.prior = setup.search.prior ? setup.search.prior->source : std::string();
    run.not_measured = setup.not_measured;
    return run;
}

// The run's record and the stages every command runs: compile, predict, prune.
TuningRun compile_and_predict(const TuneSetup& setup, const Problem& problem, std::vector<Variant> variants)
{
    const KernelSpec& spec = *setup.spec;
    TuningRun run = new_run(setup, problem, std::move(variants));
    if (setup.progress.phase)
        setup.progress.phase(fmt::format("compiling {} for {}{}", spec.name, run.arch,
                                         problem.values.empty() ? "" : " (" + problem.to_string() + ")"));
    const auto start = std::chrono::steady_clock::now();
    run.compiled = compile_variants(spec, problem, run.variants, setup.arch, setup.compile);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (setup.progress.phase_done)
        setup.progress.phase_done();
    run.predictions = predict_variants(*setup.arch_spec, run.variants, run.compiled);
    run.pruning = prune_variants(spec, problem, run.variants, run.compiled, run.predictions);
    return run;
}

} // namespace

Space checked_space(const TuneSetup& setup, const Problem& problem)
{
    const KernelSpec& spec = *setup.spec;
    // --variants: only those are held, not the millions of a full space.
    Space space = setup.only_variants ? enumerate_space(spec, problem, setup.selection, *setup.only_variants)
                                      : enumerate_space(spec, problem, setup.selection);
    check_problem(spec, problem, space, setup.selection);
    (void)reference_variant(spec, problem);
    if (setup.only_variants)
        require_all_selected(space.variants, *setup.only_variants, problem);
    return space;
}

TuningRun tune_problem(const TuneSetup& setup, const Problem& problem)
{
    const KernelSpec& spec = *setup.spec;
    Space space = checked_space(setup, problem);
    const std::optional<Variant> reference = reference_variant(spec, problem);
    if (setup.shard)
        space.variants = shard_of(space.variants, *setup.shard);
    // Compiling lazily needs a GPU to measure on: without one, the predictions are the
    // run's result, and they need every variant compiled.
    const bool lazily = setup.lazy_compile && setup.device;
    if (lazily)
        check_lazy_search(setup.search); // before the reference variant or anything else compiles
    TuningRun run = lazily ? new_run(setup, problem, {}) : compile_and_predict(setup, problem, std::move(space.variants));
    run.combinations = space.combinations;
    run.valid = space.valid;
    run.picked_by_variants = setup.only_variants.has_value();
    run.removals = space.removals;
    run.shard = setup.shard;
    run.device = setup.device;

    std::unique_ptr<VariantMeasurer> measurer;
    if (setup.device) {
        MeasureSettings settings = setup.measure;
        settings.reference_variant = build_reference_variant(setup, problem, reference);
        measurer = std::make_unique<VariantMeasurer>(spec, run.problem, settings);
    }
    if (measurer && lazily) {
        if (setup.progress.phase)
            setup.progress.phase(fmt::format("compiling and measuring {} on {} ({}, {}, compiling lazily)", spec.name,
                                             run.device->name, setup.search.strategy, problem.to_string()));
        LazySearchOutcome searched = search_compiling_lazily(setup, problem, space.variants, *measurer);
        run.variants = std::move(searched.variants);
        run.compiled = std::move(searched.compiled);
        run.predictions = std::move(searched.predictions);
        run.measurements = std::move(searched.measurements);
        run.seconds = searched.compile_seconds;
        sort_by_index(run);
        run.pruning = prune_variants(spec, problem, run.variants, run.compiled, run.predictions);
        run.search = SearchOutcome{run.measurements, searched.evaluations, searched.candidates, true};
        if (setup.progress.phase_done)
            setup.progress.phase_done();
    }
    else if (measurer) {
        // The model's view before anything is measured: the model strategy's order.
        run.facts = rank_facts_of_run(run.variants, run.compiled, run.predictions, {}, setup.spec, &problem);
        const ProblemRanking predicted = rank_run(setup, problem, run);
        // The model strategy measures in the ranking's predicted order (time, then its tie
        // rule), not by the roof fraction alone; a variant the model did not rank goes last.
        std::vector<double> predicted_score;
        for (const auto& r : predicted.variants)
            predicted_score.push_back(r.predicted_rank ? -static_cast<double>(r.predicted_rank)
                                                       : std::numeric_limits<double>::quiet_NaN());
        const std::vector<CompiledFacts> facts = compiled_facts_of_run(run, predicted);
        if (setup.progress.phase)
            setup.progress.phase(fmt::format("measuring {} on {} ({}, {})", spec.name, run.device->name,
                                             setup.search.strategy, problem.to_string()));
        run.search = search_and_measure(run.variants, run.compiled, run.predictions, run.pruning, predicted_score, facts, *measurer,
                                        setup.search);
        run.measurements = run.search->measurements;
        if (setup.progress.phase_done)
            setup.progress.phase_done();
    }
    run.facts = rank_facts_of_run(run.variants, run.compiled, run.predictions, run.measurements, setup.spec, &problem);
    run.ranking = rank_run(setup, problem, run);
    if (measurer && setup.compile.compiler == CompilerKind::nvrtc)
        run.consumer_builds = measure_as_nvcc_builds(setup, problem, run, *measurer);
    if (setup.launch_bounds)
        search_launch_bounds(setup, problem, run, measurer.get());
    if (measurer)
        run.resumed = measurer->resumed();
    return run;
}

TuningRun predict_problem(const TuneSetup& setup, const Problem& problem, std::vector<Variant> variants)
{
    TuningRun run = compile_and_predict(setup, problem, std::move(variants));
    run.facts = rank_facts_of_run(run.variants, run.compiled, run.predictions, {}, setup.spec, &problem);
    run.ranking = rank_run(setup, problem, run);
    return run;
}

} // namespace autotune
