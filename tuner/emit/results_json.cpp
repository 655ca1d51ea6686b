#include "emit/results_json.hpp"

#include "emit/problem_views.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

json named_values(const NamedValues& values)
{
    json object = json::object();
    for (const auto& [name, value] : values)
        object[name] = value;
    return object;
}

template <typename T>
json optional_value(const std::optional<T>& value)
{
    return value ? json(*value) : json(nullptr);
}

json limit_json(int blocks)
{
    return blocks == INT_MAX ? json(nullptr) : json(blocks); // INT_MAX: the resource is unused
}

json occupancy_json(const Occupancy& o)
{
    json limiters = json::array();
    for (auto l : o.limiters)
        limiters.push_back(to_string(l));
    return json{
        {"blocks_per_sm", o.blocks_per_sm},
        {"active_warps", o.active_warps},
        {"max_warps", o.max_warps},
        {"fraction", o.fraction},
        {"limiter", to_string(o.limiter)},
        {"limiters", limiters},
        {"blocks_by",
         {{"warps", limit_json(o.blocks_by_warps)},
          {"blocks", limit_json(o.blocks_by_blocks)},
          {"registers", limit_json(o.blocks_by_registers)},
          {"shared_memory", limit_json(o.blocks_by_shared_memory)},
          {"barriers", limit_json(o.blocks_by_barriers)}}},
        {"registers_to_lose_a_block", optional_value(o.registers_to_lose_a_block)},
        {"registers_to_gain_a_block", optional_value(o.registers_to_gain_a_block)},
    };
}

json measurement_json(const VariantMeasurement& m)
{
    json out = m.measurement ? json(to_json(*m.measurement)) : json::object();
    out["driver"] = m.driver ? json(to_json(*m.driver)) : json(nullptr);
    out["disagreements"] = m.disagreements;
    return out;
}

json ptx_facts_json(const RankFacts& f)
{
    json facts{{"scalar_loads", f.memory_ops.scalar_loads}, {"vector_loads", f.memory_ops.vector_loads},
               {"scalar_stores", f.memory_ops.scalar_stores}, {"vector_stores", f.memory_ops.vector_stores},
               {"arithmetic_share", f.arithmetic_share}};
    facts["warp_work"] = f.warp_work ? warp_work_json(*f.warp_work) : json(nullptr);
    return facts;
}

