#include "strategy/prune_variants.hpp"

#include "measure/measure_job.hpp"

#include <fmt/format.h>
#include <map>

namespace autotune {

namespace {

const char* const rule_cannot_launch = "cannot launch on the arch (registers or shared memory over the SM's)";
const char* const rule_min_blocks = "__launch_bounds__ min blocks that can never be resident";
const char* const rule_duplicate = "same machine code, resources and launch as an earlier variant";

} // namespace

std::string run_identity(const KernelSpec& spec, const Problem& problem, const Variant& v, const std::string& sass_sha256,
                         int registers, std::int64_t shared_static)
{
    std::string key = fmt::format("{}|{}|{}|{}|{},{},{}|{},{},{}|", sass_sha256, registers, shared_static,
                                  v.dynamic_shared_bytes, v.block.x, v.block.y, v.block.z, v.grid.x, v.grid.y, v.grid.z);
    for (const auto& a : resolve_arguments(spec, problem, v))
        key += fmt::format("{}:{}:{};", a.name, a.count, a.value);
    return key;
}

PruneReport prune_variants(const KernelSpec& spec, const Problem& problem, const std::vector<Variant>& variants,
                           const std::vector<CompiledVariant>& compiled, const std::vector<PredictionOutcome>& predictions)
{
    PruneReport report;
    report.decisions.resize(variants.size());
    report.removals = {{rule_cannot_launch, 0}, {rule_min_blocks, 0}, {rule_duplicate, 0}};
    std::map<std::string, std::size_t> first_of_key;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        PruneDecision& d = report.decisions[i];
        if (compiled[i].status != CompileStatus::ok)
            continue; // it failed already; nothing to prune
        if (!predictions[i].prediction) {
            d.pruned = true;
            d.reason = predictions[i].error;
            ++report.removals[0].removed;
            continue;
        }
        const auto& bound = predictions[i].prediction->launch_bound;
        if (bound && !bound->min_blocks_resident) {
            d.pruned = true;
            d.reason = fmt::format("__launch_bounds__({}, {}): that many blocks can never be resident",
                                   variants[i].register_policy.max_threads, variants[i].register_policy.min_blocks);
            ++report.removals[1].removed;
            continue;
        }
        const auto [it, first] = first_of_key.emplace(
            run_identity(spec, problem, variants[i], compiled[i].sass_sha256, compiled[i].resources.registers,
                         compiled[i].resources.shared_static),
            i);
        if (!first) {
            d.duplicate_of = it->second;
            ++report.removals[2].removed;
        }
    }
    return report;
}

} // namespace autotune
