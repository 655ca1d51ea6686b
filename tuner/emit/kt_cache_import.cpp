#include "emit/kt_cache_import.hpp"

#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "emit/results_json.hpp"
#include "emit/t4_format.hpp"
#include "strategy/replay.hpp"
#include "measure/sample_statistics.hpp"
#include "util/gzip_text.hpp"
#include "util/one_line.hpp"
#include "util/plain_value_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

std::string read_cache_text(const std::filesystem::path& path)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw KtCacheError(fmt::format("Kernel Tuner cache '{}' not found", path.string()));
    try {
        return read_maybe_gzipped(path);
    } catch (const GzipError& e) {
        throw KtCacheError(one_line(fmt::format("'{}' {}", path.string(), e.what())));
    } catch (const std::invalid_argument&) {
        throw KtCacheError(fmt::format("cannot read Kernel Tuner cache '{}'", path.string()));
    }
}

json parse_cache(const std::string& text, const std::string& path)
{
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        // Kernel Tuner appends entries as it goes and closes the object at the end: a run
        // that was interrupted leaves the text ending in ",". Close it the way Kernel
        // Tuner itself does when it reads such a cache.
        auto end = text.find_last_not_of(" \t\r\n");
        if (end != std::string::npos && text[end] == ',') {
            try {
                return json::parse(text.substr(0, end) + "}}");
            } catch (const json::exception&) {
            }
        }
        throw KtCacheError(one_line(fmt::format("Kernel Tuner cache '{}' is not valid JSON: {}", path, e.what())));
    }
}

json summary_json(const SampleSummary& s)
{
    return {{"count", s.count},   {"median", s.median}, {"min", s.min},
            {"max", s.max},       {"mean", s.mean},     {"relative_spread", s.relative_spread},
            {"median_noise", s.median_noise}};
}

// A time Kernel Tuner measured: finite and above 0 (no kernel takes no time; a 0 is a
// broken record, and would rank first).
bool valid_ms(const json& value) { return value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0; }

// The samples of a measured configuration in seconds: "times" (ms), else the one "time".
std::optional<std::vector<double>> samples_seconds(const json& entry)
{
    std::vector<double> samples;
    if (const auto it = entry.find("times"); it != entry.end() && it->is_array() && !it->empty()) {
        for (const auto& t : *it) {
            if (!valid_ms(t))
                return std::nullopt;
            samples.push_back(t.get<double>() / 1000.0);
        }
        return samples;
    }
    const json& time = entry.at("time");
    if (!valid_ms(time))
        return std::nullopt;
    return std::vector<double>{time.get<double>() / 1000.0};
}

bool word_at(const std::string& text, std::size_t at, std::size_t length)
{
    const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    return (at == 0 || !alnum(text[at - 1])) && (at + length == text.size() || !alnum(text[at + length]));
}

} // namespace

std::string status_of_failure(const std::string& failure, const std::string& invalidity)
{
    if (failure == "CompilationFailedConfig")
        return "compile_error";
    if (invalidity == "correctness")
        return "wrong_result";
    if (invalidity == "timeout")
        return "timeout";
    return "launch_error"; // RuntimeFailedConfig, and whatever else a newer Kernel Tuner writes
}

void name_imported_device(json& results, const DeviceSpec& device, const std::string& path)
{
    const json& named = results.at("device");
    if (named.is_object() && named.contains("name") && named.at("name").is_string()) {
        const auto name = named.at("name").get<std::string>();
        if (find_device_by_name(name) != &device)
            throw KtCacheError(fmt::format("'{}' names its device '{}'; --device {} is the {}, another", path, name,
                                           device.key, device.name));
        return;
    }
    results["device"] = {{"name", device.name}};
    results["arch"] = fmt::format("sm_{}", device.compute_capability);
}

std::optional<std::string> arch_of_device_name(const std::string& device_name)
{
    // A device of the table (RTX A4000, TITAN RTX) is its arch whatever the examples name.
    if (const DeviceSpec* device = find_device_by_name(device_name))
        return fmt::format("sm_{}", device->compute_capability);
    std::optional<std::string> found;
    for (const ArchSpec& arch : arch_table()) {
        std::stringstream gpus(arch.example_gpus);
        std::string gpu;
        bool named = false;
        while (std::getline(gpus, gpu, ',')) {
            gpu.erase(0, gpu.find_first_not_of(' '));
            gpu.erase(gpu.find_last_not_of(' ') + 1);
            if (gpu.empty())
                continue;
            for (auto at = device_name.find(gpu); at != std::string::npos; at = device_name.find(gpu, at + 1))
                named = named || word_at(device_name, at, gpu.size());
        }
        if (named) {
            if (found && *found != arch.name)
                return std::nullopt; // ambiguous
            found = arch.name;
        }
    }
    return found;
}