json variant_json(const Variant& variant, const CompiledVariant& compiled, const PredictionOutcome& predicted,
                  const std::optional<VariantMeasurement>& measured, const RankedVariant* ranked, const RankFacts* facts,
                  const PruneDecision* pruned, const std::vector<Variant>& all)
{
    const bool ok = compiled.status == CompileStatus::ok;
    const ResourceUsage& r = compiled.resources;
    auto when_ok = [ok](json value) { return ok ? value : json(nullptr); };
    const RegisterPolicy& p = variant.register_policy;
    json v{
        {"index", variant.index},
        {"params", named_values(variant.parameters)},
        {"derived", named_values(variant.derived)},
        {"block", {variant.block.x, variant.block.y, variant.block.z}},
        {"grid", {variant.grid.x, variant.grid.y, variant.grid.z}},
        {"dynamic_shared_bytes", variant.dynamic_shared_bytes},
        {"register_policy",
         {{"kind", p.kind()}, {"max_threads", p.max_threads}, {"min_blocks", p.min_blocks}, {"maxnreg", p.maxnreg},
          {"maxrregcount", p.maxrregcount}}},
        {"template", compiled.template_path},
        {"name_expression", compiled.name_expression},
        {"lowered_name", compiled.lowered_name},
        {"compiler", to_string(compiled.compiler)},
        {"options", compiled.options},
        {"status", measured ? measured->status : pruned && pruned->pruned ? "pruned" : to_string(compiled.status)},
        {"pruned_because", pruned && pruned->pruned ? json(pruned->reason) : json(nullptr)},
        {"duplicate_of", pruned && pruned->duplicate_of ? json(all[*pruned->duplicate_of].index) : json(nullptr)},
        {"error", !ok ? json(compiled.error) : measured && !measured->error.empty() ? json(measured->error) : json(nullptr)},
        {"registers", when_ok(r.registers)},
        {"spill_stores", when_ok(r.spill_stores)},
        {"spill_loads", when_ok(r.spill_loads)},
        {"stack_frame", when_ok(r.stack_frame)},
        {"shared_static", when_ok(r.shared_static)},
        {"constant_bytes", ok ? optional_value(r.constant_bank0) : json(nullptr)},
        {"barriers", when_ok(r.barriers)},
        {"register_cap", when_ok(r.register_cap)},
        {"register_cap_source", when_ok(r.register_cap_source)},
        {"maxrregcount_overridden", ok ? optional_value(r.maxrregcount_overridden) : json(nullptr)},
        {"cap_raised_from", ok ? optional_value(r.cap_raised_from) : json(nullptr)},
        {"min_blocks_ignored", when_ok(r.min_blocks_ignored)},
        {"warnings", r.warnings},
        {"cubin_sha256", when_ok(compiled.cubin_sha256)},
        {"sass_sha256", when_ok(compiled.sass_sha256)},
        {"ptx_facts", ok && facts ? ptx_facts_json(*facts) : json(nullptr)},
        {"occupancy", predicted.prediction ? occupancy_json(predicted.prediction->occupancy) : json(nullptr)},
        {"launch_bound_cap", nullptr},
        {"flags", predicted.prediction ? json(predicted.prediction->flags) : json::array()},
        {"prediction_error", predicted.error.empty() ? json(nullptr) : json(predicted.error)},
        {"measurement", measured ? measurement_json(*measured) : json(nullptr)},
    };
    const json rank_fields = ranked_variant_json(ranked); // a named object: items() would dangle on a temporary
    for (const auto& [key, value] : rank_fields.items())
        v[key] = value;
    if (predicted.prediction && predicted.prediction->launch_bound) {
        const LaunchBoundCap& cap = *predicted.prediction->launch_bound;
        v["launch_bound_cap"] = {{"computed", cap.register_cap},
                                 {"ptxas", r.register_cap},
                                 {"min_blocks_resident", cap.min_blocks_resident}};
    }
    return v;
}



json device_json(const GpuDevice& d)
{
    return {{"name", d.name},           {"ordinal", d.ordinal},
            {"pci_bus_id", d.pci_bus_id}, {"arch", fmt::format("sm_{}", d.compute_capability)},
            {"sms", d.sms},             {"clock_mhz", d.clock_mhz},
            {"memory_clock_mhz", d.memory_clock_mhz}, {"memory_bus_width_bits", d.memory_bus_width_bits},
            {"memory_bytes", d.memory_bytes}, {"l2_bytes", d.l2_bytes}};
}


// The problem's roofline figures, its winner and how well the model ranked it.
json problem_json(const TuningRun& run)
{
    json variables = json::object();
    for (const auto& [name, value] : run.problem.values)
        variables[name] = value;
    if (!run.ranking)
        return json{{"variables", variables}};
    std::vector<std::pair<std::size_t, json>> identities;
    for (const auto& v : run.variants)
        identities.emplace_back(v.index, named_values(v.parameters));
    const int sms = run.device ? run.device->sms : run.roofline_device ? run.roofline_device->sms : 0;
    json p = ranked_problem_json(variables, *run.ranking, identities, sms);
    // The best variants as nvcc builds them, and the one the tuned header keeps.
    json builds = json::array();
    json shipped = nullptr;
    if (run.consumer_builds) {
        for (const auto& b : run.consumer_builds->builds)
            builds.push_back({{"index", run.variants[b.variant].index},
                              {"same_machine_code", b.same_machine_code},
                              {"sass_sha256", b.sass_sha256.empty() ? json(nullptr) : json(b.sass_sha256)},
                              {"median_seconds", b.median ? json(*b.median) : json(nullptr)},
                              {"median_noise", b.noise ? json(*b.noise) : json(nullptr)},
                              {"measured_again", b.measurement.has_value()},
                              {"error", b.error.empty() ? json(nullptr) : json(b.error)}});
        if (const auto& w = run.consumer_builds->winner) {
            const ConsumerBuild& b = *std::find_if(run.consumer_builds->builds.begin(), run.consumer_builds->builds.end(),
                                                   [&](const ConsumerBuild& x) { return x.variant == *w; });
            shipped = {{"index", run.variants[*w].index}, {"params", named_values(run.variants[*w].parameters)},
                       {"median_seconds", *b.median}, {"median_noise", b.noise ? json(*b.noise) : json(nullptr)}};
        }
    }
    p["nvcc_builds"] = builds;
    p["winner_as_built_by_nvcc"] = shipped;
    return p;
}

} // namespace

