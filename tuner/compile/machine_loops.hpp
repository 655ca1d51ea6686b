// The loops ptxas left in a kernel's machine code, read from the code itself: backward
// branches, and for each innermost loop its size and its unroll markers. A marker is an
// instruction ptxas copies when it unrolls a loop but does not add or drop on its own:
// global and shared loads and stores (LDG, STG, LDS, STS) and the multi-function unit's
// (MUFU: reciprocals, roots, exp2, sines). Counted in a loop body against the PTX's, they
// say how many times over ptxas wrote that body out.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace autotune {

struct UnrollMarkers {
    int global_loads = 0;
    int global_stores = 0;
    int shared_loads = 0;
    int shared_stores = 0;
    int multi_function = 0;

    [[nodiscard]] int total() const { return global_loads + global_stores + shared_loads + shared_stores + multi_function; }
    bool operator==(const UnrollMarkers&) const = default;
};

// An innermost loop: a backward branch's range (its target to the branch) that holds no
// other backward branch's range.
struct MachineLoop {
    std::int64_t instructions = 0;
    UnrollMarkers markers;
    bool operator==(const MachineLoop&) const = default;
};

struct MachineLoops {
    int backward_branches = 0;            // every loop ptxas kept (one it unrolled fully has none)
    std::vector<MachineLoop> innermost;   // in code order
};

// `code`: one function's machine code (16 bytes an instruction), for sm_`sm`.
[[nodiscard]] MachineLoops read_machine_loops(std::string_view code, int sm);

} // namespace autotune
