#include "tune/failure_explanation.hpp"

#include "compile/compiled_variant.hpp"
#include "predict/occupancy.hpp"

#include <fmt/format.h>

namespace autotune {

std::string explain_failure_disagreement(const FailureDisagreement& point, const ArchSpec& arch)
{
    const int ceiling = point.threads_per_block > 0 ? most_registers_for_one_block(arch, point.threads_per_block) : -1;
    const std::string ours = point.registers ? fmt::format("this compile gives {}", *point.registers) : "";
    if (point.ran) {
        if (point.registers && ceiling >= 0 && *point.registers > ceiling)
            return fmt::format("it ran there, so the binary measured used at most {} registers a thread (a block of {} "
                               "threads on {} fits with no more); {}",
                               ceiling, point.threads_per_block, arch.name, ours);
        return fmt::format("it ran there; no register count explains the prediction ({})", point.predicted_failure);
    }
    if (point.measured_status == "launch_error") {
        if (ceiling >= 0 && ceiling < arch.max_registers_per_thread && (!point.registers || *point.registers <= ceiling))
            return fmt::format("it failed to launch there, as a block of {} threads on {} does from {} registers a "
                               "thread: the binary measured used more than {}{}",
                               point.threads_per_block, arch.name, ceiling + 1, ceiling, ours.empty() ? "" : "; " + ours);
        return fmt::format("it failed to launch there ({}), though no register count stops a block of {} threads on "
                           "{}: not a limit the model knows",
                           point.measured_failure, point.threads_per_block, arch.name);
    }
    if (is_compile_failure(point.measured_status))
        return fmt::format("it failed to compile there ({}); it compiles here: another toolkit or other options",
                           point.measured_failure);
    return fmt::format("it failed there ({}); nothing here predicts it", point.measured_failure);
}

} // namespace autotune