json ranked_problem_json(const json& variables, const ProblemRanking& r,
                         const std::vector<std::pair<std::size_t, json>>& identities, int sms)
{
    json p{{"variables", variables}};
    p["flops"] = r.flops;
    p["bytes"] = r.bytes;
    p["intensity"] = r.bytes > 0 ? json(r.flops / r.bytes) : json(nullptr);
    p["ridge"] = r.roofline ? json(r.roofline->ridge) : json(nullptr);
    p["bound"] = r.roofline ? json(r.roofline->compute_bound ? "compute" : "memory") : json(nullptr);
    p["ceilings"] = r.ceilings ? json{{"compute_gflops", r.ceilings->compute_gflops},
                                      {"bandwidth_gbs", r.ceilings->bandwidth_gbs},
                                      {"clock_mhz", r.ceilings->clock_mhz},
                                      {"source", r.ceilings->source}}
                               : json(nullptr);
    // The L2 the ranking charged local memory against, so that merge ranks as the run did.
    if (r.ceilings && r.ceilings->l2_bytes > 0)
        p["ceilings"]["l2_bytes"] = r.ceilings->l2_bytes;
    p["sms"] = sms;
    p["measured"] = r.measured;
    if (r.winner) {
        const RankedVariant& w = r.variants[*r.winner];
        p["winner"] = {{"index", identities[*r.winner].first},
                       {"params", identities[*r.winner].second},
                       {"basis", r.measured ? "measured" : "predicted"},
                       {"roofline_fraction", optional_value(w.roofline_fraction)},
                       {"predicted_fraction", w.predicted_fraction}};
    } else {
        p["winner"] = nullptr;
    }
    p["prediction_quality"] =
        r.measured ? json{{"spearman", optional_value(r.spearman)},
                          {"measured_winner_predicted_rank", optional_value(r.measured_winner_predicted_rank)},
                          {"measured_winner_in_predicted_top10",
                           r.measured_winner_predicted_rank && *r.measured_winner_predicted_rank <= 10}}
                   : json(nullptr);
    return p;
}


json ranked_variant_json(const RankedVariant* r)
{
    if (r == nullptr || !r->predicted)
        return json{{"gflops", nullptr}, {"gbps", nullptr}, {"roofline_fraction", nullptr},
                    {"predicted_fraction", nullptr}, {"predicted_time", nullptr}, {"diagnosis", json::array()}, {"rank", nullptr},
                    {"predicted_rank", nullptr}};
    const ModelFactors& f = r->factors;
    const json predicted_time = r->predicted_time ? predicted_time_json(*r->predicted_time) : json(nullptr);
    return json{{"gflops", optional_value(r->gflops)},
                {"gbps", optional_value(r->gbps)},
                {"roofline_fraction", optional_value(r->roofline_fraction)},
                {"predicted_fraction", r->predicted_fraction},
                {"predicted_time", predicted_time},
                {"model_factors",
                 {{"occupancy", f.occupancy}, {"spills", f.spills}, {"waves", f.waves}, {"vectors", f.vectors},
                  {"issue", f.issue}}},
                {"diagnosis", r->diagnosis},
                {"rank", r->rank ? json(r->rank) : json(nullptr)},
                {"predicted_rank", r->predicted_rank ? json(r->predicted_rank) : json(nullptr)}};
}

std::string results_file_name(const std::string& kernel, const std::optional<std::pair<std::size_t, std::size_t>>& shard)
{
    return shard ? fmt::format("{}.shard-{}-of-{}.json", kernel, shard->first, shard->second) : kernel + ".json";
}

