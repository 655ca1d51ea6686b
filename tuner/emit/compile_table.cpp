#include "emit/compile_table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace autotune {
namespace {

struct Column {
    std::string title;
    std::vector<std::string> cells;
    bool left = false; // text columns read better left-aligned
};

std::string cap_cell(const ResourceUsage& r)
{
    if (r.register_cap_source == "none")
        return "-";
    static const std::map<std::string, std::string> marks{
        {"launch_bounds", "lb"}, {"maxrregcount", "rr"}, {"maxnreg", "mn"}, {"ptxas", "?"}};
    auto it = marks.find(r.register_cap_source);
    std::string cell = fmt::format("{} {}", r.register_cap, it == marks.end() ? r.register_cap_source : it->second);
    if (r.maxrregcount_overridden)
        cell += fmt::format(" (was {})", *r.maxrregcount_overridden);
    return cell;
}

std::string status_cell(const CompiledVariant& c, const PredictionOutcome& predicted)
{
    if (c.status == CompileStatus::ok) {
        if (!predicted.error.empty())
            return "ok, cannot run: " + predicted.error;
        if (c.resources.min_blocks_ignored)
            return "ok, min blocks ignored";
        if (predicted.prediction && !predicted.prediction->flags.empty())
            return "ok, flagged";
        return "ok";
    }
    std::string error = c.error.size() > 70 ? c.error.substr(0, 67) + "..." : c.error;
    return to_string(c.status) + ": " + error;
}

} // namespace

std::string compile_table(const TuningRun& run)
{
    std::vector<Column> columns;
    columns.push_back({"#", {}});
    if (!run.variants.empty())
        for (const auto& [name, value] : run.variants.front().parameters)
            columns.push_back({name, {}});
    for (const char* title : {"threads", "regs", "spill st/ld", "stack", "smem", "cap", "blk/SM", "occ", "limit",
                              "model", "rank"})
        columns.push_back({title, {}});
    const bool measured = std::any_of(run.measurements.begin(), run.measurements.end(),
                                      [](const auto& m) { return m && m->measurement; });
    if (measured)
        for (const char* title : {"median us", "noise", "MHz", "roof"})
            columns.push_back({title, {}});
    columns.push_back({"status", {}, true});

    for (std::size_t i = 0; i < run.variants.size(); ++i) {
        const Variant& v = run.variants[i];
        const CompiledVariant& c = run.compiled[i];
        const ResourceUsage& r = c.resources;
        const bool ok = c.status == CompileStatus::ok;
        std::size_t col = 0;
        columns[col++].cells.push_back(std::to_string(v.index));
        for (const auto& [name, value] : v.parameters)
            columns[col++].cells.push_back(std::to_string(value));
        columns[col++].cells.push_back(std::to_string(v.block.volume()));
        columns[col++].cells.push_back(ok ? std::to_string(r.registers) : "-");
        columns[col++].cells.push_back(ok ? fmt::format("{}/{}", r.spill_stores, r.spill_loads) : "-");
        columns[col++].cells.push_back(ok ? std::to_string(r.stack_frame) : "-");
        columns[col++].cells.push_back(ok ? std::to_string(r.shared_static) : "-");
        columns[col++].cells.push_back(ok ? cap_cell(r) : "-");
        const auto* p = i < run.predictions.size() && run.predictions[i].prediction ? &*run.predictions[i].prediction
                                                                                      : nullptr;
        columns[col++].cells.push_back(p ? std::to_string(p->occupancy.blocks_per_sm) : "-");
        columns[col++].cells.push_back(p ? fmt::format("{:.0f}%", 100 * p->occupancy.fraction) : "-");
        columns[col++].cells.push_back(p ? to_string(p->occupancy.limiter) : "-");
        const RankedVariant* ranked = run.ranking && run.ranking->variants[i].predicted ? &run.ranking->variants[i] : nullptr;
        columns[col++].cells.push_back(ranked ? fmt::format("{:.0f}%", 100 * ranked->predicted_fraction) : "-");
        columns[col++].cells.push_back(ranked && ranked->rank ? std::to_string(ranked->rank) : "-");
        const auto* m = i < run.measurements.size() && run.measurements[i] ? &*run.measurements[i] : nullptr;
        if (measured) {
            const bool timed = m && m->measurement;
            columns[col++].cells.push_back(timed ? fmt::format("{:.2f}", 1e6 * m->measurement->time.median) : "-");
            columns[col++].cells.push_back(timed ? fmt::format("{:.1f}%", 100 * m->measurement->time.median_noise) : "-");
            columns[col++].cells.push_back(timed ? fmt::format("{:.0f}", m->measurement->sm_clock_mhz) : "-");
            const auto fraction = run.ranking ? run.ranking->variants[i].roofline_fraction : std::nullopt;
            columns[col++].cells.push_back(fraction ? fmt::format("{:.0f}%", 100 * *fraction) : "-");
        }
        const PruneDecision* pruned = i < run.pruning.decisions.size() ? &run.pruning.decisions[i] : nullptr;
        if (m && m->status != "ok")
            columns[col++].cells.push_back(fmt::format("{}: {}", m->status, m->error.substr(0, 70)));
        else if (pruned && pruned->pruned)
            columns[col++].cells.push_back("pruned: " + pruned->reason.substr(0, 70));
        else if (pruned && pruned->duplicate_of)
            columns[col++].cells.push_back(fmt::format("{}, same run as #{}", m ? "ok" : "duplicate",
                                                       run.variants[*pruned->duplicate_of].index));
        else
            columns[col++].cells.push_back(status_cell(c, i < run.predictions.size() ? run.predictions[i] : PredictionOutcome{}));
    }

    std::vector<std::size_t> widths;
    for (const auto& column : columns) {
        std::size_t w = column.title.size();
        for (const auto& cell : column.cells)
            w = std::max(w, cell.size());
        widths.push_back(w);
    }
    std::string out;
    auto append_row = [&](auto cell_of) {
        std::string line;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const std::string cell = cell_of(c);
            const bool last = c + 1 == columns.size();
            if (columns[c].left)
                line += last ? cell : fmt::format("{:<{}}", cell, widths[c]);
            else
                line += fmt::format("{:>{}}", cell, widths[c]);
            if (!last)
                line += "  ";
        }
        out += line + "\n";
    };
    append_row([&](std::size_t c) { return columns[c].title; });
    for (std::size_t row = 0; row < run.variants.size(); ++row)
        append_row([&](std::size_t c) { return columns[c].cells[row]; });
    return out;
}

