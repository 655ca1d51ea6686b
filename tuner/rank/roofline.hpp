// The roofline (Williams, Waterman and Patterson): attainable performance is the
// minimum of peak compute and bandwidth × operational intensity. A problem's figures —
// flops, minimum bytes, intensity, the device's ridge point, which roof applies — and
// the ceilings they are measured against.
#pragma once

#include "arch/device_spec.hpp"
#include "spec/precision.hpp"

#include <optional>
#include <string>

namespace autotune {

struct Ceilings {
    double compute_gflops = 0; // the roof for the kernel's precision, at clock_mhz
    double bandwidth_gbs = 0;
    double clock_mhz = 0;      // the SM clock the compute roof holds at
    std::string source;        // "datasheet: h100-sxm" or "measured: results/devices/nvidia-h200.json"
    double l2_bytes = 0;       // the device's L2 (0: unknown)
};

// A device's datasheet ceilings for a precision (its boost clock); nullopt when the
// datasheet has no figure for that precision.
[[nodiscard]] std::optional<Ceilings> datasheet_ceilings(const DeviceSpec& device, Precision precision);

// The compute roof moves with the clock (the seeds: a percentage of a ceiling that
// moves): scaled by run_clock / the ceilings' clock. Bandwidth does not follow the SM clock.
[[nodiscard]] Ceilings at_clock(const Ceilings& ceilings, double run_clock_mhz);

struct ProblemRoofline {
    double flops = 0;
    double bytes = 0;
    double intensity = 0;          // flop/byte (0 for kernels that only move data)
    double ridge = 0;              // flop/byte where the roofs meet
    bool compute_bound = false;    // intensity ≥ ridge
    double attainable_gflops = 0;  // min(compute, bandwidth × intensity)
    double time_bound_seconds = 0; // the least time the ceilings allow: max(flops/compute, bytes/bandwidth)
};

// Throws std::invalid_argument for negative work or non-positive ceilings.
[[nodiscard]] ProblemRoofline roofline_for(double flops, double bytes, const Ceilings& ceilings);

// How close a run of `seconds` comes to the roof: time_bound / seconds (1 = on the roof).
// Equal to achieved / attainable performance, and defined for kernels without flops.
[[nodiscard]] double roofline_fraction(const ProblemRoofline& problem, double seconds);

// The seeds' critical batch size: a matmul whose traffic is dominated by the weights
// turns compute-bound above B = (bits per parameter / bits per activation) × peak flops /
// bandwidth (How to Scale Your Model: 240 on a TPU v5e, about 280 on an H100; int8
// weights with bf16 compute halve it).
[[nodiscard]] double critical_batch_size(double peak_flops, double bandwidth_bytes_per_second,
                                         int bits_per_parameter = 16, int bits_per_activation = 16);

} // namespace autotune