namespace {

// What the search was allowed: each limit, or null where there was none.
json budget_json(const Budget& b)
{
    return {{"evaluations", b.max_evaluations == std::numeric_limits<std::size_t>::max() ? json(nullptr)
                                                                                         : json(b.max_evaluations)},
            {"share", b.max_fraction > 0 ? json(b.max_fraction) : json(nullptr)},
            {"seconds", std::isfinite(b.max_seconds) ? json(b.max_seconds) : json(nullptr)}};
}

} // namespace

json results_json(const TuningRun& run)
{
    json removals = json::array();
    for (const auto& r : run.removals)
        removals.push_back({{"rule", r.rule}, {"removed", r.removed}});
    json problem = json::object();
    for (const auto& [name, value] : run.problem.values)
        problem[name] = value;
    json variants = json::array();
    for (std::size_t i = 0; i < run.variants.size(); ++i)
        variants.push_back(variant_json(run.variants[i], run.compiled[i],
                                        i < run.predictions.size() ? run.predictions[i] : PredictionOutcome{},
                                        i < run.measurements.size() ? run.measurements[i] : std::nullopt,
                                        run.ranking ? &run.ranking->variants[i] : nullptr,
                                        i < run.facts.size() ? &run.facts[i] : nullptr,
                                        i < run.pruning.decisions.size() ? &run.pruning.decisions[i] : nullptr,
                                        run.variants));
    bool measured = false;
    for (const auto& m : run.measurements)
        measured = measured || (m && m->status == "ok");
    json document{
        {"schema_version", results_schema_version},
        {"tool", tool_json()},
        {"kernel", run.kernel},
        {"spec", run.spec_path},
        {"spec_sha256", run.spec_sha256},
        {"arch", run.arch},
        {"nvrtc_version", run.nvrtc_version},
        {"compiler", to_string(run.compiler)},
        {"device", run.device ? device_json(*run.device) : json(nullptr)},
        {"measured", measured},
        {"not_measured", run.not_measured.empty() ? json(nullptr) : json(run.not_measured)},
        {"roofline_device", run.roofline_device
                                ? json{{"key", run.roofline_device->key},
                                       {"name", run.roofline_device->name},
                                       {"chosen_by", run.roofline_device_named ? "--device" : "default for " + run.arch},
                                       {"source", run.roofline_device->source}}
                                : json(nullptr)},
        {"problem", problem},
        {"exact_problem_variables", run.exact_problem_variables},
        {"space",
         {{"selection", run.selection == SpaceSelection::full ? "full" : "default"},
          {"combinations", run.combinations},
          {"valid", run.variants.size()},
          {"removed", removals}}},
        {"pruning", [&] {
             json rules = json::array();
             for (const auto& r : run.pruning.removals)
                 rules.push_back({{"rule", r.rule}, {"removed", r.removed}});
             return rules;
         }()},
        {"search", run.search ? json{{"strategy", run.strategy},
                                     {"budget", budget_json(run.budget)},
                                     {"seed", run.seed},
                                     {"prior", run.prior.empty() ? json(nullptr) : json(run.prior)},
                                     {"candidates", run.search->candidates},
                                     {"evaluations", run.search->evaluations},
                                     {"compiled_lazily", run.search->compiled_lazily},
                                     {"resumed", run.resumed}}
                              : json(nullptr)},
        {"shard", run.shard ? json{{"index", run.shard->first}, {"count", run.shard->second}} : json(nullptr)},
        {"launch_bound_search", [&] {
             json sweeps = json::array();
             for (const auto& s : run.launch_bound_search)
                 sweeps.push_back({{"base", s.base}, {"sweep", s.sweep}, {"frontier", s.frontier}});
             return sweeps;
         }()},
        {"problems", json::array({problem_json(run)})},
        {"variants", variants},
    };
    // Only where given: a run without --compile-option writes the file it always wrote.
    if (!run.compile_options_added.empty())
        document["compile_options_added"] = run.compile_options_added;
    return document;
}

