#include "emit/measured_file.hpp"

#include "arch/device_spec.hpp"
#include "compile/compiled_variant.hpp"
#include "emit/kt_cache_import.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_shape.hpp"
#include "emit/t4_format.hpp"
#include "measure/sample_statistics.hpp"
#include "strategy/replay.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

// The clock a record states in `field`, MHz; none where it states none (absent, null, or 0,
// which autotune writes when no clock could be read).
// Anything else a GPU's clock cannot be (not a number, not above 0 and at most 10,000 MHz,
// the range --clock takes) is refused, naming the file, the record and the field: a
// prediction at it would be silently wrong.
std::optional<double> stated_clock(const json& record, const char* field, const std::string& path,
                                   const std::string& which)
{
    if (!record.is_object() || !record.contains(field) || record.at(field).is_null() || record.at(field) == 0)
        return std::nullopt;
    const json& value = record.at(field);
    if (value.is_number() && std::isfinite(value.get<double>()) && is_sm_clock(value.get<double>()))
        return value.get<double>();
    throw std::invalid_argument(fmt::format("'{}': {} records a clock of {} MHz in {}; a clock is a number above 0 "
                                            "and at most {:g}",
                                            path, which, value.dump(), field, highest_sm_clock_mhz));
}

MeasuredFile kt_cache_measurements(const json& document, const std::string& path)
{
    const KtCache cache = kt_cache_entries(document, path);
    MeasuredFile out;
    out.format = "Kernel Tuner cache";
    out.parameters = cache.parameters;
    if (document.contains("device_name") && document.at("device_name").is_string())
        out.device = document.at("device_name").get<std::string>();
    for (const auto& [index, params, entry] : cache.entries) {
        MeasuredConfiguration c;
        c.params = params;
        const json& time = entry.at("time");
        if (time.is_string()) {
            c.failure = time.get<std::string>();
            c.status = status_of_failure(c.failure, entry.value("invalidity", ""));
        }
        else if (time.is_number() && std::isfinite(time.get<double>()) && time.get<double>() > 0) // 0: no kernel takes no time
            c.seconds = time.get<double>() / 1000.0;
        else
            throw KtCacheError(fmt::format("'{}': configuration {} has no valid time ({})", path, index, time.dump()));
        if (const json counted = entry.value(counted_instructions_key, json()); counted.is_number() &&
                                                                                counted.get<double>() > 0)
            c.counted_instructions = counted.get<double>();
        if (const json counted = entry.value(counted_dram_bytes_key, json()); counted.is_number() && counted.get<double>() > 0)
            c.counted_dram_bytes = counted.get<double>();
        // Of one that ran: the clock NVML saw while it ran, else the one the configuration set.
        if (c.seconds) {
            const std::string which = fmt::format("configuration {}", index);
            c.sm_clock_mhz = stated_clock(entry, "core_freq", path, which);
            if (!c.sm_clock_mhz)
                c.sm_clock_mhz = stated_clock(params, "nvml_gr_clock", path, which);
        }
        out.configurations.push_back(std::move(c));
    }
    return out;
}

MeasuredFile results_measurements(const json& document, const std::string& path, const std::string& problem)
{
    check_results_shape(document, path); // what is neither a cache nor a results file is refused as the latter
    const json view = chosen_problem_view(document, problem, path);
    MeasuredFile out;
    out.format = "autotune results";
    if (document.contains("device") && document.at("device").is_object() && document.at("device").contains("name"))
        out.device = document.at("device").at("name").get<std::string>();
    for (const json& v : view.at("variants")) {
        if (out.parameters.empty())
            for (const auto& [name, value] : v.at("params").items())
                out.parameters.push_back(name);
        const std::string status = v.value("status", "");
        MeasuredConfiguration c;
        c.params = v.at("params");
        c.seconds = measured_time(v);
        if (!c.seconds && (is_compile_failure(status) || status == "launch_error")) {
            c.failure = v.contains("error") && v.at("error").is_string() ? v.at("error").get<std::string>() : status;
            c.status = status;
        }
        if (!c.seconds && c.failure.empty()) {
            ++out.not_measured;
            continue;
        }
        if (c.seconds)
            c.sm_clock_mhz = stated_clock(v.at("measurement"), "sm_clock_mhz", path,
                                          fmt::format("variant {}", v.value("index", json()).dump()));
        out.configurations.push_back(std::move(c));
    }
    return out;
}

} // namespace

MeasuredFile read_measured_file(const std::filesystem::path& file, const std::string& problem)
{
    const std::string path = file.string();
    json document = read_json_file(file);
    const bool t4 = is_t4(document);
    const json::json_pointer measured_by("/metadata/measured_by"), imported_from("/imported_from"),
        autotuner("/metadata/autotuner");
    // Who measured decides how the file's kernels were compiled (Kernel Tuner adds -ftz=true).
    // Kernel Tuner's T4 names no tuner; autotune's says measured_by, KTT's autotuner.
    const std::string tuner = document.contains(autotuner) && document.at(autotuner).is_string()
                                  ? document.at(autotuner).get<std::string>()
                                  : std::string();
    const bool kernel_tuner = t4 ? !(document.contains(measured_by) && document.at(measured_by) == "autotune") &&
                                       (tuner.empty() || tuner == "Kernel Tuner" || tuner == "kernel_tuner")
                                 : is_kt_cache(document) || (document.contains(imported_from) &&
                                                             document.at(imported_from).is_string());
    document = as_kt_cache(std::move(document), file); // as import reads it
    MeasuredFile out = is_kt_cache(document) ? kt_cache_measurements(document, path) : results_measurements(document, path, problem);
    out.kernel_tuner = kernel_tuner;
    std::vector<double> clocks; // of the configurations that ran
    for (const auto& c : out.configurations)
        if (c.seconds && c.sm_clock_mhz)
            clocks.push_back(*c.sm_clock_mhz);
    if (!clocks.empty()) {
        std::ranges::sort(clocks);
        out.sm_clock_mhz = percentile(clocks, 0.5);
    }
    if (t4)
        out.format = tuner.empty() ? "T4" : tuner + "'s T4";
    for (const auto& c : out.configurations)
        for (const auto& name : out.parameters)
            if (!c.params.contains(name))
                throw std::invalid_argument(fmt::format("'{}': a configuration without {}", path, name));
    return out;
}

} // namespace autotune
