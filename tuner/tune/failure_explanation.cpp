#include "tune/failure_explanation.hpp"

#include "compile/compiled_variant.hpp"
#include "predict/occupancy.hpp"

#include <fmt/format.h>

namespace autotune {

namespace {

// The most registers a thread may use for one block of the point's size to fit; -1 unjoined.
int register_ceiling(const FailureDisagreement& point, const ArchSpec& arch)
{
    return point.threads_per_block > 0 ? most_registers_for_one_block(arch, point.threads_per_block) : -1;
}

} // namespace

bool registers_explain(const FailureDisagreement& point, const ArchSpec& arch)
{
    const int ceiling = register_ceiling(point, arch);
    if (ceiling < 0)
        return false;
    if (point.ran)
        return point.registers && *point.registers > ceiling;
    return point.measured_status == "launch_error" && ceiling < arch.max_registers_per_thread &&
           (!point.registers || *point.registers <= ceiling);
}

std::string explain_failure_disagreement(const FailureDisagreement& point, const ArchSpec& arch)
{
    const int ceiling = register_ceiling(point, arch);
    const std::string ours = point.registers ? fmt::format("this compile gives {}", *point.registers) : "";
    const bool by_registers = registers_explain(point, arch);
    if (point.ran) {
        if (by_registers)
            return fmt::format("it ran there, so the binary measured used at most {} registers a thread (a block of {} "
                               "threads on {} fits with no more); {}",
                               ceiling, point.threads_per_block, arch.name, ours);
        return fmt::format("it ran there; no register count explains the prediction ({})", point.predicted_failure);
    }
    if (point.measured_status == "launch_error") {
        if (by_registers)
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
