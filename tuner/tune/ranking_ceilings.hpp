// The ceilings a run ranks against: measured on its GPU by `autotune roofline` (a file in
// the run's devices/ folder) when there are some, the datasheet's otherwise; either way with
// the L2 the model charges local memory against.
#pragma once

#include "arch/device_spec.hpp"
#include "measure/gpu_devices.hpp"
#include "rank/roofline.hpp"
#include "spec/precision.hpp"

#include <filesystem>
#include <optional>

namespace autotune {

// `device`: the GPU the run measures on (null: none); `roofline_device`: the device table's
// entry whose datasheet applies (null: none known). Throws std::runtime_error naming a
// measured-ceilings file that exists but cannot be read.
[[nodiscard]] std::optional<Ceilings> ranking_ceilings(Precision precision, const std::filesystem::path& devices_dir,
                                                       const GpuDevice* device, const DeviceSpec* roofline_device);

} // namespace autotune
