// The measurements a model is checked against (autotune check-model): every configuration
// a measured file holds, with its measured time or why it failed. The file is a Kernel
// Tuner cache (gzipped or not; read by the importer's reader, kt_cache_import.hpp) or an
// autotune results file with measurements.
//
// Kernel Tuner: the time is the entry's "time" (its objective, the mean of "times", ms),
// a string "time" (CompilationFailedConfig, RuntimeFailedConfig, InvalidConfig) is a
// failure. Results file: the measured median of an "ok" variant; a compile failure
// (compile_error, compile_timeout, compile_out_of_memory) and launch_error are failures; a variant without either (pruned, not measured, a wrong
// result) is not a measurement and is only counted.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct MeasuredConfiguration {
    nlohmann::ordered_json params;  // name → value, as recorded
    std::optional<double> seconds;  // the measured time; none: it failed
    std::string failure;            // why, as recorded, when it failed
    std::string status;             // when it failed: as a results file says it (compile_error, launch_error, ...)
    // Warp instructions a profiler counted for it, where the file records them (KTT's T4:
    // Nsight Compute's smsp__inst_executed.sum).
    std::optional<double> counted_instructions;
    // DRAM bytes a profiler counted for it (KTT's T4: sectors read and written, 32 bytes each).
    std::optional<double> counted_dram_bytes;
    // The SM clock it ran at, MHz, where the file records one: autotune's sm_clock_mhz,
    // Kernel Tuner's core_freq (its NVML observer's) or else its nvml_gr_clock (the clock
    // the configuration set, a tuning parameter of energy tuning).
    std::optional<double> sm_clock_mhz;
};

struct MeasuredFile {
    std::string format;                     // "Kernel Tuner cache", "autotune results", "T4", "KTT's T4"
    std::vector<std::string> parameters;    // the names every configuration sets
    std::vector<MeasuredConfiguration> configurations; // the file's order (a cache's: by index)
    std::size_t not_measured = 0;           // records with neither a time nor a failure
    std::string device;                     // as the file names it; empty when it does not
    // The median SM clock the file's measurements record (per configuration, above); none
    // where it records none.
    std::optional<double> sm_clock_mhz;
    // Measured by Kernel Tuner: a cache, a T4 document neither autotune nor another named
    // tuner (KTT) measured, a results file imported from a cache. Its binaries were compiled as Kernel Tuner compiles.
    bool kernel_tuner = false;
};

// `problem` ("M=4096,..."): of a results file of several problems, the one read (a cache
// holds one). Throws std::invalid_argument (KtCacheError for a cache) naming the file:
// missing, not JSON, neither format, a record without a parameter, a time that is not a
// time, or a results file of several problems none or more than one of which `problem` names.
[[nodiscard]] MeasuredFile read_measured_file(const std::filesystem::path& path, const std::string& problem = {});

} // namespace autotune
