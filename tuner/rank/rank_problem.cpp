#include "rank/rank_problem.hpp"

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

double evaluate_cost(const std::string& text, const char* origin, const KernelSpec& spec, const Problem& problem)
{
    std::vector<std::string> names;
    for (const auto& [name, value] : problem.values)
        names.push_back(name);
    ExpressionScope scope(names);
    for (const auto& [name, value] : problem.values)
        scope.set(name, static_cast<double>(value));
    (void)spec;
    return Expression(text, origin, scope).evaluate();
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

ProblemRanking rank_problem(const RankInputs& in)
{
    const auto& variants = *in.variants;
    const auto& compiled = *in.compiled;
    const auto& predictions = *in.predictions;
    ProblemRanking out;
    out.flops = evaluate_cost(in.spec->cost.flops, "cost.flops", *in.spec, *in.problem);
    out.bytes = evaluate_cost(in.spec->cost.bytes, "cost.bytes", *in.spec, *in.problem);
    out.ceilings = in.ceilings;
    if (in.ceilings)
        out.roofline = roofline_for(out.flops, out.bytes, *in.ceilings);
    out.variants.resize(variants.size());

    // Vector accesses are "possible" for this kernel when any variant of it uses them.
    std::vector<GlobalMemoryOps> ops(variants.size());
    bool vectors_possible = false;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (compiled[i].status == CompileStatus::ok) {
            ops[i] = count_global_memory_ops(compiled[i].ptx);
            vectors_possible |= ops[i].vector_loads + ops[i].vector_stores > 0;
        }

    for (std::size_t i = 0; i < variants.size(); ++i) {
        RankedVariant& r = out.variants[i];
        if (!predictions[i].prediction)
            continue;
        VariantFacts facts;
        facts.resources = compiled[i].resources;
        facts.occupancy = predictions[i].prediction->occupancy;
        facts.threads_per_block = variants[i].block.volume();
        facts.grid_blocks = variants[i].grid.volume();
        facts.sms = in.sms;
        facts.memory_ops = ops[i];
        facts.vectors_possible = vectors_possible;
        if (out.roofline) {
            facts.problem = *out.roofline;
            facts.ceilings = *in.ceilings;
        } else {
            facts.problem.flops = out.flops;
            facts.problem.bytes = out.bytes;
            facts.problem.compute_bound = out.flops > 0;
        }
        const auto* m = in.measurements && i < in.measurements->size() && (*in.measurements)[i]
                            ? &*(*in.measurements)[i] : nullptr;
        if (m && m->status == "ok" && m->measurement && m->measurement->verified) {
            const double seconds = m->measurement->time.median;
            r.measured = true;
            r.gflops = out.flops / seconds / 1e9;
            r.gbps = out.bytes / seconds / 1e9;
            if (in.ceilings) {
                // The roof at the clock this variant ran at.
                const Ceilings at_run = at_clock(*in.ceilings, m->measurement->sm_clock_mhz);
                const ProblemRoofline roof = roofline_for(out.flops, out.bytes, at_run);
                r.roofline_fraction = roofline_fraction(roof, seconds);
                facts.problem = roof;
                facts.ceilings = at_run;
            }
            facts.seconds = seconds;
        }
        r.predicted = true;
        r.factors = model_factors(facts, arithmetic_share(compiled[i].ptx));
        r.predicted_fraction = r.factors.fraction();
        r.diagnosis = diagnose(facts);
    }

    auto ranking = [&](auto included, auto better) {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < variants.size(); ++i)
            if (included(out.variants[i]))
                order.push_back(i);
        std::stable_sort(order.begin(), order.end(), better);
        return order;
    };
    // Ties: fewer registers, then the lower index (stable).
    const auto predicted_order = ranking([](const RankedVariant& r) { return r.predicted; },
                                         [&](std::size_t a, std::size_t b) {
                                             const double fa = out.variants[a].predicted_fraction;
                                             const double fb = out.variants[b].predicted_fraction;
                                             if (fa != fb)
                                                 return fa > fb;
                                             return compiled[a].resources.registers < compiled[b].resources.registers;
                                         });
    for (std::size_t k = 0; k < predicted_order.size(); ++k)
        out.variants[predicted_order[k]].predicted_rank = k + 1;

    // Measured: by time (the roof is the same for every variant of a problem, up to the
    // clock), ties broken by the lower spread, then fewer registers.
    const auto measured_order = ranking([](const RankedVariant& r) { return r.measured; },
                                        [&](std::size_t a, std::size_t b) {
                                            const auto& ma = *(*in.measurements)[a]->measurement;
                                            const auto& mb = *(*in.measurements)[b]->measurement;
                                            const double fa = out.variants[a].roofline_fraction.value_or(1 / ma.time.median);
                                            const double fb = out.variants[b].roofline_fraction.value_or(1 / mb.time.median);
                                            if (fa != fb)
                                                return fa > fb;
                                            if (ma.time.relative_spread != mb.time.relative_spread)
                                                return ma.time.relative_spread < mb.time.relative_spread;
                                            return compiled[a].resources.registers < compiled[b].resources.registers;
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
            predicted.push_back(out.variants[i].predicted_fraction);
            measured.push_back(out.variants[i].roofline_fraction.value_or(1 / (*in.measurements)[i]->measurement->time.median));
        }
        out.spearman = spearman_correlation(predicted, measured);
        out.measured_winner_predicted_rank = out.variants[measured_order.front()].predicted_rank;
    }
    return out;
}

} // namespace autotune
