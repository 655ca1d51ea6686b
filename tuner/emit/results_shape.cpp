#include "emit/results_shape.hpp"

#include "emit/kt_cache_import.hpp"
#include "emit/results_json.hpp"
#include "emit/t4_format.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;
using K = JsonKind;

constexpr K maybe(K kind) { return kind | K::null; }

// Where a tuning run's document and an imported one differ: an import records no
// compile, prediction or ranking, and keeps Kernel Tuner's own parameter values.
struct Origin {
    bool run = true;
    [[nodiscard]] K params() const { return run ? K::integer : K::integer | K::number | K::string | K::boolean; }
    [[nodiscard]] K variables() const { return run ? K::integer : K::integer | K::number | K::string | K::array | K::null; }
};

void check_schema_version(const JsonPlace& document)
{
    // A file without schema_version predates it (version 1), which this build still reads.
    const auto version = document.find("schema_version", K::integer);
    if (!version)
        return;
    const auto v = version->value().get<std::int64_t>();
    if (v < 1)
        version->fail(fmt::format("{} is not a version number", v));
    if (v > results_schema_version)
        version->fail(fmt::format("results schema version {}; this autotune reads schema versions up to {} (a newer "
                                  "autotune wrote it)",
                                  v, results_schema_version));
}

// [{"rule": ..., "removed": N}]: space.removed and pruning.
void check_rule_counts(const JsonPlace& list)
{
    for (const auto& rule : list.elements(K::object)) {
        rule.at("rule", K::string);
        rule.at("removed", K::count);
    }
}

void check_strings(const std::optional<JsonPlace>& list)
{
    if (list)
        list->elements(K::string);
}

void check_measurement(const JsonPlace& m, bool ok)
{
    for (const char* field : {"verified", "converged"})
        m.find(field, K::boolean);
    for (const char* field : {"verified_elements", "throttled_discarded"})
        m.find(field, K::count);
    m.find("verification_error", maybe(K::number));
    m.find("driver", maybe(K::object));
    m.find("disagreements", K::array);
    if (const auto samples = m.find("samples_seconds", K::array))
        samples->elements(K::number);
    const auto clock = m.find("sm_clock_mhz", maybe(K::number));
    const auto objective = m.find("objective_seconds", K::number);
    const auto time = m.find("time_seconds", K::object);
    if (time) {
        time->find("count", K::count);
        for (const char* field : {"min", "max", "mean", "relative_spread", "median_noise"})
            time->find(field, maybe(K::number));
    }
    const bool verified = m.value().value("verified", false);
    if (!ok && !verified)
        return;
    // A time that counts: what an ok variant or a verified measurement ranks by. No kernel
    // takes no time, so 0 is an edit or a broken record, not a fast variant.
    const auto positive_seconds = [](const JsonPlace& seconds) {
        if (const double s = seconds.value().get<double>(); !(s > 0) || !std::isfinite(s))
            seconds.fail(fmt::format("{} is not a measured time (expected seconds > 0)", seconds.value().dump()));
    };
    const JsonPlace seconds = time ? *time : m.at("time_seconds", K::object); // missing: fails naming it
    positive_seconds(seconds.at("median", K::number));
    if (objective)
        positive_seconds(*objective);
    if (verified) {
        seconds.at("relative_spread", K::number);
        if (!clock || clock->is_null())
            m.at("sm_clock_mhz", K::number);
    }
}

// The fields ptxas' outcome fills: all of them, or none (a compile error).
void check_resources(const JsonPlace& v)
{
    const auto registers = v.at("registers", maybe(K::integer));
    for (const char* field : {"spill_stores", "spill_loads", "stack_frame", "shared_static"}) {
        const auto value = v.at(field, maybe(K::integer));
        if (!registers.is_null() && value.is_null())
            value.fail("expected an integer (the variant compiled: it has registers), got null");
    }
    for (const char* field : {"constant_bytes", "register_cap", "cap_raised_from"})
        v.find(field, maybe(K::integer));
    if (const auto barriers = v.find("barriers", maybe(K::integer)); barriers && barriers->is_null() && !registers.is_null())
        barriers->fail("expected an integer (the variant compiled: it has registers), got null");
    v.find("register_cap_source", maybe(K::string));
    for (const char* field : {"maxrregcount_overridden", "min_blocks_ignored"})
        v.find(field, maybe(K::boolean));
    v.find("cubin_sha256", maybe(K::string));
    if (!v.at("sass_sha256", maybe(K::string)).is_null() && registers.is_null())
        registers.fail("expected an integer (the variant has machine code: a sass_sha256), got null");
}

void check_three_sizes(const JsonPlace& sizes)
{
    if (sizes.elements(K::count).size() != 3)
        sizes.fail(fmt::format("expected 3 sizes (x, y, z), got {}", sizes.value().size()));
}

