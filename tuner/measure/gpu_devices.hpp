// The GPUs the driver sees, with what the measure stage and the roofline need to know.
#pragma once

#include "measure/cuda_driver.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace autotune {

struct GpuDevice {
    int ordinal = 0;
    std::string name;             // "NVIDIA H200"
    std::string pci_bus_id;       // "0000:17:00.0"
    int compute_capability = 0;   // 90
    int sms = 0;
    int clock_mhz = 0;            // the SM clock the driver reports (typical/boost)
    int memory_clock_mhz = 0;
    int memory_bus_width_bits = 0;
    std::int64_t memory_bytes = 0;
    std::int64_t l2_bytes = 0;
    std::int64_t max_shared_per_block_optin = 0;

    // Peak DRAM bandwidth from the memory clock and bus (double data rate), GB/s.
    [[nodiscard]] double peak_bandwidth_gbs() const;
};

[[nodiscard]] std::vector<GpuDevice> list_gpus(const CudaDriver& driver);

} // namespace autotune
