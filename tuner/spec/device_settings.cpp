#include "spec/device_settings.hpp"

#include "arch/device_spec.hpp"
#include "spec/load_spec.hpp"

#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace autotune {
namespace {

struct DeviceSetting {
    std::string_view parameter;
    std::string_view what;        // what it sets on the GPU
    std::string_view predictions; // what the model does with it
};

constexpr std::array<DeviceSetting, 4> device_settings{{
    {"nvml_gr_clock", "graphics clock", ""},
    {"tegra_gr_clock", "graphics clock", ""},
    {"nvml_mem_clock", "memory clock", "predictions take the device's bandwidth at its own memory clock"},
    {"nvml_pwr_limit", "power limit", "predictions are at the device's own power limit: the model has no power term"},
}};

} // namespace

void read_device_settings(KernelSpec& spec)
{
    const std::string file = spec.spec_path.string();
    std::vector<std::string> named;
    std::vector<std::string_view> set;
    for (const TunableParameter& p : spec.parameters) {
        for (const DeviceSetting& s : device_settings) {
            if (p.name != s.parameter)
                continue;
            named.push_back(p.name);
            set.push_back(s.what);
            if (!s.predictions.empty()) {
                spec.notes.push_back(fmt::format("{}: tuning parameter {} is not used ({})", file, p.name, s.predictions));
                continue;
            }
            if (!spec.sm_clock_parameter.empty())
                throw SpecError(fmt::format("{}: tuning parameters {} and {} both set the graphics clock", file,
                                            spec.sm_clock_parameter, p.name));
            for (const std::int64_t mhz : p.values)
                if (!is_sm_clock(static_cast<double>(mhz)))
                    throw SpecError(fmt::format("{}: tuning parameter {} holds {}, which no GPU's clock is (MHz above 0 "
                                                "and at most {:g})",
                                                file, p.name, mhz, highest_sm_clock_mhz));
            spec.sm_clock_parameter = p.name;
        }
    }
    if (named.empty() || !spec.not_measurable.empty())
        return; // the first reason a spec cannot be measured is the one said
    spec.not_measurable = fmt::format(
        "{}: tuning parameter{} {} set{} the GPU's {} before each configuration runs (Kernel Tuner's NVML observer), "
        "which autotune does not do: measured, every configuration would run at the GPU's own (compiling and "
        "predicting work: --compile-only)",
        file, named.size() > 1 ? "s" : "", fmt::join(named, ", "), named.size() > 1 ? "" : "s", fmt::join(set, ", "));
}

} // namespace autotune
