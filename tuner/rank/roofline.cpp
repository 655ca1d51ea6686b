#include "rank/roofline.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

std::optional<Ceilings> datasheet_ceilings(const DeviceSpec& device, Precision precision)
{
    std::optional<double> tflops;
    switch (precision) {
    case Precision::fp32: tflops = device.fp32_tflops; break;
    case Precision::fp16_tensor: tflops = device.fp16_tensor_tflops; break;
    case Precision::bf16_tensor: tflops = device.bf16_tensor_tflops; break;
    case Precision::int8_tensor: tflops = device.int8_tensor_tops; break;
    }
    if (!tflops || *tflops <= 0)
        return std::nullopt;
    return Ceilings{*tflops * 1e3, device.memory_bandwidth_gbs, static_cast<double>(device.boost_clock_mhz),
                    "datasheet: " + device.key, static_cast<double>(device.l2_bytes)};
}

Ceilings at_clock(const Ceilings& ceilings, double run_clock_mhz)
{
    if (run_clock_mhz <= 0 || ceilings.clock_mhz <= 0)
        return ceilings;
    Ceilings scaled = ceilings;
    scaled.compute_gflops = ceilings.compute_gflops * run_clock_mhz / ceilings.clock_mhz;
    scaled.clock_mhz = run_clock_mhz;
    return scaled;
}

ProblemRoofline roofline_for(double flops, double bytes, const Ceilings& ceilings)
{
    if (flops < 0 || bytes <= 0)
        throw std::invalid_argument(fmt::format("a problem needs flops ≥ 0 and bytes > 0 (got {} and {})", flops, bytes));
    if (ceilings.compute_gflops <= 0 || ceilings.bandwidth_gbs <= 0)
        throw std::invalid_argument(fmt::format("ceilings must be positive ({} GFLOP/s, {} GB/s from {})",
                                                ceilings.compute_gflops, ceilings.bandwidth_gbs, ceilings.source));
    ProblemRoofline r;
    r.flops = flops;
    r.bytes = bytes;
    r.intensity = flops / bytes;
    r.ridge = ceilings.compute_gflops / ceilings.bandwidth_gbs;
    r.compute_bound = r.intensity >= r.ridge;
    r.attainable_gflops = std::min(ceilings.compute_gflops, ceilings.bandwidth_gbs * r.intensity);
    r.time_bound_seconds = std::max(flops / (ceilings.compute_gflops * 1e9), bytes / (ceilings.bandwidth_gbs * 1e9));
    return r;
}

double roofline_fraction(const ProblemRoofline& problem, double seconds)
{
    return seconds > 0 ? problem.time_bound_seconds / seconds : 0.0;
}

double critical_batch_size(double peak_flops, double bandwidth_bytes_per_second, int bits_per_parameter,
                           int bits_per_activation)
{
    return static_cast<double>(bits_per_parameter) / bits_per_activation * peak_flops / bandwidth_bytes_per_second;
}

} // namespace autotune
