#include "tune/ranking_ceilings.hpp"

#include "rank/measured_ceilings.hpp"

namespace autotune {

std::optional<Ceilings> ranking_ceilings(Precision precision, const std::filesystem::path& devices_dir,
                                         const GpuDevice* device, const DeviceSpec* roofline_device)
{
    if (device)
        if (const auto measured = read_measured_ceilings(devices_dir, device->name))
            if (auto ceilings = ceilings_for(*measured, precision, devices_dir / (device_slug(device->name) + ".json"))) {
                // The roofline measures compute and bandwidth; the L2 is the driver's to say.
                ceilings->l2_bytes = static_cast<double>(device->l2_bytes);
                return ceilings;
            }
    if (roofline_device)
        return datasheet_ceilings(*roofline_device, precision);
    return std::nullopt;
}

} // namespace autotune
