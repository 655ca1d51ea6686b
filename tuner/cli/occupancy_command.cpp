// autotune occupancy: the what-if calculator users know from NVIDIA's spreadsheet and
// Nsight Compute — blocks, warps, occupancy and the limiter for one footprint, and the
// occupancy over every block size (multiples of 32) at those registers.
#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "predict/occupancy.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

std::string limiters_text(const Occupancy& o)
{
    std::string text = to_string(o.limiter);
    std::string also;
    for (auto l : o.limiters)
        if (l != o.limiter)
            also += (also.empty() ? "" : ", ") + to_string(l);
    return also.empty() ? text : text + " (also " + also + ")";
}

std::string headroom_text(const Occupancy& o)
{
    const auto registers = [](int n) { return fmt::format("{} register{}", n, n == 1 ? "" : "s"); };
    const std::string lose = o.registers_to_lose_a_block
                                 ? fmt::format("adding {} per thread loses a block", registers(*o.registers_to_lose_a_block))
                                 : "no register count up to the maximum loses a block";
    const std::string gain = o.registers_to_gain_a_block
                                 ? fmt::format("removing {} gains one", registers(*o.registers_to_gain_a_block))
                                 : "cutting registers cannot gain one";
    return lose + "; " + gain;
}

json occupancy_json(const Occupancy& o)
{
    json limiters = json::array();
    for (auto l : o.limiters)
        limiters.push_back(to_string(l));
    return {{"blocks_per_sm", o.blocks_per_sm}, {"active_warps", o.active_warps}, {"max_warps", o.max_warps},
            {"fraction", o.fraction},           {"limiter", to_string(o.limiter)}, {"limiters", limiters}};
}

} // namespace

int occupancy_command(const Arguments& args)
{
    std::string arch_name;
    int threads = 0, registers = 0, barriers = 1;
    std::int64_t shared = 0;
    bool as_json = false;
    // Named barriers per block: 16 on every architecture (bar.sync 0 to 15).
    CommandLine line("usage: autotune occupancy --arch sm_XX --threads N --regs N [--smem BYTES] [--json]");
    line.options()
        ("arch", po::value(&arch_name)->required(), "architecture: sm_70 .. sm_121")
        ("threads", po::value(&threads)->required(), "threads per block")
        ("regs", po::value(&registers)->required(), "registers per thread")
        ("smem", ranged_value(&shared, {.least = 0})->default_value(0), "shared memory per block, bytes (static + dynamic)")
        ("barriers", ranged_value(&barriers, {.least = 0, .most = 16})->default_value(1), "barriers the kernel uses (0: no barrier limit)")
        ("json", po::bool_switch(&as_json), "print JSON");
    if (!line.parse(args))
        return exit_ok;

    const ArchSpec& arch = find_arch_spec(parse_arch(arch_name).number());
    auto checked = [&](int block_threads) {
        try {
            return predict_occupancy(arch, {block_threads, registers, shared, 0, barriers});
        } catch (const OccupancyError& e) {
            throw UsageError(e.what());
        }
    };
    if (threads < 1 || threads > arch.max_threads_per_block)
        throw UsageError(fmt::format("--threads {}: {} allows 1 to {} threads per block", threads, arch.name,
                                     arch.max_threads_per_block));
    if (registers < 0 || registers > arch.max_registers_per_thread)
        throw UsageError(fmt::format("--regs {}: {} allows 0 to {} registers per thread", registers, arch.name,
                                     arch.max_registers_per_thread));
    const Occupancy o = checked(threads);

    // Every block size at these registers; sizes where no block fits show 0.
    json sweep = json::array();
    std::string sweep_text;
    for (int t = arch.warp_size; t <= arch.max_threads_per_block; t += arch.warp_size) {
        try {
            const Occupancy s = predict_occupancy(arch, {t, registers, shared, 0, barriers});
            sweep.push_back({{"threads", t}, {"blocks_per_sm", s.blocks_per_sm}, {"active_warps", s.active_warps},
                             {"fraction", s.fraction}, {"limiter", to_string(s.limiter)}});
            sweep_text += fmt::format("  {:>7}  {:>6}  {:>5}  {:>8.1f}%  {}{}\n", t, s.blocks_per_sm, s.active_warps,
                                      100 * s.fraction, limiters_text(s), t == threads ? "   <-" : "");
        } catch (const OccupancyError&) {
            sweep.push_back({{"threads", t}, {"blocks_per_sm", 0}, {"active_warps", 0}, {"fraction", 0.0},
                             {"limiter", "registers"}});
            sweep_text += fmt::format("  {:>7}  {:>6}  {:>5}  {:>8.1f}%  {}\n", t, 0, 0, 0.0, "does not fit");
        }
    }

    if (as_json) {
        json out = occupancy_json(o);
        out["arch"] = arch.name;
        out["threads"] = threads;
        out["registers"] = registers;
        out["shared_bytes"] = shared;
        out["registers_to_lose_a_block"] = o.registers_to_lose_a_block ? json(*o.registers_to_lose_a_block) : json(nullptr);
        out["registers_to_gain_a_block"] = o.registers_to_gain_a_block ? json(*o.registers_to_gain_a_block) : json(nullptr);
        out["by_block_size"] = sweep;
        std::cout << out.dump(2) << "\n";
        return exit_ok;
    }
    std::cout << fmt::format("{} (compute capability {}.{}): {} threads, {} registers, {} bytes shared, {} barriers\n",
                             arch.name, arch.compute_capability / 10, arch.compute_capability % 10, threads, registers,
                             shared, barriers)
              << fmt::format("  blocks per SM  {}\n", o.blocks_per_sm)
              << fmt::format("  active warps   {} of {}\n", o.active_warps, o.max_warps)
              << fmt::format("  occupancy      {:.1f}%\n", 100 * o.fraction)
              << fmt::format("  limited by     {}\n", limiters_text(o))
              << fmt::format("  registers      {}\n\n", headroom_text(o))
              << fmt::format("  by block size at {} registers:\n  threads  blocks  warps  occupancy  limited by\n",
                             registers)
              << sweep_text;
    return exit_ok;
}

} // namespace autotune::cli
