#include "predict/variant_prediction.hpp"

#include <fmt/format.h>

namespace autotune {

VariantPrediction predict_variant(const ArchSpec& arch, const Variant& variant, const ResourceUsage& resources)
{
    VariantPrediction p;
    KernelFootprint footprint;
    footprint.threads_per_block = static_cast<int>(variant.block.volume());
    footprint.registers_per_thread = resources.registers;
    footprint.static_shared_bytes = resources.shared_static;
    footprint.dynamic_shared_bytes = variant.dynamic_shared_bytes;
    footprint.barriers = resources.barriers;
    p.occupancy = predict_occupancy(arch, footprint);

    const RegisterPolicy& policy = variant.register_policy;
    p.launch_bound = launch_bound_register_cap(arch, policy.max_threads, policy.min_blocks);
    if (p.launch_bound) {
        if (!p.launch_bound->min_blocks_resident)
            p.flags.push_back(fmt::format(
                "__launch_bounds__({}, {}): {} blocks of {} threads can never be resident on an {} SM ({} threads, {} "
                "blocks at most); ptxas ignores min blocks",
                policy.max_threads, policy.min_blocks, policy.min_blocks, policy.max_threads, arch.name,
                arch.max_threads_per_sm, arch.max_blocks_per_sm));
        // ptxas applies the launch-bound cap unless a __maxnreg__ is present (the space
        // forbids that) — also over a file-level --maxrregcount.
        if (resources.register_cap_source == "launch_bounds" || resources.register_cap_source == "none") {
            const int ptxas_cap = resources.register_cap;
            const int computed = p.launch_bound->register_cap;
            if (ptxas_cap != computed)
                p.flags.push_back(fmt::format("ptxas capped registers at {}, the launch bounds give {}", ptxas_cap,
                                              computed));
        }
    }
    if ((resources.spill_stores > 0 || resources.spill_loads > 0) && resources.register_cap_source != "none")
        p.flags.push_back(fmt::format("spills {} bytes stored, {} loaded under a register cap of {} ({})",
                                      resources.spill_stores, resources.spill_loads, resources.register_cap,
                                      resources.register_cap_source));
    if (resources.cap_raised_from)
        p.flags.push_back(fmt::format("register cap {} is below the {} minimum; ptxas raised it to {}",
                                      *resources.cap_raised_from, arch.name, resources.register_cap));
    return p;
}

std::vector<PredictionOutcome> predict_variants(const ArchSpec& arch, const std::vector<Variant>& variants,
                                                const std::vector<CompiledVariant>& compiled)
{
    std::vector<PredictionOutcome> outcomes(variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        if (compiled[i].status != CompileStatus::ok)
            continue;
        try {
            outcomes[i].prediction = predict_variant(arch, variants[i], compiled[i].resources);
        } catch (const OccupancyError& e) {
            outcomes[i].error = e.what();
        }
    }
    return outcomes;
}

} // namespace autotune
