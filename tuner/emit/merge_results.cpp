#include "emit/merge_results.hpp"

#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_json.hpp"
#include "emit/results_reader.hpp"
#include "emit/shard_parts.hpp"
#include "rank/rank_problem.hpp"
#include "space/enumerate_space.hpp"
#include "strategy/prune_variants.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

OccupancyLimiter limiter_from(const std::string& name)
{
    for (auto l : {OccupancyLimiter::warps, OccupancyLimiter::blocks, OccupancyLimiter::registers,
                   OccupancyLimiter::shared_memory, OccupancyLimiter::barriers})
        if (to_string(l) == name)
            return l;
    return OccupancyLimiter::warps;
}

// 86 for "sm_86"; 0 (no time model's rates) for anything else, e.g. an imported cache's null.
int compute_capability_of(const json& arch)
{
    if (!arch.is_string())
        return 0;
    try {
        return parse_arch(arch.get<std::string>()).number();
    } catch (const std::exception&) {
        return 0;
    }
}

// The L2 the run ranked with (where local memory misses L1, the share L2 serves): its
// ceilings record it; files written before they did name only the datasheet's device.
double ranked_l2_bytes(const json& part, const json& ceilings)
{
    if (ceilings.contains("l2_bytes"))
        return ceilings.at("l2_bytes").get<double>();
    const std::string ceilings_source = ceilings.at("source").get<std::string>();
    const json& device = part.value("roofline_device", json());
    if (!device.is_object() || !device.contains("key") || !device.at("key").is_string())
        return 0;
    const std::string key = device.at("key").get<std::string>();
    if (ceilings_source != "datasheet: " + key)
        return 0;
    try {
        return static_cast<double>(find_device_spec(key).l2_bytes);
    } catch (const ArchError&) { // a device of another version's table
        return 0;
    }
}

// What ranking needs, read back from a variant's record (what rank_facts_of_run made of it).
RankFacts facts_of_record(const json& v)
{
    RankFacts f;
    f.threads_per_block = v.at("block").at(0).get<std::int64_t>() * v.at("block").at(1).get<std::int64_t>() *
                          v.at("block").at(2).get<std::int64_t>();
    f.grid_blocks = v.at("grid").at(0).get<std::int64_t>() * v.at("grid").at(1).get<std::int64_t>() *
                    v.at("grid").at(2).get<std::int64_t>();
    f.dynamic_shared_bytes = v.value("dynamic_shared_bytes", std::int64_t{0});
    if (!v.at("registers").is_null()) {
        f.resources.registers = v.at("registers").get<int>();
        f.resources.spill_stores = v.at("spill_stores").get<std::int64_t>();
        f.resources.spill_loads = v.at("spill_loads").get<std::int64_t>();
        f.resources.stack_frame = v.at("stack_frame").get<std::int64_t>();
        f.resources.shared_static = v.at("shared_static").get<std::int64_t>();
    }
    if (const json& p = v.value("ptx_facts", json()); !p.is_null()) {
        f.memory_ops = {p.at("scalar_loads").get<std::size_t>(), p.at("vector_loads").get<std::size_t>(),
                        p.at("scalar_stores").get<std::size_t>(), p.at("vector_stores").get<std::size_t>()};
        f.arithmetic_share = p.at("arithmetic_share").get<double>();
        if (const json& w = p.value("warp_work", json()); !w.is_null())
            f.warp_work = warp_work_of_json(w);
    }
    const json& o = v.at("occupancy");
    if (o.is_null() || v.at("status") == "pruned")
        return f;
    f.predicted = true;
    f.occupancy.blocks_per_sm = o.at("blocks_per_sm").get<int>();
    f.occupancy.active_warps = o.at("active_warps").get<int>();
    f.occupancy.max_warps = o.at("max_warps").get<int>();
    f.occupancy.fraction = o.at("fraction").get<double>();
    f.occupancy.limiter = limiter_from(o.at("limiter").get<std::string>());
    const json& m = v.at("measurement");
    if (v.at("status") == "ok" && !m.is_null() && m.value("verified", false))
        f.measured = MeasuredTime{m.at("time_seconds").at("median").get<double>(),
                                  m.at("time_seconds").at("relative_spread").get<double>(), m.at("sm_clock_mhz").get<double>()};
    return f;
}

SpaceSelection selection_of(const json& view)
{
    return view.at("space").value("selection", "default") == "full" ? SpaceSelection::full : SpaceSelection::default_space;
}

