// T4, the autotuning community's shared output format (AutoTuningAssociation's benchmark
// hub; Kernel Tuner and KTT write it): a "results" list of {configuration, times {runtimes,
// ...}, invalidity, correctness, measurements [{name, value, unit}], objectives}. autotune
// writes a results file's measured variants as T4 (milliseconds), and reads T4 back (as the
// Kernel Tuner cache it carries the same facts as) so the two round-trip; it reads KTT's
// too, whose values are strings, times in metadata.timeunit and objective may be
// "TotalDuration".
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

// The cache entry's field for a profiler's count of warp instructions (not Kernel Tuner's:
// autotune's own, for what a T4 record carries beside its time).
inline constexpr const char* counted_instructions_key = "counted_instructions";
// The same for the DRAM bytes a profiler counted (sectors read and written, 32 bytes each).
inline constexpr const char* counted_dram_bytes_key = "counted_dram_bytes";

// Whether a document is T4: a "results" list and a "schema_version", no tune_params.
[[nodiscard]] bool is_t4(const nlohmann::ordered_json& document);

// A T4 document as the Kernel Tuner cache holding the same facts, named by `kernel`:
// tune_params from the configurations' values (a string that is wholly a number read as
// it), sorted (T4 keeps no value lists, so indices count only recorded values), time = the
// measurement the record's first objective names ("time" when it names none) and times =
// the runtimes, both in milliseconds (from the measurement's unit, else metadata.timeunit,
// else milliseconds), a record whose invalidity is not "correct" a failure whatever its
// value, kept beside its failure string; device_name from metadata.device_name or
// .device; a measured record's smsp__inst_executed.sum (the warp instructions Nsight
// Compute counted, as KTT records them) as the entry's counted_instructions_key, and its
// dram__sectors_read.sum + dram__sectors_write.sum (both there) times 32 as
// counted_dram_bytes_key. Throws std::invalid_argument naming `path` and the record when a record lacks
// what T4 requires or names a time unit that is not one.
[[nodiscard]] nlohmann::ordered_json kt_cache_of_t4(const nlohmann::ordered_json& t4, const std::string& kernel,
                                                    const std::string& path);

} // namespace autotune