std::string launch_bound_table(const TuningRun& run)
{
    std::string out;
    for (const auto& search : run.launch_bound_search) {
        auto position = [&](std::size_t index) {
            for (std::size_t i = 0; i < run.variants.size(); ++i)
                if (run.variants[i].index == index)
                    return i;
            return run.variants.size();
        };
        const Variant& base = run.variants[position(search.base)];
        std::size_t hidden = 0;
        out += fmt::format("\nlaunch-bound search around #{} ({}):\n{:>8}  {:<46} {:>5} {:>12} {:>7} {:>5} {:>14}  {}\n",
                           search.base, base.key(), "#", "policy", "regs", "spill st/ld", "blk/SM", "occ",
                           run.device ? "median us" : "model", "");
        for (const std::size_t index : search.sweep) {
            const std::size_t i = position(index);
            if (i == run.variants.size())
                continue;
            if (run.pruning.decisions[i].duplicate_of) {
                ++hidden; // the same machine code and launch as a variant listed
                continue;
            }
            const Variant& v = run.variants[i];
            const RegisterPolicy& p = v.register_policy;
            std::string policy = p.kind();
            if (p.max_threads > 0)
                policy += fmt::format(" ({}, {})", p.max_threads, p.min_blocks);
            if (p.maxnreg > 0)
                policy += fmt::format(" {}", p.maxnreg);
            if (p.maxrregcount > 0)
                policy += fmt::format(" rr={}", p.maxrregcount);
            const CompiledVariant& c = run.compiled[i];
            const auto* prediction = run.predictions[i].prediction ? &*run.predictions[i].prediction : nullptr;
            const bool ok = c.status == CompileStatus::ok;
            const auto& facts = run.facts[i];
            std::string time = "-";
            if (facts.measured)
                time = fmt::format("{:.2f}", 1e6 * facts.measured->median);
            else if (run.ranking && run.ranking->variants[i].predicted)
                time = fmt::format("{:.0f}%", 100 * run.ranking->variants[i].predicted_fraction);
            const bool frontier = std::find(search.frontier.begin(), search.frontier.end(), index) != search.frontier.end();
            out += fmt::format("{:>8}  {:<46} {:>5} {:>12} {:>7} {:>5} {:>14}  {}\n", index, policy,
                               ok ? std::to_string(c.resources.registers) : "-",
                               ok ? fmt::format("{}/{}", c.resources.spill_stores, c.resources.spill_loads) : "-",
                               prediction ? std::to_string(prediction->occupancy.blocks_per_sm) : "-",
                               prediction ? fmt::format("{:.0f}%", 100 * prediction->occupancy.fraction) : "-", time,
                               frontier ? "frontier" : (run.pruning.decisions[i].pruned ? "pruned" : ""));
        }
        if (hidden > 0)
            out += fmt::format("  ({} more with the same machine code and launch as one listed)\n", hidden);
    }
    return out;
}