void check_warp_counts(const JsonPlace& work)
{
    for (const char* field : {"issue", "fp32", "fp64", "fp16", "integer", "sfu", "tensor", "shared_wavefronts",
                              "constant_loads", "global_wavefronts", "local_wavefronts", "global_load_bytes",
                              "global_store_bytes", "barriers", "latency_cycles"})
        work.at(field, K::number);
    // Optional: written since the LD/ST-clock term and the local-memory hits; older files lack them.
    for (const char* field : {"static_issue", "shared_instructions", "lsu_instructions", "local_loads"})
        work.find(field, K::number);
}

void check_prediction(const JsonPlace& v)
{
    if (const auto facts = v.find("ptx_facts", maybe(K::object)); facts && !facts->is_null()) {
        for (const char* field : {"scalar_loads", "vector_loads", "scalar_stores", "vector_stores"})
            facts->at(field, K::count);
        facts->at("arithmetic_share", K::number);
        if (const auto work = facts->find("warp_work", maybe(K::object)); work && !work->is_null()) {
            check_warp_counts(*work);
            work->at("unknown_trip_counts", K::integer);
            // Optional: written since the time model splits a block's run at its barriers.
            if (const auto phases = work->find("phases", K::array))
                for (const JsonPlace& phase : phases->elements(K::object))
                    check_warp_counts(phase);
        }
    }
    if (const auto o = v.at("occupancy", maybe(K::object)); !o.is_null()) {
        for (const char* field : {"blocks_per_sm", "active_warps", "max_warps"})
            o.at(field, K::integer);
        o.at("fraction", K::number);
        o.at("limiter", K::string);
        check_strings(o.find("limiters", K::array));
        if (const auto by = o.find("blocks_by", K::object))
            by->members(maybe(K::integer));
        for (const char* field : {"registers_to_lose_a_block", "registers_to_gain_a_block"})
            o.find(field, maybe(K::integer));
    }
    v.find("launch_bound_cap", maybe(K::object));
    check_strings(v.find("flags", K::array));
    v.find("prediction_error", maybe(K::string));
    for (const char* field : {"gflops", "gbps", "roofline_fraction", "predicted_fraction"})
        v.at(field, maybe(K::number));
    if (const auto t = v.find("predicted_time", maybe(K::object)); t && !t->is_null()) {
        t->at("seconds", K::number);
        t->at("bound", K::string);
        t->at("waves", K::number);
        t->at("terms", K::object).members(K::number);
        check_strings(t->find("phase_bounds", K::array)); // where the run has phases
    }
    if (const auto factors = v.find("model_factors", K::object))
        factors->members(K::number);
    v.at("diagnosis", K::array).elements(K::string);
    v.find("predicted_rank", maybe(K::count));
    // A ranked variant was compiled and predicted: what the report prints of it is there.
    if (const auto rank = v.find("rank", maybe(K::count)); rank && !rank->is_null()) {
        if (v.value().at("registers").is_null())
            v.at("registers", K::integer);
        v.at("predicted_fraction", K::number);
    }
}

// One variant record; `ranked_by_time`: its problem was measured, so a ranked variant
// carries the measured time it was ranked by.
void check_variant(const JsonPlace& v, const Origin& origin, bool ranked_by_time)
{
    v.at("params", K::object).members(origin.params());
    const auto status = v.at("status", K::string);
    const auto& statuses = variant_statuses();
    if (std::find(statuses.begin(), statuses.end(), status.value().get<std::string>()) == statuses.end())
        status.fail(fmt::format("'{}' is not a status autotune writes ({})", status.value().get<std::string>(),
                                fmt::join(statuses, ", ")));
    v.find("error", maybe(K::string));
    const bool ok = status.value() == "ok";
    const auto measurement = v.at("measurement", maybe(K::object));
    if (!measurement.is_null())
        check_measurement(measurement, ok);
    if (!origin.run)
        return;
    if (const auto derived = v.find("derived", K::object))
        derived->members(K::integer);
    check_three_sizes(v.at("block", K::array));
    check_three_sizes(v.at("grid", K::array));
    v.find("dynamic_shared_bytes", K::count);
    const auto policy = v.at("register_policy", K::object);
    policy.at("kind", K::string);
    for (const char* field : {"max_threads", "min_blocks", "maxnreg", "maxrregcount"})
        policy.at(field, K::integer);
    for (const char* field : {"template", "name_expression", "lowered_name", "compiler"})
        v.find(field, K::string);
    check_strings(v.find("options", K::array));
    check_strings(v.find("warnings", K::array));
    v.find("pruned_because", maybe(K::string));
    v.find("duplicate_of", maybe(K::count));
    check_resources(v);
    check_prediction(v);
    if (ranked_by_time && !v.value().value("rank", json()).is_null() && measurement.is_null())
        measurement.fail("expected a measurement (the variant is ranked in a measured problem), got null");
}

