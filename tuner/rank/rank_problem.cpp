#include "rank/rank_problem.hpp"

#include "measure/measure_job.hpp"
#include "predict/ptx_kernel.hpp"
#include "spec/expression.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace autotune {

namespace {

std::vector<double> average_ranks(const std::vector<double>& values)
{
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            ranks[order[k]] = average;
        i = j + 1;
    }
    return ranks;
}

} // namespace

std::optional<double> spearman_correlation(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.size() < 3)
        return std::nullopt;
    const auto ra = average_ranks(a);
    const auto rb = average_ranks(b);
    const double n = static_cast<double>(a.size());
    const double mean = (n + 1) / 2;
    double cov = 0, va = 0, vb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        va += (ra[i] - mean) * (ra[i] - mean);
        vb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (va == 0 || vb == 0)
        return std::nullopt;
    return cov / std::sqrt(va * vb);
}

namespace {

// What a variant asks of all the units the time model weighs: the sum of its terms
// ("phases" and "contention" are made of the others).
double demand(const TimePrediction& p)
{
    double sum = 0;
    for (const TimeTerm& t : p.terms)
        sum += t.name == "phases" || t.name == "contention" ? 0.0 : t.seconds;
    return sum;
}

// The integer values the kernel's parameters take for a variant, in parameter order.
ParameterValues scalar_parameter_values(const KernelSpec* spec, const Problem* problem, const Variant& variant)
{
    ParameterValues values;
    if (spec == nullptr || problem == nullptr)
        return values;
    try {
        for (const ArgumentValue& a : resolve_arguments(*spec, *problem, variant))
            if (a.kernel_parameter)
                values.push_back(a.kind == ArgumentKind::scalar && a.value == std::floor(a.value)
                                     ? std::optional<std::int64_t>(static_cast<std::int64_t>(a.value))
                                     : std::nullopt);
    } catch (const std::exception&) {
        values.clear(); // arguments that cannot be evaluated: the loops they bound stay unknown
    }
    return values;
}

// The instructions of the entry's machine code that are not spills (add_spills counts
// those); 0 where no cubin was read (a results file's record).
double entry_machine_instructions(const CompiledVariant& compiled, const ResourceUsage& resources)
{
    return static_cast<double>(compiled.machine_instructions) -
           static_cast<double>(resources.spill_stores + resources.spill_loads) / 4.0;
}

} // namespace

std::vector<RankFacts> rank_facts_of_run(const std::vector<Variant>& variants, const std::vector<CompiledVariant>& compiled,
                                         const std::vector<PredictionOutcome>& predictions,
                                         const std::vector<std::optional<VariantMeasurement>>& measurements,
                                         const KernelSpec* spec, const Problem* problem)
{
    std::vector<RankFacts> facts(variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        RankFacts& f = facts[i];
        f.threads_per_block = variants[i].block.volume();
        f.grid_blocks = variants[i].grid.volume();
        f.dynamic_shared_bytes = variants[i].dynamic_shared_bytes;
        if (compiled[i].status == CompileStatus::ok) {
            f.resources = compiled[i].resources;
            f.memory_ops = count_global_memory_ops(compiled[i].ptx);
            f.arithmetic_share = arithmetic_share(compiled[i].ptx);
            try {
                f.warp_work = analyse_warp_work(find_ptx_kernel(compiled[i].ptx, compiled[i].lowered_name),
                                                scalar_parameter_values(spec, problem, variants[i]),
                                                BlockShape{variants[i].block.x, variants[i].block.y, variants[i].block.z},
                                                GridShape{variants[i].grid.x, variants[i].grid.y, variants[i].grid.z});
                count_machine_code(*f.warp_work, entry_machine_instructions(compiled[i], f.resources),
                                   compiled[i].machine_loops, compiled[i].machine_inner_loops);
                if (f.resources.stack_frame == 0)
                    keep_local_in_registers(*f.warp_work);
                add_spills(*f.warp_work, f.resources.spill_stores, f.resources.spill_loads);
            } catch (const std::invalid_argument&) {
                // PTX without the entry (a results file's record, a nvcc build): no time model.
            }
        }
        if (!predictions[i].prediction)
            continue;
        f.predicted = true;
        f.occupancy = predictions[i].prediction->occupancy;
        const auto* m = i < measurements.size() && measurements[i] ? &*measurements[i] : nullptr;
        if (m && m->status == "ok" && m->measurement && m->measurement->verified)
            f.measured = MeasuredTime{m->measurement->time.median, m->measurement->time.relative_spread,
                                      m->measurement->sm_clock_mhz};
    }
    return facts;
}