namespace {

std::string winner_summary(const TuningRun& run)
{
    if (!run.ranking)
        return {};
    const ProblemRanking& r = *run.ranking;
    std::string text;
    const std::string problem = run.problem.values.empty() ? "" : " " + run.problem.to_string(); // T1 files may have none
    if (r.roofline && r.flops <= 0) // a copy kernel's, or a spec that gives no flops: not "memory-bound" by its work
        text += fmt::format("\nproblem{}: {:.3g} MB and no flops (a [cost] table's flops; a T1 file gives none): the roof "
                            "is the bandwidth's alone ({:.3g} GB/s, ceilings from {})",
                            problem, r.bytes / 1e6, r.ceilings->bandwidth_gbs, r.ceilings->source);
    else if (r.roofline)
        text += fmt::format("\nproblem{}: {:.3g} GFLOP, {:.3g} MB, {:.3g} flop/byte: {}-bound (ridge {:.3g} flop/byte, "
                            "ceilings from {})",
                            problem, r.flops / 1e9, r.bytes / 1e6, r.flops / r.bytes,
                            r.roofline->compute_bound ? "compute" : "memory", r.roofline->ridge, r.ceilings->source);
    else if (r.bytes <= 0) // ceilings or not, a problem without bytes has no place on the roofline
        text += fmt::format("\nproblem{}: no roofline: the spec gives no cost (a [cost] table's flops and bytes; "
                            "a T1 file has none); ranked by the time model alone",
                            problem);
    else
        text += fmt::format("\nproblem{}: {:.3g} GFLOP, {:.3g} MB; no ceilings for {} (--device names a device)",
                            problem, r.flops / 1e9, r.bytes / 1e6, run.arch);
    if (!r.winner)
        return text + "\nno winner: no variant can run";
    const RankedVariant& w = r.variants[*r.winner];
    const Variant& v = run.variants[*r.winner];
    if (r.measured)
        text += fmt::format("\nwinner, measured: #{} {}{}", v.index, v.key(),
                            w.roofline_fraction ? fmt::format(" at {:.0f}% of the roof", 100 * *w.roofline_fraction) : "");
    else
        text += fmt::format("\nwinner, predicted (nothing measured): #{} {} at {:.0f}% of the roof by the model",
                            v.index, v.key(), 100 * w.predicted_fraction);
    if (!w.diagnosis.empty())
        text += "; " + w.diagnosis.front();
    if (r.measured && r.measured_winner_predicted_rank)
        text += fmt::format("\nthe model ranked the measured winner {}{}", *r.measured_winner_predicted_rank,
                            r.spearman ? fmt::format(" (Spearman {:.2f} over the measured variants)", *r.spearman) : "");
    return text;
}

// How the run's variants came from the space: all its valid ones, or those --variants
// picked or a shard holds among them (the space's count, not the run's).
std::string space_summary(const TuningRun& run)
{
    const std::string space = fmt::format("{} of {} combinations valid", run.valid, run.combinations);
    const std::string shard = run.shard ? fmt::format("shard {}/{}", run.shard->first, run.shard->second) : "";
    if (run.search && run.search->compiled_lazily)
        return fmt::format("--lazy-compile: the search compiled {} of the {}{}", run.variants.size(),
                           shard.empty() ? "" : shard + " of the ", space);
    if (run.picked_by_variants)
        return fmt::format("--variants picked them{} from the {}", shard.empty() ? "" : ", " + shard + ",", space);
    if (run.shard)
        return fmt::format("{} of the {}", shard, space);
    return space;
}

} // namespace

std::string compile_summary(const TuningRun& run)
{
    std::size_t ok = 0, cached = 0;
    std::map<std::string, std::size_t> stopped; // compile errors that were a limit's, by status
    for (const auto& c : run.compiled) {
        ok += c.status == CompileStatus::ok;
        cached += c.cache_hit;
        if (c.status != CompileStatus::ok && c.status != CompileStatus::compile_error)
            ++stopped[to_string(c.status)];
    }
    std::string stopped_counts;
    for (const auto& [status, count] : stopped)
        stopped_counts += fmt::format("{}{} {}", stopped_counts.empty() ? " (" : ", ", count, status);
    if (!stopped_counts.empty())
        stopped_counts += ")";
    std::string removed;
    for (const auto& r : run.removals)
        if (r.removed > 0)
            removed += fmt::format("\n  {:>6} removed by {}", r.removed, r.rule);
    const std::string device =
        run.roofline_device
            ? fmt::format("\ndevice model: {} ({}){}", run.roofline_device->key, run.roofline_device->name,
                          run.roofline_device_named ? "" : fmt::format(", the default for {}; --device names another", run.arch))
            : fmt::format("\ndevice model: none known for {}; --device names one", run.arch);
    std::string pruned;
    for (const auto& r : run.pruning.removals)
        if (r.removed > 0)
            pruned += fmt::format("\n  {:>6} not measured: {}", r.removed, r.rule);
    std::string measured;
    if (run.device) {
        std::map<std::string, std::size_t> by_status;
        for (const auto& m : run.measurements)
            if (m)
                ++by_status[m->status];
        std::string counts;
        for (const auto& [status, count] : by_status)
            counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count, status);
        measured = fmt::format("\nmeasured on {} ({}, sm_{}): {}", run.device->name, run.device->pci_bus_id,
                               run.device->compute_capability, counts.empty() ? "nothing runnable" : counts);
    }
    return fmt::format("{} variants of {} for {} ({}): {} compiled, {} compile errors{}, {} from cache, {:.1f} s with "
                       "{}{}{}{}{}",
                       run.variants.size(), run.kernel, run.arch, space_summary(run), ok, run.compiled.size() - ok,
                       stopped_counts, cached, run.seconds, to_string(run.compiler), removed + pruned, device, measured,
                       winner_summary(run));
}

} // namespace autotune
