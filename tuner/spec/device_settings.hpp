#pragma once

#include "spec/kernel_spec.hpp"

namespace autotune {

// Tuning parameters that set the GPU, not the kernel: Kernel Tuner's NVML observer sets
// nvml_gr_clock and nvml_mem_clock (MHz) and nvml_pwr_limit (W) before each configuration
// runs, tegra_gr_clock on a Jetson. autotune sets none of them, so measuring such a space
// would time every configuration at the GPU's own settings and label it with another's:
// that is refused (KernelSpec::not_measurable, one line naming the file and the parameter).
// Predicting honours the graphics clock (KernelSpec::sm_clock_parameter: each variant at
// its value, which must be one a GPU runs at, else SpecError) and notes the others.
void read_device_settings(KernelSpec& spec);

} // namespace autotune