// The parts' records of one problem merged.
json merge_problem(const std::vector<json>& parts, const std::vector<std::string>& paths)
{
    std::vector<ShardPart> shard_parts;
    for (std::size_t i = 0; i < parts.size(); ++i)
        shard_parts.push_back({&parts[i], paths[i]});
    check_same_sharded_run(shard_parts);
    // The space as the spec has it now: what the shards together must hold.
    const ResultsContext context = results_context(parts[0], paths[0]);
    std::vector<std::size_t> space;
    for (const auto& v : enumerate_space(context.spec, context.problem, selection_of(parts[0])).variants)
        space.push_back(v.index);
    check_shards_complete(shard_parts, space);

    json merged = parts[0];
    merged["shard"] = nullptr; // as an unsharded run writes it
    // Each variant with the part it came from, so that what is wrong with it names that file.
    std::vector<std::pair<json, const std::string*>> records;
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (const auto& v : parts[i].at("variants"))
            records.emplace_back(v, &paths[i]);
    std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
        return a.first.at("index").template get<std::size_t>() < b.first.at("index").template get<std::size_t>();
    });
    for (std::size_t i = 1; i < records.size(); ++i)
        if (records[i].first.at("index") == records[i - 1].first.at("index"))
            throw std::invalid_argument(fmt::format("variant {} is in two parts: {} and {}",
                                                    records[i].first.at("index").get<std::size_t>(), *records[i - 1].second,
                                                    *records[i].second));
    json variants = json::array();
    for (const auto& [v, path] : records)
        variants.push_back(v);

    // Duplicates across the whole space: the first member of a group is the one measured,
    // as in an unsharded run, and the others carry its outcome.
    std::map<std::string, std::size_t> first_of_key;
    std::size_t duplicates = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        json& v = variants[i];
        if (v.at("sass_sha256").is_null() || v.at("status") == "pruned")
            continue;
        const std::string key = run_identity(context.spec, context.problem, variant_of_record(context, v, *records[i].second),
                                             v.at("sass_sha256").get<std::string>(), v.at("registers").get<int>(),
                                             v.at("shared_static").get<std::int64_t>());
        const auto [it, first] = first_of_key.emplace(key, i);
        v["duplicate_of"] = nullptr;
        if (first)
            continue;
        const json& measured = variants[it->second];
        v["duplicate_of"] = measured.at("index");
        v["status"] = measured.at("status");
        v["error"] = measured.at("error");
        v["measurement"] = measured.at("measurement");
        ++duplicates;
    }

    // Counts of the whole space. Every part enumerated the whole space before taking its
    // share, so each holds the same removals; the valid variants are split among them.
    std::size_t valid = 0;
    json search = nullptr;
    for (const auto& part : parts) {
        valid += part.at("space").at("valid").get<std::size_t>();
        if (const json& s = part.value("search", json()); !s.is_null()) {
            if (search.is_null())
                search = s;
            else
                for (const char* field : {"candidates", "evaluations", "resumed"})
                    search[field] = search[field].get<std::size_t>() + s.at(field).get<std::size_t>();
        }
    }
    merged["space"]["valid"] = valid;
    merged["search"] = search;
    for (auto& rule : merged["pruning"]) {
        std::size_t total = 0;
        for (const auto& part : parts)
            for (const auto& r : part.at("pruning"))
                if (r.at("rule") == rule.at("rule"))
                    total += r.at("removed").get<std::size_t>();
        rule["removed"] = rule.at("rule").get<std::string>().rfind("same machine code", 0) == 0 ? duplicates : total;
    }

    // The ranking over all variants, by the same code a run uses.
    std::vector<RankFacts> facts;
    std::vector<std::pair<std::size_t, json>> identities;
    for (const auto& v : variants) {
        facts.push_back(facts_of_record(v));
        identities.emplace_back(v.at("index").get<std::size_t>(), v.at("params"));
    }
    const json& problem = parts[0].at("problems").at(0);
    std::optional<Ceilings> ceilings;
    if (const json& c = problem.value("ceilings", json()); !c.is_null())
        ceilings = Ceilings{c.at("compute_gflops").get<double>(), c.at("bandwidth_gbs").get<double>(),
                            c.at("clock_mhz").get<double>(), c.at("source").get<std::string>(),
                            ranked_l2_bytes(parts[0], c)};
    const int sms = problem.value("sms", 0);
    const ProblemRanking ranking = rank_facts(facts, problem.at("flops").get<double>(), problem.at("bytes").get<double>(),
                                              ceilings, sms, compute_capability_of(parts[0].at("arch")));
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const json fields = ranked_variant_json(&ranking.variants[i]); // named: items() of a temporary dangles
        for (const auto& [key, value] : fields.items())
            variants[i][key] = value;
    }
    merged["variants"] = variants;
    json ranked = ranked_problem_json(problem.at("variables"), ranking, identities, sms);
    // Each part rebuilt its own best variants with nvcc: all of those, fastest first, and
    // the fastest of the parts' winners as nvcc builds them.
    json builds = json::array();
    json shipped = nullptr;
    for (const auto& part : parts) {
        const json& p = part.at("problems").at(0);
        for (const auto& b : p.value("nvcc_builds", json::array()))
            builds.push_back(b);
        const json& w = p.value("winner_as_built_by_nvcc", json());
        if (w.is_object() && (shipped.is_null() || w.at("median_seconds") < shipped.at("median_seconds")))
            shipped = w;
    }
    std::stable_sort(builds.begin(), builds.end(), [](const json& a, const json& b) {
        return !a.at("median_seconds").is_null() &&
               (b.at("median_seconds").is_null() || a.at("median_seconds") < b.at("median_seconds"));
    });
    ranked["nvcc_builds"] = builds;
    ranked["winner_as_built_by_nvcc"] = shipped;
    merged["problems"] = json::array({ranked});
    merged["measured"] = ranking.measured;
    return merged;
}

} // namespace

json merge_results(const std::vector<json>& parts, const std::vector<std::string>& paths)
{
    if (parts.empty())
        throw std::invalid_argument("autotune merge needs the parts of a sharded run");
    // A run over several problems shards each one the same way: merge problem by problem.
    std::vector<std::vector<json>> views;
    for (const auto& part : parts)
        views.push_back(problem_views(part));
    for (std::size_t i = 1; i < parts.size(); ++i)
        if (views[i].size() != views[0].size())
            throw std::invalid_argument(fmt::format("{}: {} problems, but {} in {}: the parts are not of one sharded run",
                                                    paths[i], views[i].size(), views[0].size(), paths[0]));
    std::vector<json> merged;
    for (std::size_t k = 0; k < views[0].size(); ++k) {
        std::vector<json> problem_parts;
        for (auto& part_views : views)
            problem_parts.push_back(std::move(part_views[k]));
        merged.push_back(merge_problem(problem_parts, paths));
    }
    return combine_problem_views(merged);
}

} // namespace autotune
