// Ceilings measured on a device by `autotune roofline`, stored as
// <results>/devices/<device>.json; ranking prefers them to the datasheet's.
#pragma once

#include "rank/roofline.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace autotune {

struct MeasuredCeilings {
    std::string device;                    // the driver's name: "NVIDIA H200"
    int compute_capability = 0;
    double clock_mhz = 0;                  // SM clock during the compute measurements
    double bandwidth_gbs = 0;              // device-to-device copy, bytes read + written
    std::map<std::string, double> compute_gflops; // by precision name: "fp32", ...
    std::string measured_at;               // ISO date
};

// "NVIDIA H200" → "nvidia-h200": the file name for a device.
[[nodiscard]] std::string device_slug(const std::string& device_name);

// Reads devices_dir/<slug>.json; nullopt when there is none. Throws std::runtime_error
// naming the file when it exists but cannot be read.
[[nodiscard]] std::optional<MeasuredCeilings> read_measured_ceilings(const std::filesystem::path& devices_dir,
                                                                     const std::string& device_name);

// Writes devices_dir/<slug>.json atomically; returns the path.
std::filesystem::path write_measured_ceilings(const std::filesystem::path& devices_dir, const MeasuredCeilings& ceilings);

// The ceilings for a precision, with the file named as their source; nullopt when the
// precision was not measured.
[[nodiscard]] std::optional<Ceilings> ceilings_for(const MeasuredCeilings& measured, Precision precision,
                                                   const std::filesystem::path& file);

} // namespace autotune
