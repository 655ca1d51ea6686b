// `autotune roofline`: a device's own ceilings, measured once — bandwidth with a large
// device-to-device copy (bytes read + written, the best of a few sizes), fp32 FMA rate
// with an unrolled kernel of independent FMA chains — at the SM clock read during the
// compute measurement.
#pragma once

#include "measure/cuda_driver.hpp"
#include "rank/measured_ceilings.hpp"

namespace autotune {

// Throws DriverError naming the step that failed.
[[nodiscard]] MeasuredCeilings measure_ceilings(const CudaDriver& driver, int device_ordinal);

} // namespace autotune