// A problem's variants: each index once.
void check_variants(const JsonPlace& list, const Origin& origin, bool ranked_by_time)
{
    std::map<std::uint64_t, std::string> seen;
    for (const auto& v : list.elements(K::object)) {
        const auto index = v.at("index", K::count);
        const auto [it, first] = seen.emplace(index.value().get<std::uint64_t>(), index.path());
        if (!first)
            index.fail(fmt::format("{} again (also {}): each variant is recorded once", index.value().dump(), it->second));
        check_variant(v, origin, ranked_by_time);
    }
}

// `index` (a winner's) names one of the problem's variants.
void check_names_a_variant(const JsonPlace& index, const JsonPlace& variants)
{
    for (const auto& v : variants.value())
        if (v.at("index") == index.value())
            return;
    index.fail(fmt::format("{} is not the index of any variant in {} ({} variants)", index.value().dump(),
                           variants.path(), variants.value().size()));
}

// A problem's entry in `problems`: its figures, winner and nvcc builds.
void check_problem_entry(const JsonPlace& p, const JsonPlace& variants, const Origin& origin)
{
    p.at("variables", K::object).members(origin.variables());
    p.find("measured", K::boolean);
    if (const auto winner = p.at("winner", maybe(K::object)); !winner.is_null()) {
        check_names_a_variant(winner.at("index", K::count), variants);
        winner.find("params", K::object);
        winner.at("basis", K::string);
        for (const char* field : {"roofline_fraction", "predicted_fraction"})
            winner.find(field, maybe(K::number));
    }
    if (!origin.run)
        return;
    p.at("flops", K::number);
    const double bytes = p.at("bytes", K::number).value().get<double>();
    p.at("intensity", maybe(K::number));
    const auto ridge = p.at("ridge", maybe(K::number));
    const auto bound = p.at("bound", maybe(K::string));
    if (const auto ceilings = p.at("ceilings", maybe(K::object)); !ceilings.is_null()) {
        for (const char* field : {"compute_gflops", "bandwidth_gbs", "clock_mhz"})
            ceilings.at(field, K::number);
        ceilings.at("source", K::string);
        if (const auto l2 = ceilings.find("l2_bytes", K::number); l2 && l2->value().get<double>() < 0)
            l2->fail(fmt::format("{} is not a size in bytes", l2->value().dump()));
        // With ceilings and a cost (bytes) the roofline places the problem: ridge and bound
        // are known. A spec without a cost model (a T1 file) has no place on it.
        for (const auto& known : {ridge, bound})
            if (known.is_null() && bytes > 0)
                known.fail("expected a value (the problem has ceilings and bytes), got null");
    }
    p.find("sms", K::count);
    if (const auto q = p.at("prediction_quality", maybe(K::object)); !q.is_null()) {
        q.at("spearman", maybe(K::number));
        q.at("measured_winner_predicted_rank", maybe(K::count));
        q.at("measured_winner_in_predicted_top10", K::boolean);
    }
    if (const auto builds = p.find("nvcc_builds", K::array))
        for (const auto& b : builds->elements(K::object)) {
            b.at("index", K::count);
            b.at("same_machine_code", K::boolean);
            b.at("sass_sha256", maybe(K::string));
            b.at("median_seconds", maybe(K::number));
            b.find("median_noise", maybe(K::number));
            b.find("measured_again", K::boolean);
            b.at("error", maybe(K::string));
        }
    if (const auto shipped = p.find("winner_as_built_by_nvcc", maybe(K::object)); shipped && !shipped->is_null()) {
        check_names_a_variant(shipped->at("index", K::count), variants);
        shipped->find("params", K::object);
        shipped->at("median_seconds", K::number);
        shipped->find("median_noise", maybe(K::number));
    }
}

// The fields of one tuned problem that sit at the top of the document for the first
// problem and in its `problems` entry for each further one (problem_views.hpp).
void check_problem_record(const JsonPlace& record, const JsonPlace& entry, const Origin& origin, bool shard)
{
    record.at("problem", K::object).members(origin.variables());
    // An import's space counts are Kernel Tuner's, and no reader takes them.
    if (const auto space = origin.run ? record.at("space", K::object) : record.find("space", K::object)) {
        space->at("combinations", K::count);
        space->at("valid", K::count);
        check_rule_counts(space->at("removed", K::array));
        space->find("selection", K::string);
    }
    if (origin.run)
        check_rule_counts(record.at("pruning", K::array));
    if (const auto search = record.find("search", maybe(K::object)); search && !search->is_null()) {
        search->find("strategy", K::string);
        search->find("compiled_lazily", K::boolean);
        for (const char* field : {"candidates", "evaluations", "resumed"})
            search->at(field, K::count);
    }
    record.find("launch_bound_search", K::array);
    const auto variants = record.at("variants", K::array);
    // Every space has a valid variant (a run stops before writing otherwise); only a
    // shard's part of a space smaller than the shard count may hold none.
    if (variants.value().empty() && !shard)
        variants.fail("no variants; a results file holds at least one");
    const auto measured_entry = entry.find("measured", K::boolean);
    const bool measured = origin.run && measured_entry && measured_entry->value().get<bool>();
    check_variants(variants, origin, measured);
    check_problem_entry(entry, variants, origin);
}

