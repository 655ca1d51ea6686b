// Importing a Kernel Tuner cache (the JSON file Kernel Tuner writes with cache=..., gzipped
// or not) as an autotune results document: its configurations become measured variants,
// so that replay, report and compare work on spaces measured by Kernel Tuner.
//
// Mapping: a configuration's index is its position in the cartesian order of tune_params
// (tune_params_keys order, the last parameter fastest), so it is stable across caches of
// the same space. A numeric "time" is status "ok" with the "times" samples (ms → s)
// summarized; Kernel Tuner's failure strings map to statuses: CompilationFailedConfig →
// "compile_error", RuntimeFailedConfig → "launch_error", any other string → "launch_error"
// with the string as the error; InvalidConfig (a configuration Kernel Tuner rejected
// before compiling: restrictions or block-size limits) is not a variant, like an
// autotune constraint's removal, and is counted under space.removed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace autotune {

// Bad input: a missing or unreadable file, not JSON, not a Kernel Tuner cache. The
// message is one line naming the file.
class KtCacheError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Throws KtCacheError.
[[nodiscard]] nlohmann::ordered_json import_kt_cache(const std::filesystem::path& path);

// The architecture (sm_XX) whose example GPUs name this device, e.g. "NVIDIA GeForce RTX
// 3090" → sm_86; nullopt when none or more than one does.
[[nodiscard]] std::optional<std::string> arch_of_device_name(const std::string& device_name);

} // namespace autotune