ProblemRanking rank_problem(const RankInputs& in)
{
    const ProblemWork work = problem_work(*in.spec, *in.problem, *in.variants);
    static const std::vector<std::optional<VariantMeasurement>> none;
    return rank_facts(rank_facts_of_run(*in.variants, *in.compiled, *in.predictions, in.measurements ? *in.measurements : none),
                      work.flops, work.bytes, in.ceilings, in.sms, in.compute_capability);
}

ProblemRanking rank_facts(const std::vector<RankFacts>& facts, double flops, double bytes,
                          const std::optional<Ceilings>& ceilings, int sms, int compute_capability)
{
    const PipeRates rates = pipe_rates(compute_capability);
    ProblemRanking out;
    out.flops = flops;
    out.bytes = bytes;
    out.ceilings = ceilings;
    // A spec without a cost model (a T1 file names no flops, and pnpoly's no buffers) has
    // no place on the roofline; the time model still ranks it.
    if (ceilings && bytes > 0)
        out.roofline = roofline_for(flops, bytes, *ceilings);
    out.variants.resize(facts.size());

    // Vector accesses are "possible" for this kernel when any variant of it uses them.
    bool vectors_possible = false;
    for (const auto& f : facts)
        vectors_possible |= f.memory_ops.vector_loads + f.memory_ops.vector_stores > 0;

    for (std::size_t i = 0; i < facts.size(); ++i) {
        const RankFacts& f = facts[i];
        RankedVariant& r = out.variants[i];
        if (!f.predicted)
            continue;
        VariantFacts view;
        view.resources = f.resources;
        view.occupancy = f.occupancy;
        view.threads_per_block = f.threads_per_block;
        view.grid_blocks = f.grid_blocks;
        view.sms = sms;
        view.memory_ops = f.memory_ops;
        view.vectors_possible = vectors_possible;
        if (out.roofline) {
            view.problem = *out.roofline;
            view.ceilings = *ceilings;
        } else {
            view.problem.flops = flops;
            view.problem.bytes = bytes;
            view.problem.compute_bound = flops > 0;
        }
        if (f.measured) {
            const double seconds = f.measured->median;
            r.measured = true;
            r.gflops = flops / seconds / 1e9;
            r.gbps = bytes / seconds / 1e9;
            if (out.roofline) {
                // The roof at the clock this variant ran at.
                const Ceilings at_run = at_clock(*ceilings, f.measured->sm_clock_mhz);
                const ProblemRoofline roof = roofline_for(flops, bytes, at_run);
                r.roofline_fraction = roofline_fraction(roof, seconds);
                view.problem = roof;
                view.ceilings = at_run;
            }
            view.seconds = seconds;
        }
        r.predicted = true;
        r.factors = model_factors(view, f.arithmetic_share);
        r.predicted_fraction = r.factors.fraction();
        if (f.warp_work && sms > 0 && f.occupancy.blocks_per_sm > 0) {
            LaunchShape shape;
            shape.grid_blocks = f.grid_blocks;
            shape.threads_per_block = static_cast<int>(f.threads_per_block);
            shape.blocks_per_sm = f.occupancy.blocks_per_sm;
            shape.sms = sms;
            shape.clock_mhz = f.clock_mhz && ceilings ? *f.clock_mhz : ceilings ? ceilings->clock_mhz : 1000;
            shape.bandwidth_gbs = ceilings ? ceilings->bandwidth_gbs : 0;
            shape.dram_bytes = bytes;
            shape.stack_bytes_per_thread = f.resources.stack_frame;
            shape.shared_bytes_per_block = f.resources.shared_static + f.dynamic_shared_bytes;
            shape.l2_bytes = ceilings ? ceilings->l2_bytes : 0;
            r.predicted_time = predict_time(*f.warp_work, rates, shape);
            if (out.roofline)
                r.predicted_fraction = std::min(1.0, out.roofline->time_bound_seconds / r.predicted_time->seconds);
        }
        r.diagnosis = diagnose(view);
    }

    auto ranking = [&](auto included, auto better) {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < facts.size(); ++i)
            if (included(out.variants[i]))
                order.push_back(i);
        std::stable_sort(order.begin(), order.end(), better);
        return order;
    };
    // By predicted time where the time model speaks for every variant, else by the
    // predicted fraction. Ties (memory-bound variants all wait for the same bytes): the
    // one that asks less of every other unit — the sum of its terms — whose bound another
    // unit is least likely to overtake; then fewer registers, then the lower index (stable).
    const bool by_time = std::all_of(out.variants.begin(), out.variants.end(), [](const RankedVariant& r) {
        return !r.predicted || r.predicted_time.has_value();
    });
    const auto predicted_order = ranking([](const RankedVariant& r) { return r.predicted; },
                                         [&](std::size_t a, std::size_t b) {
                                             const RankedVariant& ra = out.variants[a];
                                             const RankedVariant& rb = out.variants[b];
                                             const double fa = by_time ? -ra.predicted_time->seconds : ra.predicted_fraction;
                                             const double fb = by_time ? -rb.predicted_time->seconds : rb.predicted_fraction;
                                             if (fa != fb)
                                                 return fa > fb;
                                             if (by_time) {
                                                 const double da = demand(*ra.predicted_time);
                                                 const double db = demand(*rb.predicted_time);
                                                 if (da != db)
                                                     return da < db;
                                             }
                                             return facts[a].resources.registers < facts[b].resources.registers;
                                         });
    for (std::size_t k = 0; k < predicted_order.size(); ++k)
        out.variants[predicted_order[k]].predicted_rank = k + 1;

    // Measured: by fraction of the roof (by time where there is no roof), ties broken by
    // the lower spread, then fewer registers.
    auto measured_score = [&](std::size_t i) {
        return out.variants[i].roofline_fraction.value_or(1 / facts[i].measured->median);
    };
    const auto measured_order = ranking([](const RankedVariant& r) { return r.measured; },
                                        [&](std::size_t a, std::size_t b) {
                                            const double fa = measured_score(a), fb = measured_score(b);
                                            if (fa != fb)
                                                return fa > fb;
                                            const double sa = facts[a].measured->relative_spread;
                                            const double sb = facts[b].measured->relative_spread;
                                            if (sa != sb)
                                                return sa < sb;
                                            return facts[a].resources.registers < facts[b].resources.registers;
                                        });
    out.measured = !measured_order.empty();
    const auto& winner_order = out.measured ? measured_order : predicted_order;
    for (std::size_t k = 0; k < winner_order.size(); ++k)
        out.variants[winner_order[k]].rank = k + 1;
    if (!winner_order.empty())
        out.winner = winner_order.front();

    if (out.measured) {
        std::vector<double> predicted, measured;
        for (const std::size_t i : measured_order) {
            predicted.push_back(by_time ? 1 / out.variants[i].predicted_time->seconds : out.variants[i].predicted_fraction);
            measured.push_back(measured_score(i));
        }
        out.spearman = spearman_correlation(predicted, measured);
        out.measured_winner_predicted_rank = out.variants[measured_order.front()].predicted_rank;
    }
    return out;
}

} // namespace autotune
