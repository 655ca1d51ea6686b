// The loops ptxas left in a kernel's machine code, read from the code itself: backward
// branches, and for each innermost loop its size and its unroll markers. A marker is an
// instruction ptxas copies when it unrolls a loop but does not add or drop on its own:
// global and shared loads and stores (LDG, STG, LDS, STS) and the multi-function unit's
// (MUFU: reciprocals, roots, exp2, sines). Counted in a loop body against the PTX's, they
// say how many times over ptxas wrote that body out.
#pragma once

#include <array>
#include <cstddef>
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

    // The five kinds, in the order above: every operation below goes through this list.
    static constexpr std::array kinds{&UnrollMarkers::global_loads, &UnrollMarkers::global_stores,
                                      &UnrollMarkers::shared_loads, &UnrollMarkers::shared_stores,
                                      &UnrollMarkers::multi_function};

    [[nodiscard]] std::array<int, kinds.size()> by_kind() const
    {
        std::array<int, kinds.size()> counts{};
        for (std::size_t k = 0; k < kinds.size(); ++k)
            counts[k] = this->*kinds[k];
        return counts;
    }
    [[nodiscard]] int total() const
    {
        int sum = 0;
        for (const int count : by_kind())
            sum += count;
        return sum;
    }
    UnrollMarkers& operator+=(const UnrollMarkers& other)
    {
        for (const auto kind : kinds)
            this->*kind += other.*kind;
        return *this;
    }
    // What lies between two running counts.
    friend UnrollMarkers operator-(UnrollMarkers to, const UnrollMarkers& from)
    {
        for (const auto kind : kinds)
            to.*kind -= from.*kind;
        return to;
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
