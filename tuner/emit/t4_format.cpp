#include "emit/t4_format.hpp"

#include "compile/compiled_variant.hpp"
#include "emit/problem_views.hpp"
#include "strategy/replay.hpp"
#include "util/plain_value_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <stdexcept>

namespace autotune {

using json = nlohmann::ordered_json;

namespace {

// autotune's statuses as T4's invalidity, and back as Kernel Tuner's failure strings.
const char* invalidity_of(const std::string& status)
{
    if (is_compile_failure(status))
        return "compile";
    if (status == "wrong_result")
        return "correctness";
    if (status == "timeout")
        return "timeout";
    return "runtime"; // launch_error, fault
}

const char* kt_failure_of(const std::string& invalidity)
{
    if (invalidity == "compile")
        return "CompilationFailedConfig";
    if (invalidity == "constraints")
        return "InvalidConfig";
    return "RuntimeFailedConfig";
}

// Milliseconds in one of a T4 time unit: the measurement's own unit, else the document's
// metadata.timeunit (KTT writes "" beside each time and "microseconds" there), else
// milliseconds, Kernel Tuner's and autotune's (both spell it "miliseconds").
double milliseconds_per(std::string unit)
{
    std::ranges::transform(unit, unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static const std::map<std::string, double> per_unit{
        {"", 1.0},          {"ms", 1.0},         {"milliseconds", 1.0}, {"miliseconds", 1.0}, {"millisecond", 1.0},
        {"us", 1e-3},       {"microseconds", 1e-3}, {"microsecond", 1e-3}, {"ns", 1e-6},        {"nanoseconds", 1e-6},
        {"nanosecond", 1e-6}, {"s", 1e3},        {"seconds", 1e3},      {"second", 1e3}};
    const auto found = per_unit.find(unit);
    if (found == per_unit.end())
        throw std::invalid_argument("a time unit autotune does not know: \"" + unit +
                                    "\" (nanoseconds, microseconds, milliseconds or seconds)");
    return found->second;
}

// A configuration value as the tuner meant it: KTT writes every value as a string ("16",
// "1.000000"), so a string that is wholly a number is read as that number.
json configuration_value(const json& value)
{
    if (!value.is_string())
        return value;
    const std::string& text = value.get_ref<const std::string&>();
    if (text.empty())
        return value;
    std::int64_t whole = 0;
    if (auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), whole);
        error == std::errc() && end == text.data() + text.size())
        return whole;
    double real = 0;
    if (auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), real);
        error == std::errc() && end == text.data() + text.size() && std::isfinite(real))
        return real;
    return value;
}

std::string string_field(const json& object, const char* name)
{
    return object.is_object() && object.contains(name) && object.at(name).is_string()
               ? object.at(name).get<std::string>()
               : std::string();
}

} // namespace

json t4_document(const json& results, const std::string& path)
{
    json records = json::array();
    for (const json& v : results.at("variants")) {
        const std::string status = v.value("status", "");
        const auto seconds = measured_time(v);
        json record{{"configuration", v.at("params")}};
        if (seconds) {
            json runtimes = json::array();
            if (const json& m = v.at("measurement"); m.contains("samples_seconds"))
                for (const auto& s : m.at("samples_seconds"))
                    runtimes.push_back(s.get<double>() * 1e3);
            record["times"] = {{"runtimes", runtimes}};
            record["invalidity"] = "correct";
            record["correctness"] = 1;
            record["measurements"] = json::array({{{"name", "time"}, {"value", *seconds * 1e3}, {"unit", "miliseconds"}}});
        } else if (status == "ok" || status == "pruned" || status.empty()) {
            continue; // never measured: nothing to record
        } else {
            record["times"] = json::object();
            record["invalidity"] = invalidity_of(status);
            record["correctness"] = 0;
            // Kernel Tuner's names for the failures, which its readers know.
            record["measurements"] = json::array(
                {{{"name", "time"}, {"value", kt_failure_of(invalidity_of(status))}, {"unit", "miliseconds"}}});
        }
        record["objectives"] = json::array({"time"});
        records.push_back(std::move(record));
    }
    const bool measured = std::any_of(records.begin(), records.end(),
                                      [](const json& r) { return r.at("invalidity") == "correct"; });
    if (!measured)
        throw std::invalid_argument(fmt::format("{}: nothing in it was measured (compiled and predicted only); T4 "
                                                "records measurements, not predictions",
                                                path));
    // T4 names no device; Kernel Tuner's caches do, as device_name, and a reader that does
    // not know the field skips it (the results schema does not close metadata).
    json metadata{{"timeunit", "miliseconds"}};
    // Who measured: a reader compiling what was measured needs to know (Kernel Tuner's
    // compiles add options its files do not record). An imported cache stays Kernel Tuner's.
    if (!results.contains("imported_from") || results.at("imported_from").is_null())
        metadata["measured_by"] = "autotune";
    if (const json device = results.value("device", json()); device.is_object() && device.contains("name") &&
                                                             device.at("name").is_string())
        metadata["device_name"] = device.at("name");
    return json{{"schema_version", "1.0.0"}, {"metadata", metadata}, {"results", records}};
}