json read_json_file(const std::filesystem::path& path)
{
    return parse_cache(read_cache_text(path), path.string());
}

bool is_kt_cache(const json& document)
{
    return document.is_object() && document.contains("tune_params_keys") && document.contains("tune_params") &&
           document.contains("cache");
}

KtCache kt_cache_entries(const json& cache, const std::string& path)
{
    const auto not_a_cache = [&](const std::string& why) {
        return KtCacheError(fmt::format("'{}' is not a Kernel Tuner cache: {}", path, why));
    };
    if (!cache.is_object())
        throw not_a_cache("not a JSON object");
    for (const char* field : {"tune_params_keys", "tune_params", "cache"})
        if (!cache.contains(field))
            throw not_a_cache(fmt::format("no \"{}\"", field));
    const json& keys = cache.at("tune_params_keys");
    const json& tune_params = cache.at("tune_params");
    const json& entries = cache.at("cache");
    if (!keys.is_array() || keys.empty() || !std::all_of(keys.begin(), keys.end(), [](const json& k) { return k.is_string(); }))
        throw not_a_cache("\"tune_params_keys\" is not a list of names");
    if (!tune_params.is_object() || !entries.is_object())
        throw not_a_cache("\"tune_params\" or \"cache\" is not an object");
    KtCache out;
    std::vector<std::string>& names = out.parameters;
    std::size_t combinations = 1;
    for (const auto& k : keys) {
        const auto name = k.get<std::string>();
        if (!tune_params.contains(name) || !tune_params.at(name).is_array() || tune_params.at(name).empty())
            throw not_a_cache(fmt::format("tune_params has no values for \"{}\"", name));
        names.push_back(name);
        if (combinations > (std::size_t{1} << 62) / tune_params.at(name).size())
            throw not_a_cache("the cartesian product of tune_params is too large to index");
        combinations *= tune_params.at(name).size();
    }

    out.combinations = combinations;
    for (const auto& [cache_key, entry] : entries.items()) {
        if (!entry.is_object() || !entry.contains("time"))
            throw not_a_cache(fmt::format("cache entry '{}' has no \"time\"", cache_key));
        // The index and the parameters, from the entry's fields or else its key.
        std::vector<std::string> key_values;
        {
            std::stringstream in(cache_key);
            std::string part;
            while (std::getline(in, part, ','))
                key_values.push_back(part);
        }
        std::size_t index = 0;
        json params = json::object();
        for (std::size_t k = 0; k < names.size(); ++k) {
            const json& values = tune_params.at(names[k]);
            std::size_t position = values.size();
            if (const auto it = entry.find(names[k]); it != entry.end()) {
                position = static_cast<std::size_t>(std::find(values.begin(), values.end(), *it) - values.begin());
            } else if (key_values.size() == names.size()) {
                for (std::size_t v = 0; v < values.size() && position == values.size(); ++v)
                    if (plain_value_text(values[v]) == key_values[k])
                        position = v;
            }
            if (position == values.size())
                throw not_a_cache(fmt::format("cache entry '{}' has a {} that is not among tune_params", cache_key, names[k]));
            index = index * values.size() + position;
            params[names[k]] = values[position];
        }
        out.entries.push_back({index, std::move(params), entry});
    }
    std::sort(out.entries.begin(), out.entries.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
    for (std::size_t i = 1; i < out.entries.size(); ++i)
        if (out.entries[i].index == out.entries[i - 1].index)
            throw not_a_cache(fmt::format("two cache entries hold configuration {}", out.entries[i].index));
    return out;
}

json as_kt_cache(json document, const std::filesystem::path& file)
{
    if (!is_t4(document))
        return document;
    std::string kernel = file.filename().string();
    kernel = kernel.substr(0, kernel.find('.'));
    try {
        return kt_cache_of_t4(document, kernel, file.string());
    } catch (const std::invalid_argument& e) {
        throw KtCacheError(one_line(e.what()));
    }
}

json import_kt_cache(const std::filesystem::path& file) { return import_kt_cache(read_json_file(file), file); }

json import_kt_cache(json document, const std::filesystem::path& file)
{
    const std::string path = file.string();
    // A T4 document names no kernel, and a cache may not: the name is then the file's, which
    // says nothing of the kernel (conv_3090_T4.json and conv_3060_T4.json are one kernel).
    const bool kernel_named_by_file = is_t4(document) || !document.contains("kernel_name");
    const json cache = as_kt_cache(std::move(document), file);
    const KtCache read = kt_cache_entries(cache, path);
    const std::size_t combinations = read.combinations;
    json variants = json::array();
    std::size_t invalid = 0;
    std::optional<std::pair<double, std::size_t>> winner; // objective, position in variants
    std::vector<std::pair<std::size_t, json>> indexed;
    for (const auto& [index, params, entry] : read.entries) {
        const json& time = entry.at("time");
        json v{{"index", index}, {"params", params}, {"status", "ok"}, {"error", nullptr}, {"measurement", nullptr}};
        if (time.is_string()) {
            const auto failure = time.get<std::string>();
            if (failure == "InvalidConfig") {
                ++invalid;
                continue;
            }
            v["status"] = status_of_failure(failure, entry.value("invalidity", ""));
            v["error"] = failure;
        } else if (const auto samples = samples_seconds(entry)) {
            const SampleSummary s = summarize_samples(*samples);
            v["measurement"] = {{"time_seconds", summary_json(s)}, {"samples_seconds", *samples}};
            // Kernel Tuner's objective is its `time` (the mean of `times`): the winner and a
            // replay go by it, so they compare with Kernel Tuner's own results.
            if (valid_ms(time))
                v["measurement"]["objective_seconds"] = time.get<double>() / 1000.0;
        } else {
            throw KtCacheError(fmt::format("'{}' is not a Kernel Tuner cache: configuration {} has no valid time", path,
                                           index));
        }
        indexed.emplace_back(index, std::move(v));
    }
    for (auto& [index, v] : indexed) {
        if (const auto seconds = measured_time(v); seconds && (!winner || *seconds < winner->first))
            winner = std::pair{*seconds, variants.size()};
        variants.push_back(std::move(v));
    }

    const json problem_size = cache.contains("problem_size") ? cache.at("problem_size") : json(nullptr);
    json problem{{"variables", {{"problem_size", problem_size}}}, {"winner", nullptr}};
    if (winner) {
        const json& w = variants[winner->second];
        problem["winner"] = {{"index", w.at("index")}, {"params", w.at("params")}, {"basis", "measured"}};
    }
    const std::string device = cache.contains("device_name") && cache.at("device_name").is_string()
                                   ? cache.at("device_name").get<std::string>()
                                   : std::string();
    std::string kernel = cache.contains("kernel_name") && cache.at("kernel_name").is_string()
                             ? cache.at("kernel_name").get<std::string>()
                             : file.filename().string();
    const auto arch = device.empty() ? std::nullopt : arch_of_device_name(device);
    json removed = json::array();
    if (invalid > 0)
        removed.push_back({{"rule", "Kernel Tuner InvalidConfig (restrictions or block-size limits)"}, {"removed", invalid}});
    if (combinations > indexed.size() + invalid)
        removed.push_back({{"rule", "not in the Kernel Tuner cache"}, {"removed", combinations - indexed.size() - invalid}});
    return json{
        {"schema_version", results_schema_version},
        {"tool", tool_json()},
        {"kernel", kernel},
        {"spec", nullptr},
        {"arch", arch ? json(*arch) : json(nullptr)},
        {"device", device.empty() ? json(nullptr) : json{{"name", device}}},
        {"measured", winner.has_value()},
        {"imported_from", "kt-cache " + path},
        {"kernel_named_by_file", kernel_named_by_file},
        {"objective", cache.contains("objective") ? cache.at("objective") : json(nullptr)},
        {"problem", {{"problem_size", problem_size}}},
        {"space", {{"combinations", combinations}, {"valid", variants.size()}, {"removed", removed}}},
        {"problems", json::array({problem})},
        {"variants", std::move(variants)},
    };
}

} // namespace autotune
