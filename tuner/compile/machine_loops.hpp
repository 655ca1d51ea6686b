// The loops ptxas left in a kernel's machine code, read from the code itself: backward
// branches, and for each innermost loop its size and its unroll markers. A marker is an
// instruction ptxas copies when it unrolls a loop but does not add or drop on its own:
// global and shared loads and stores (LDG, STG, LDS, STS) and the multi-function unit's
// (MUFU: reciprocals, roots, exp2, sines). Counted in a loop body against the PTX's, they
// say how many times over ptxas wrote that body out.
#pragma once

#include <array>
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

    // The five counts, in the order above.
    [[nodiscard]] std::array<int, 5> by_kind() const
    {
        return {global_loads, global_stores, shared_loads, shared_stores, multi_function};
    }
    [[nodiscard]] int total() const { return global_loads + global_stores + shared_loads + shared_stores + multi_function; }
    UnrollMarkers& operator+=(const UnrollMarkers& other)
    {
        global_loads += other.global_loads;
        global_stores += other.global_stores;
        shared_loads += other.shared_loads;
        shared_stores += other.shared_stores;
        multi_function += other.multi_function;
        return *this;
    }
    // What lies between two running counts.
    friend UnrollMarkers operator-(const UnrollMarkers& to, const UnrollMarkers& from)
    {
        return {to.global_loads - from.global_loads, to.global_stores - from.global_stores,
                to.shared_loads - from.shared_loads, to.shared_stores - from.shared_stores,
                to.multi_function - from.multi_function};
    }
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
