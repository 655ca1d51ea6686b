// The compiled kernel's parameters against the spec's arguments. The launch passes each
// argument as the spec describes it (a device pointer per buffer, a scalar's bytes); a
// kernel whose parameters differ reads garbage or faults, and its times are of the wrong
// work. The PTX declares every parameter with its type, so the mismatch is found before
// anything runs (BAT's TRIAD T1 file passes `double` arguments to a kernel built for float).
#pragma once

#include "spec/kernel_spec.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// One parameter as the PTX declares it: ".param .f32 k_param_3" is {4, 'f'}; an aggregate
// (".param .align 8 .b8 k_param_1[16]") is {16, 'b'}.
struct PtxParameter {
    std::size_t bytes = 0;
    char kind = 'b'; // 'f' floating point, 'u'/'s' integer, 'b' untyped bits (any)
};

// The parameters of the entry `entry` (its mangled name; the only one when empty), in order.
// Throws std::invalid_argument when the PTX has no such entry.
[[nodiscard]] std::vector<PtxParameter> ptx_entry_parameters(std::string_view ptx, std::string_view entry);

// Why the kernel's parameters cannot take the spec's arguments, in one line naming the
// first that differs; nullopt when they can, or when the spec describes no arguments.
[[nodiscard]] std::optional<std::string> parameter_mismatch(const KernelSpec& spec,
                                                            const std::vector<PtxParameter>& parameters);

} // namespace autotune
