// autotune devices: the GPUs the driver sees. Without a driver or a device it says so in
// one line and lists nothing (exit 0): that is a fact about the machine, not an error.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_only_options.hpp"
#include "measure/gpu_devices.hpp"

#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

using json = nlohmann::ordered_json;

namespace autotune::cli {

int devices_command(const Arguments& args)
{
    const auto parsed = parse_json_only_options(args, "devices");
    if (!parsed)
        return exit_ok;
    const bool as_json = *parsed;

    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    const std::vector<GpuDevice> devices = driver ? list_gpus(*driver) : std::vector<GpuDevice>{};
    if (!driver)
        std::cerr << "autotune: " << why_not << "; no devices\n";
    else if (devices.empty())
        std::cerr << "autotune: the CUDA driver sees no device\n";

    if (as_json) {
        json list = json::array();
        for (const auto& d : devices)
            list.push_back({{"ordinal", d.ordinal},
                            {"name", d.name},
                            {"pci_bus_id", d.pci_bus_id},
                            {"arch", fmt::format("sm_{}", d.compute_capability)},
                            {"sms", d.sms},
                            {"clock_mhz", d.clock_mhz},
                            {"memory_clock_mhz", d.memory_clock_mhz},
                            {"memory_bus_width_bits", d.memory_bus_width_bits},
                            {"memory_bytes", d.memory_bytes},
                            {"l2_bytes", d.l2_bytes},
                            {"peak_bandwidth_gbs", d.peak_bandwidth_gbs()}});
        std::cout << list.dump(2) << "\n";
        return exit_ok;
    }
    for (const auto& d : devices)
        std::cout << fmt::format("{}: {} (sm_{}, {}), {} SMs at {} MHz, {:.1f} GiB at {} MHz × {} bits ({:.0f} GB/s), "
                                 "L2 {:.1f} MiB\n",
                                 d.ordinal, d.name, d.compute_capability, d.pci_bus_id, d.sms, d.clock_mhz,
                                 d.memory_bytes / 1073741824.0, d.memory_clock_mhz, d.memory_bus_width_bits,
                                 d.peak_bandwidth_gbs(), d.l2_bytes / 1048576.0);
    return exit_ok;
}

} // namespace autotune::cli
