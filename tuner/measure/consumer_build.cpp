#include "measure/consumer_build.hpp"

#include <algorithm>

namespace autotune {
namespace {

std::optional<double> verified_median(const std::optional<VariantMeasurement>& m)
{
    if (!m || m->status != "ok" || !m->measurement || !m->measurement->verified)
        return std::nullopt;
    return m->measurement->time.median;
}

std::optional<double> median_noise(const std::optional<VariantMeasurement>& m)
{
    if (!verified_median(m))
        return std::nullopt;
    return m->measurement->time.median_noise;
}

} // namespace

ConsumerBuildOutcome measure_consumer_builds(const std::vector<Variant>& variants,
                                             const std::vector<CompiledVariant>& compiled,
                                             const std::vector<PredictionOutcome>& predictions,
                                             const std::vector<std::optional<VariantMeasurement>>& measurements,
                                             std::size_t top, const ConsumerRebuild& rebuild, VariantMeasurer& measurer)
{
    // The fastest verified variants, each machine code once (duplicates carry the same
    // measurement: rebuilding them would only repeat their group's answer).
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < measurements.size(); ++i)
        if (verified_median(measurements[i]))
            timed.push_back(i);
    std::stable_sort(timed.begin(), timed.end(), [&](std::size_t a, std::size_t b) {
        return *verified_median(measurements[a]) < *verified_median(measurements[b]);
    });
    std::vector<std::size_t> best;
    std::vector<std::string> seen;
    for (const std::size_t i : timed) {
        if (best.size() >= top)
            break;
        if (std::find(seen.begin(), seen.end(), compiled[i].sass_sha256) != seen.end())
            continue;
        seen.push_back(compiled[i].sass_sha256);
        best.push_back(i);
    }
    ConsumerBuildOutcome out;
    if (best.empty())
        return out;
    std::vector<Variant> asked;
    for (const std::size_t i : best)
        asked.push_back(variants[i]);
    const std::vector<CompiledVariant> rebuilt = rebuild(asked);
    for (std::size_t k = 0; k < best.size(); ++k) {
        const std::size_t i = best[k];
        ConsumerBuild build;
        build.variant = i;
        if (rebuilt[k].status != CompileStatus::ok) {
            build.error = "nvcc fails: " + rebuilt[k].error;
        } else {
            build.sass_sha256 = rebuilt[k].sass_sha256;
            build.same_machine_code = rebuilt[k].sass_sha256 == compiled[i].sass_sha256;
            if (build.same_machine_code) {
                build.median = verified_median(measurements[i]);
                build.noise = median_noise(measurements[i]);
            } else {
                build.measurement = measurer.measure(variants[i], rebuilt[k], predictions[i].prediction);
                build.median = verified_median(build.measurement);
                build.noise = median_noise(build.measurement);
                if (!build.median)
                    build.error = "nvcc's build " + build.measurement->status +
                                  (build.measurement->error.empty() ? "" : ": " + build.measurement->error);
            }
        }
        out.builds.push_back(std::move(build));
    }
    // Fastest first as nvcc builds them; a build without a time last, in NVRTC's order.
    std::stable_sort(out.builds.begin(), out.builds.end(), [](const ConsumerBuild& a, const ConsumerBuild& b) {
        return a.median.has_value() && (!b.median || *a.median < *b.median);
    });
    if (!out.builds.empty() && out.builds.front().median)
        out.winner = out.builds.front().variant;
    return out;
}

} // namespace autotune
