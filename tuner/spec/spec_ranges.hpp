// The values a spec gives that have a valid range, whatever its format (TOML or T1): a
// register cap of -16, a problem size of 0, a parameter value beyond what expressions hold
// exactly, a CPU reference that does not exist, an argument type the tuner cannot pass.
// Each would otherwise reach the compiler, the results or the GPU, or be refused only when
// a GPU measures.
#pragma once

#include "spec/kernel_spec.hpp"

namespace autotune {

// Throws SpecError: one line naming the spec file, the field and the accepted range.
void check_spec_ranges(const KernelSpec& spec);

} // namespace autotune