// Fields a reader takes of the device: its name wherever a time was measured on it.
void check_device(const JsonPlace& document, const Origin& origin)
{
    const auto device = document.at("device", maybe(K::object));
    if (!device.is_null()) {
        device.at("name", K::string);
        return;
    }
    if (!origin.run)
        return;
    for (const auto& entry : document.value().at("problems")) {
        const bool measured_winner = entry.value("winner", json()).is_object() && entry.at("winner").value("basis", "") == "measured";
        if (measured_winner || entry.value("winner_as_built_by_nvcc", json()).is_object())
            device.fail("expected an object naming the GPU (a winner was measured), got null");
    }
}

void check_shard(const JsonPlace& document)
{
    const auto shard = document.find("shard", maybe(K::object));
    if (!shard || shard->is_null())
        return;
    const auto index = shard->at("index", K::count);
    const auto count = shard->at("count", K::count);
    if (count.value().get<std::uint64_t>() == 0)
        count.fail("0 shards; a sharded run has at least 1");
    if (index.value().get<std::uint64_t>() >= count.value().get<std::uint64_t>())
        index.fail(fmt::format("shard {} of {}: shards are numbered from 0 to {}", index.value().dump(), count.value().dump(),
                               count.value().get<std::uint64_t>() - 1));
}

} // namespace

ResultsOrigin results_origin(const json& document)
{
    return document.contains("imported_from") ? ResultsOrigin::imported : ResultsOrigin::tuning_run;
}

const std::vector<std::string>& variant_statuses()
{
    // compile_timeout and compile_out_of_memory: the compile pool's verdicts; timeout:
    // Kernel Tuner's (T4's) through an import.
    static const std::vector<std::string> statuses{"ok",    "compile_error", "pruned",          "wrong_result",
                                                   "launch_error", "fault",   "timeout", "compile_timeout",
                                                   "compile_out_of_memory"};
    return statuses;
}

ResultsOrigin check_results_shape(const json& document, const std::string& path)
{
    const JsonPlace root(document, "", path);
    if (!document.is_object())
        root.fail(fmt::format("not an autotune results file (a JSON {}, not an object)", document.type_name()));
    // What import kt-cache reads is told apart first: a T4 document's schema_version is a
    // string, and saying so would not tell the user what the file is.
    if (is_t4(document) || is_kt_cache(document))
        root.fail(fmt::format("a {}, not an autotune results file: `autotune import kt-cache {} -o RESULTS` makes one "
                              "of it",
                              is_t4(document) ? "T4 document" : "Kernel Tuner cache", path));
    check_schema_version(root);
    // Other JSON (a device file) is told apart before its fields are.
    for (const char* field : {"kernel", "spec", "arch", "problem", "variants"})
        if (!document.contains(field))
            root.fail(fmt::format("not an autotune results file (no '{}')", field));
    const Origin origin{results_origin(document) == ResultsOrigin::tuning_run};
    if (!origin.run) {
        root.at("imported_from", K::string);
        root.find("kernel_named_by_file", K::boolean);
    }
    root.find("tool", K::object);
    root.at("kernel", K::string);
    root.at("spec", origin.run ? K::string : maybe(K::string));
    root.at("arch", origin.run ? K::string : maybe(K::string));
    for (const char* field : {"spec_sha256", "nvrtc_version", "compiler"})
        root.find(field, K::string);
    root.at("measured", K::boolean);
    root.find("not_measured", maybe(K::string));
    // Whose datasheet the figures are from: what a plot names when nothing was measured.
    if (origin.run)
        if (const auto device = root.at("roofline_device", maybe(K::object)); !device.is_null())
            device.at("key", K::string);
    check_strings(root.find("exact_problem_variables", K::array));
    check_strings(root.find("compile_options_added", K::array));
    check_shard(root);
    const bool shard = !document.value("shard", json()).is_null();
    const auto problems = root.at("problems", K::array).elements(K::object);
    if (problems.empty())
        root.at("problems", K::array).fail("no problems; a results file holds at least one");
    check_problem_record(root, problems.front(), origin, shard);
    for (std::size_t k = 1; k < problems.size(); ++k)
        check_problem_record(problems[k], problems[k], origin, shard);
    check_device(root, origin);
    return origin.run ? ResultsOrigin::tuning_run : ResultsOrigin::imported;
}

} // namespace autotune
