#include "predict/occupancy_steps.hpp"

namespace autotune {

std::vector<OccupancyStep> occupancy_steps(const ArchSpec& arch, KernelFootprint kernel)
{
    std::vector<OccupancyStep> steps;
    for (int registers = 1; registers <= arch.max_registers_per_thread; ++registers) {
        kernel.registers_per_thread = registers;
        int blocks = 0;
        try {
            blocks = predict_occupancy(arch, kernel).blocks_per_sm;
        } catch (const OccupancyError&) {
            blocks = 0; // more registers than a block of this size can hold
        }
        if (steps.empty() || blocks < steps.back().blocks_per_sm)
            steps.push_back({registers, blocks});
        if (blocks == 0)
            break;
    }
    return steps;
}

} // namespace autotune
