// DeviceSpec: a named GPU's datasheet ceilings, the roofline's defaults when no
// ceilings have been measured. One table (device_table.cpp), each entry with its source.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

struct DeviceSpec {
    std::string key;                 // command-line name: "h200-sxm"
    std::string name;                // "NVIDIA H200 SXM 141GB"
    int compute_capability = 0;      // 90
    int sms = 0;
    int boost_clock_mhz = 0;
    double memory_bandwidth_gbs = 0; // GB/s (10^9 bytes per second), peak
    std::int64_t l2_bytes = 0;
    double fp32_tflops = 0;                          // SIMT FMA, peak at boost clock
    std::optional<double> fp16_tensor_tflops;        // dense (no sparsity), FP32 accumulate where it differs
    std::optional<double> bf16_tensor_tflops;        // dense
    std::optional<double> int8_tensor_tops;          // dense
    bool default_for_arch = false;   // the device used for its arch when none is named
    std::vector<std::string> reported_names; // what drivers call it where that is not `name` nor begins it
    std::string source;              // datasheet or whitepaper, with the table it comes from
};

[[nodiscard]] const std::vector<DeviceSpec>& device_table();

// What a GPU's SM clock can be, MHz: above 0 and at most this. --clock, the clocks a measured
// file records and a clock parameter's values are refused outside it.
constexpr double highest_sm_clock_mhz = 10'000;
[[nodiscard]] constexpr bool is_sm_clock(double mhz) { return mhz > 0 && mhz <= highest_sm_clock_mhz; }

// The default device of an architecture; nullptr when the table has none for it.
[[nodiscard]] const DeviceSpec* default_device_for(int compute_capability);

// By key ("h200-sxm"); throws ArchError naming it and listing the known keys.
[[nodiscard]] const DeviceSpec& find_device_spec(const std::string& key);

// The device whose name is `reported` as a driver or a tool reports it ("NVIDIA
// A100-PCIE-40GB" for "NVIDIA A100 PCIe 40GB": case, spaces and punctuation aside), or
// one of a device's reported_names ("NVIDIA H100 80GB HBM3"), or else the one device whose
// name it begins where the rest of that name starts with a form factor or a memory ("NVIDIA
// H200" for "NVIDIA H200 SXM 141GB"; "RTX 2080" is not the "RTX 2080 Ti", another GPU);
// nullptr when there is none or more than one.
[[nodiscard]] const DeviceSpec* find_device_by_name(std::string_view reported);
// find_device_by_name's device where it is of this architecture (compute capability as
// 86): the device a prediction for that arch may stand for; nullptr otherwise.
[[nodiscard]] const DeviceSpec* find_device_of_arch(std::string_view reported, int compute_capability);

} // namespace autotune
