#include "compile/resource_usage.hpp"

#include <fmt/format.h>

namespace autotune {
namespace {

void require_equal(std::int64_t from_log, std::int64_t from_cubin, const char* what)
{
    if (from_log != from_cubin)
        throw ResourceMismatch(fmt::format("ptxas log and cubin disagree on {}: {} vs {}", what, from_log, from_cubin));
}

constexpr int no_cap = 255;

std::string cap_source(const ResourceUsage& usage, const RegisterPolicy& requested)
{
    if (usage.maxrregcount_overridden)
        return "launch_bounds";
    if (requested.maxnreg > 0)
        return "maxnreg";
    if (usage.register_cap >= no_cap)
        return "none";
    if (requested.max_threads > 0 && requested.maxrregcount == 0)
        return "launch_bounds";
    if (requested.maxrregcount > 0)
        return "maxrregcount";
    return "ptxas"; // a cap nobody asked for: keep the evidence rather than guess
}

} // namespace

ResourceUsage combine_resource_usage(const PtxasReport& log, const CubinFunctionInfo& cubin,
                                     const RegisterPolicy& requested)
{
    if (!log.found)
        throw ResourceMismatch(fmt::format("ptxas log has no resource report for {}", cubin.name));
    require_equal(log.registers, cubin.registers, "registers");
    // The cubin's frame covers callees too: ptxas' "cumulative stack size" where it prints one.
    require_equal(log.cumulative_stack.value_or(log.stack_frame), cubin.frame_size, "stack bytes");
    if (log.barriers)
        require_equal(*log.barriers, cubin.barriers, "barriers");
    require_equal(log.shared_bytes, cubin.shared_static, "static shared memory bytes");
    if (log.maxrregcount_overridden_to && cubin.max_registers)
        require_equal(*log.maxrregcount_overridden_to, *cubin.max_registers, "the overriding register cap");

    ResourceUsage usage;
    usage.registers = cubin.registers;
    usage.spill_stores = log.spill_stores; // only the log reports spills
    usage.spill_loads = log.spill_loads;
    usage.stack_frame = log.stack_frame;
    usage.shared_static = cubin.shared_static;
    usage.constant_bank0 = log.constant_bank0;
    usage.barriers = cubin.barriers;
    usage.register_cap = cubin.max_registers.value_or(no_cap);
    usage.maxrregcount_overridden = log.maxrregcount_overridden_from;
    usage.cap_raised_from = log.cap_raised_from;
    usage.launch_bound_max_threads = cubin.max_threads;
    usage.min_blocks_ignored = log.min_blocks_ignored;
    usage.warnings = log.warnings;
    usage.register_cap_source = cap_source(usage, requested);
    return usage;
}

} // namespace autotune