bool is_t4(const json& document)
{
    return document.is_object() && document.contains("results") && document.at("results").is_array() &&
           document.contains("schema_version") && !document.contains("tune_params");
}

json kt_cache_of_t4(const json& t4, const std::string& kernel, const std::string& path)
{
    auto bad = [&](std::size_t i, const std::string& what) {
        return std::invalid_argument(fmt::format("{}: results[{}] {}", path, i, what));
    };
    std::vector<std::string> keys;
    std::map<std::string, std::vector<json>> values;
    json cache = json::object();
    const json& records = t4.at("results");
    const json metadata = t4.value("metadata", json::object());
    const std::string document_unit = string_field(metadata, "timeunit");
    if (records.empty())
        throw std::invalid_argument(fmt::format("{}: a T4 document without results: no configuration to read", path));
    for (std::size_t i = 0; i < records.size(); ++i) {
        const json& r = records[i];
        if (!r.is_object() || !r.contains("configuration") || !r.at("configuration").is_object())
            throw bad(i, "has no configuration");
        json configuration = r.at("configuration");
        for (auto& [name, value] : configuration.items())
            value = configuration_value(value);
        if (keys.empty())
            for (const auto& [name, value] : configuration.items())
                keys.push_back(name);
        std::string key;
        json entry = configuration;
        for (const auto& name : keys) {
            if (!configuration.contains(name))
                throw bad(i, "has no " + name);
            const json& value = configuration.at(name);
            auto& seen = values[name];
            if (std::find(seen.begin(), seen.end(), value) == seen.end())
                seen.push_back(value);
            if (!key.empty())
                key += ',';
            key += plain_value_text(value);
        }
        // The objective is the measurement the record names first ("time" for Kernel Tuner
        // and KTT 2.2, "TotalDuration" in KTT's converted files). Held by value: r.value()
        // returns a copy, and a pointer into it would outlive it.
        const json objectives = r.value("objectives", json::array());
        const std::string objective =
            objectives.is_array() && !objectives.empty() && objectives.at(0).is_string()
                ? objectives.at(0).get<std::string>()
                : "time";
        const json measurements = r.value("measurements", json::array());
        const auto time = std::find_if(measurements.begin(), measurements.end(), [&](const json& m) {
            return string_field(m, "name") == objective;
        });
        const std::string invalidity = string_field(r, "invalidity"); // anything but a string says nothing
        // KTT records a failed configuration's duration as a number: the invalidity decides,
        // and a failure needs no measurement.
        const bool failed = !invalidity.empty() && invalidity != "correct";
        const bool timed = time != measurements.end() && time->contains("value");
        if (!timed && !failed)
            throw bad(i, "has no \"" + objective + "\" measurement (its objective)");
        const json value = timed ? time->at("value") : json();
        if (value.is_number() && !failed) {
            std::string unit = string_field(*time, "unit");
            if (unit.empty())
                unit = document_unit;
            double scale = 1.0;
            try {
                scale = milliseconds_per(unit);
            } catch (const std::invalid_argument& e) {
                throw bad(i, e.what());
            }
            entry["time"] = value.get<double>() * scale;
            const auto counter = [&](std::string_view name) -> std::optional<double> {
                const auto m = std::find_if(measurements.begin(), measurements.end(), [&](const json& m) {
                    return string_field(m, "name") == name && m.contains("value") && m.at("value").is_number();
                });
                return m == measurements.end() ? std::nullopt : std::optional(m->at("value").get<double>());
            };
            if (const auto counted = counter("smsp__inst_executed.sum"))
                entry[counted_instructions_key] = *counted;
            // A DRAM sector is 32 bytes (Nsight Compute's dram__bytes = dram__sectors x 32).
            if (const auto read = counter("dram__sectors_read.sum"), written = counter("dram__sectors_write.sum");
                read && written)
                entry[counted_dram_bytes_key] = 32 * (*read + *written);
            if (const json times = r.value("times", json::object()); times.contains("runtimes")) {
                json runtimes = json::array();
                for (const json& t : times.at("runtimes"))
                    runtimes.push_back(t.is_number() ? json(t.get<double>() * scale) : t);
                entry["times"] = runtimes;
            }
        } else {
            entry["time"] = value.is_string() ? value : json(kt_failure_of(invalidity));
            entry["invalidity"] = invalidity; // finer than Kernel Tuner's failure strings
        }
        cache[key] = std::move(entry);
    }
    json tune_params = json::object();
    for (const auto& name : keys) {
        auto list = values[name];
        std::sort(list.begin(), list.end());
        tune_params[name] = list;
    }
    json out{{"kernel_name", kernel}, {"problem_size", nullptr}, {"tune_params_keys", keys},
             {"tune_params", tune_params}, {"objective", "time"}, {"cache", cache}};
    // Kernel Tuner's and autotune's T4 name the device device_name, KTT's device.
    if (std::string device = string_field(metadata, "device_name"); !device.empty())
        out["device_name"] = device;
    else if (device = string_field(metadata, "device"); !device.empty())
        out["device_name"] = device;
    return out;
}

} // namespace autotune
