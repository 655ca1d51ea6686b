#include "measure/gpu_devices.hpp"

namespace autotune {

double GpuDevice::peak_bandwidth_gbs() const
{
    return 2.0 * memory_clock_mhz * 1e6 * (memory_bus_width_bits / 8.0) / 1e9;
}

std::vector<GpuDevice> list_gpus(const CudaDriver& driver)
{
    int count = 0;
    AUTOTUNE_CHECK(driver, cuDeviceGetCount(&count), "listing devices");
    std::vector<GpuDevice> devices;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        CUdevice device = 0;
        AUTOTUNE_CHECK(driver, cuDeviceGet(&device, ordinal), "listing devices");
        auto attribute = [&](CUdevice_attribute which) {
            int value = 0;
            AUTOTUNE_CHECK(driver, cuDeviceGetAttribute(&value, which, device), "reading device attributes");
            return value;
        };
        GpuDevice d;
        d.ordinal = ordinal;
        char text[256] = {};
        AUTOTUNE_CHECK(driver, cuDeviceGetName(text, sizeof text, device), "reading the device name");
        d.name = text;
        if (driver.cuDeviceGetPCIBusId(text, sizeof text, device) == CUDA_SUCCESS)
            d.pci_bus_id = text;
        d.compute_capability = 10 * attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
                               attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        d.sms = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        d.clock_mhz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
        d.memory_clock_mhz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000;
        d.memory_bus_width_bits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
        d.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        d.max_shared_per_block_optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        std::size_t bytes = 0;
        AUTOTUNE_CHECK(driver, cuDeviceTotalMem(&bytes, device), "reading the device memory size");
        d.memory_bytes = static_cast<std::int64_t>(bytes);
        devices.push_back(std::move(d));
    }
    return devices;
}

} // namespace autotune
