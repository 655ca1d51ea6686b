// Importing a Kernel Tuner cache (the JSON file Kernel Tuner writes with cache=..., gzipped
// or not) as an autotune results document: its configurations become measured variants,
// so that replay, report and compare work on spaces measured by Kernel Tuner.
//
// Mapping: a configuration's index is its position in the cartesian order of tune_params
// (tune_params_keys order, the last parameter fastest), so it is stable across caches of
// the same space. A numeric "time" is status "ok" with the "times" samples (ms → s)
// summarized; Kernel Tuner's failure strings map to statuses: CompilationFailedConfig →
// "compile_error", RuntimeFailedConfig → "launch_error", any other string → "launch_error"
// with the string as the error (from T4, whose invalidity is finer: "correctness" →
// "wrong_result", "timeout" → "timeout"); InvalidConfig (a configuration Kernel Tuner rejected
// before compiling: restrictions or block-size limits) is not a variant, like an
// autotune constraint's removal, and is counted under space.removed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

struct DeviceSpec;

// Bad input: a missing or unreadable file, not JSON, not a Kernel Tuner cache. The
// message is one line naming the file.
class KtCacheError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The JSON in a file, inflated first when it is gzipped; a Kernel Tuner cache an interrupted
// run left unclosed (ending in ",") is closed the way Kernel Tuner closes it. Throws
// KtCacheError naming the file when it is missing, unreadable or not JSON.
[[nodiscard]] nlohmann::ordered_json read_json_file(const std::filesystem::path& path);

// Whether a document has a Kernel Tuner cache's fields (tune_params_keys, tune_params, cache).
[[nodiscard]] bool is_kt_cache(const nlohmann::ordered_json& document);

// A file's document as a Kernel Tuner cache: a T4 document (which carries what a cache does;
// the file names its kernel) converted, anything else as it is. Throws KtCacheError naming
// the file for a T4 document that cannot be read so.
[[nodiscard]] nlohmann::ordered_json as_kt_cache(nlohmann::ordered_json document, const std::filesystem::path& file);

// One configuration of a cache: its index (see the mapping above), its parameters
// (tune_params_keys order) and its entry as recorded ("time", "times", ...).
struct KtCacheEntry {
    std::size_t index = 0;
    nlohmann::ordered_json params;
    nlohmann::ordered_json entry;
};

struct KtCache {
    std::vector<std::string> parameters; // tune_params_keys
    std::size_t combinations = 0;        // of tune_params
    std::vector<KtCacheEntry> entries;   // by index; every entry has a "time"
};

// The configurations of a cache document. Throws KtCacheError naming `path` when it is not
// a cache: fields missing, an entry without "time", a value not among tune_params, two
// entries of one configuration.
[[nodiscard]] KtCache kt_cache_entries(const nlohmann::ordered_json& document, const std::string& path);

// A Kernel Tuner failure string as a results file's status (the mapping above). `invalidity`
// is T4's, where the entry came from a T4 record: it tells a wrong result and a timeout
// apart from a launch failure, which Kernel Tuner's strings do not.
[[nodiscard]] std::string status_of_failure(const std::string& failure, const std::string& invalidity);

// Throws KtCacheError.
[[nodiscard]] nlohmann::ordered_json import_kt_cache(const std::filesystem::path& path);
// The same for a document already read from `path` (read_json_file's).
[[nodiscard]] nlohmann::ordered_json import_kt_cache(nlohmann::ordered_json document, const std::filesystem::path& path);

// An import's GPU named by the user (import kt-cache --device): Kernel Tuner's T4 documents
// name none, and an import without one has no arch, which compare matches by. Sets
// `results`' device and arch to `device`'s where the file named none; where it named one,
// keeps it if it is `device` and throws KtCacheError naming both if it is not.
void name_imported_device(nlohmann::ordered_json& results, const DeviceSpec& device, const std::string& path);

// The architecture (sm_XX) of this device: a device of the table's (find_device_by_name),
// else the arch whose example GPUs name it, e.g. "NVIDIA A10" → sm_86; nullopt when none
// or more than one does.
[[nodiscard]] std::optional<std::string> arch_of_device_name(const std::string& device_name);

} // namespace autotune
