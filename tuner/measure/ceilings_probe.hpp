// `autotune roofline`: a device's own ceilings, measured once — bandwidth with a large
// device-to-device copy (bytes read + written, the best of a few sizes), fp32 FMA rate
// with an unrolled kernel of independent FMA chains — at the SM clock read during the
// compute measurement.
#pragma once

#include "compile/nvrtc_library.hpp"
#include "measure/cuda_driver.hpp"
#include "rank/measured_ceilings.hpp"

namespace autotune {

// Throws DriverError naming the step that failed. `nvrtc` builds the FMA kernel (the linked
// one may not build for the device: CUDA 13 builds nothing below sm_75).
[[nodiscard]] MeasuredCeilings measure_ceilings(const CudaDriver& driver, int device_ordinal, const NvrtcLibrary& nvrtc);

} // namespace autotune