namespace {

json warp_counts_json(const WarpCounts& w)
{
    return {{"issue", w.issue},
            {"static_issue", w.static_issue},
            {"fp32", w.fp32},
            {"fp64", w.fp64},
            {"fp16", w.fp16},
            {"integer", w.integer},
            {"sfu", w.sfu},
            {"tensor", w.tensor},
            {"shared_wavefronts", w.shared_wavefronts},
            {"constant_loads", w.constant_loads},
            {"global_wavefronts", w.global_wavefronts},
            {"local_wavefronts", w.local_wavefronts},
            {"local_loads", w.local_loads},
            {"shared_instructions", w.shared_instructions},
            {"lsu_instructions", w.lsu_instructions},
            {"global_load_bytes", w.global_load_bytes},
            {"global_store_bytes", w.global_store_bytes},
            {"barriers", w.barriers},
            {"latency_cycles", w.latency_cycles}};
}

void read_warp_counts(const json& j, WarpCounts& w)
{
    w.issue = j.at("issue").get<double>();
    w.static_issue = j.value("static_issue", 0.0);
    w.fp32 = j.at("fp32").get<double>();
    w.fp64 = j.at("fp64").get<double>();
    w.fp16 = j.at("fp16").get<double>();
    w.integer = j.at("integer").get<double>();
    w.sfu = j.at("sfu").get<double>();
    w.tensor = j.at("tensor").get<double>();
    w.shared_wavefronts = j.at("shared_wavefronts").get<double>();
    w.constant_loads = j.at("constant_loads").get<double>();
    w.global_wavefronts = j.at("global_wavefronts").get<double>();
    w.local_wavefronts = j.at("local_wavefronts").get<double>();
    // Files written before these were counted read as zero: the wavefronts alone, as then.
    w.shared_instructions = j.value("shared_instructions", 0.0);
    w.lsu_instructions = j.value("lsu_instructions", 0.0);
    w.local_loads = j.value("local_loads", 0.0);
    w.global_load_bytes = j.at("global_load_bytes").get<double>();
    w.global_store_bytes = j.at("global_store_bytes").get<double>();
    w.barriers = j.at("barriers").get<double>();
    w.latency_cycles = j.at("latency_cycles").get<double>();
}

} // namespace

json predicted_time_json(const TimePrediction& time)
{
    json terms = json::object();
    for (const auto& t : time.terms)
        terms[t.name] = t.seconds;
    json j = {{"seconds", time.seconds}, {"bound", time.bound}, {"waves", time.waves}, {"terms", terms}};
    if (!time.phase_bounds.empty())
        j["phase_bounds"] = time.phase_bounds;
    return j;
}

json warp_work_json(const WarpWork& w)
{
    json j = warp_counts_json(w);
    j["unknown_trip_counts"] = w.unknown_trip_counts;
    if (!w.phases.empty()) {
        json phases = json::array();
        for (const WarpCounts& phase : w.phases)
            phases.push_back(warp_counts_json(phase));
        j["phases"] = std::move(phases);
    }
    return j;
}

WarpWork warp_work_of_json(const json& j)
{
    WarpWork w;
    read_warp_counts(j, w);
    w.unknown_trip_counts = j.at("unknown_trip_counts").get<int>();
    // Written since the time model splits a block's run at its barriers; older files have none.
    if (const auto phases = j.find("phases"); phases != j.end())
        for (const json& phase : *phases)
            read_warp_counts(phase, w.phases.emplace_back());
    return w;
}

json results_document(const std::vector<TuningRun>& runs)
{
    std::vector<json> views;
    for (const auto& run : runs)
        views.push_back(results_json(run));
    return combine_problem_views(views);
}

std::filesystem::path write_results(const std::vector<TuningRun>& runs, const std::filesystem::path& out_dir)
{
    if (runs.empty())
        throw std::invalid_argument("no problem was tuned: nothing to write");
    const auto path = out_dir / runs.front().arch / results_file_name(runs.front().kernel, runs.front().shard);
    json document = results_document(runs);
    // Same content, same bytes: a file that would change only in which build of the tool
    // wrote it keeps its bytes, so a rerun that learned nothing leaves tracked files alone.
    if (std::ifstream in(path); in) {
        const std::string existing((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const json previous = json::parse(existing, nullptr, false);
        if (previous.is_object() && previous.contains("tool")) {
            json same_tool = document;
            same_tool["tool"] = previous["tool"];
            if (same_tool.dump(2) + "\n" == existing)
                return path;
        }
    }
    write_file_atomically(path, document.dump(2) + "\n");
    return path;
}

} // namespace autotune
