// T4, the autotuning community's shared output format (AutoTuningAssociation's benchmark
// hub; Kernel Tuner writes it): a "results" list of {configuration, times {runtimes, ...},
// invalidity, correctness, measurements [{name: "time", value, unit}], objectives}, times in
// milliseconds. autotune writes a results file's measured variants as T4, and reads T4 back
// (as the Kernel Tuner cache it carries the same facts as) so the two round-trip.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace autotune {

// The measured variants of one problem of a results document as T4. A variant that failed
// is recorded with its invalidity ("compile", "runtime", "correctness", "timeout"); one never
// measured (pruned, a duplicate without a time, a compile-only run) has no T4 record, and a
// document with no measurement at all is refused (std::invalid_argument naming `path`): T4
// records measurements, and a prediction is not one.
[[nodiscard]] nlohmann::ordered_json t4_document(const nlohmann::ordered_json& results, const std::string& path);

// Whether a document is T4: a "results" list and a "schema_version", no tune_params.
[[nodiscard]] bool is_t4(const nlohmann::ordered_json& document);

// A T4 document as the Kernel Tuner cache holding the same facts, named by `kernel`:
// tune_params from the configurations' values, sorted (T4 keeps no value lists, so indices
// count only recorded values), time = the "time" measurement, times = the runtimes, and a
// failed record's invalidity kept beside its failure string. Throws std::invalid_argument
// naming `path` when a record lacks what T4 requires.
[[nodiscard]] nlohmann::ordered_json kt_cache_of_t4(const nlohmann::ordered_json& t4, const std::string& kernel,
                                                    const std::string& path);

} // namespace autotune
