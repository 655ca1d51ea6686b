// autotune archs: the architecture table (what occupancy is predicted from) and the
// device table (the roofline's datasheet defaults), with their sources.
#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_only_options.hpp"

#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::string optional_text(const std::optional<double>& v) { return v ? fmt::format("{:.0f}", *v) : "-"; }

} // namespace

int archs_command(const Arguments& args)
{
    const auto parsed = parse_json_only_options(args, "archs");
    if (!parsed)
        return exit_ok;
    const bool as_json = *parsed;

    if (as_json) {
        json archs = json::array();
        for (const auto& a : arch_table())
            archs.push_back({{"name", a.name},
                             {"compute_capability", fmt::format("{}.{}", a.compute_capability / 10, a.compute_capability % 10)},
                             {"example_gpus", a.example_gpus},
                             {"max_threads_per_sm", a.max_threads_per_sm},
                             {"max_blocks_per_sm", a.max_blocks_per_sm},
                             {"registers_per_sm", a.registers_per_sm},
                             {"max_registers_per_block", a.max_registers_per_block},
                             {"max_registers_per_thread", a.max_registers_per_thread},
                             {"shared_per_sm", a.shared_per_sm},
                             {"max_shared_per_block", a.max_shared_per_block},
                             {"max_shared_per_block_optin", a.max_shared_per_block_optin},
                             {"reserved_shared_per_block", a.reserved_shared_per_block},
                             {"warp_size", a.warp_size},
                             {"nvrtc_compiles", a.nvrtc_compiles},
                             {"source", a.source},
                             {"note", a.note}});
        json devices = json::array();
        for (const auto& d : device_table())
            devices.push_back({{"key", d.key},
                               {"name", d.name},
                               {"arch", fmt::format("sm_{}", d.compute_capability)},
                               {"sms", d.sms},
                               {"boost_clock_mhz", d.boost_clock_mhz},
                               {"memory_bandwidth_gbs", d.memory_bandwidth_gbs},
                               {"l2_bytes", d.l2_bytes},
                               {"fp32_tflops", d.fp32_tflops},
                               {"fp16_tensor_tflops", optional_number(d.fp16_tensor_tflops)},
                               {"bf16_tensor_tflops", optional_number(d.bf16_tensor_tflops)},
                               {"int8_tensor_tops", optional_number(d.int8_tensor_tops)},
                               {"default_for_arch", d.default_for_arch},
                               {"source", d.source}});
        std::cout << json{{"archs", archs}, {"devices", devices}}.dump(2) << "\n";
        return exit_ok;
    }

    std::cout << "Architectures (per SM unless said; shared memory in KB):\n"
              << fmt::format("{:<7} {:>4} {:>8} {:>7} {:>7} {:>8} {:>8} {:>7} {:>9} {:>9}  {}\n", "arch", "cc",
                             "threads", "blocks", "regs", "regs/blk", "regs/thr", "smem", "smem/blk", "reserved",
                             "examples");
    for (const auto& a : arch_table())
        std::cout << fmt::format("{:<7} {:>4} {:>8} {:>7} {:>7} {:>8} {:>8} {:>7} {:>9} {:>9}  {}{}\n", a.name,
                                 fmt::format("{}.{}", a.compute_capability / 10, a.compute_capability % 10),
                                 a.max_threads_per_sm, a.max_blocks_per_sm, a.registers_per_sm,
                                 a.max_registers_per_block, a.max_registers_per_thread, a.shared_per_sm / 1024,
                                 a.max_shared_per_block_optin / 1024, a.reserved_shared_per_block / 1024.0,
                                 a.example_gpus, a.nvrtc_compiles ? "" : " (this NVRTC cannot compile it: --nvrtc an older one)");
    std::cout << "\nDevices (datasheet peaks; tensor figures dense; * = the arch's default device):\n"
              << fmt::format("{:<15} {:<7} {:>5} {:>6} {:>8} {:>6} {:>7} {:>7} {:>7} {:>7}\n", "device", "arch", "SMs",
                             "MHz", "GB/s", "L2 MB", "fp32 TF", "fp16 TF", "bf16 TF", "int8 TO");
    for (const auto& d : device_table())
        std::cout << fmt::format("{:<15} {:<7} {:>5} {:>6} {:>8.0f} {:>6} {:>7.1f} {:>7} {:>7} {:>7}\n",
                                 d.key + (d.default_for_arch ? " *" : ""), fmt::format("sm_{}", d.compute_capability),
                                 d.sms, d.boost_clock_mhz, d.memory_bandwidth_gbs, d.l2_bytes / (1024 * 1024),
                                 d.fp32_tflops, optional_text(d.fp16_tensor_tflops), optional_text(d.bf16_tensor_tflops),
                                 optional_text(d.int8_tensor_tops));
    std::cout << "\nSources and notes: autotune archs --json\n";
    return exit_ok;
}

} // namespace autotune::cli
