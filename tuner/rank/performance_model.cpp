#include "rank/performance_model.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <string>

namespace autotune {

double arithmetic_share(std::string_view ptx)
{
    // An instruction line starts (after optional predicate) with an opcode; directives
    // start with '.', labels end with ':', braces and comments are not instructions.
    static const std::regex opcode(R"(^\s*(@!?%\w+\s+)?([a-z][a-z0-9_]*)(\.|\s))");
    static const std::regex arithmetic(R"(^(fma|mad|mul|add|sub|min|max|neg|abs|rcp|sqrt|mma|wgmma|dp4a|dp2a)$)");
    // A tensor-core instruction keeps its pipe busy for several issue slots: an mma of
    // m·n·k multiply-adds counts as m·n·k / 512 instructions of math (m16n8k16: 4, about
    // the cycles one takes per sub-partition on Ampere and Hopper), so that the share
    // measures how well the issue slots keep the tensor pipe fed rather than counting an
    // mma like one FFMA. wgmma's m64nNk16 is issued by four warps: N / 2 each.
    static const std::regex mma_shape(R"(\.m(\d+)n(\d+)k(\d+)\.)");
    double total = 0, math = 0;
    std::istringstream lines{std::string(ptx)};
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, opcode))
            continue;
        // Skip data declarations (.reg, .shared, ...) that a leading-dot rule would not catch.
        const std::string name = m[2].str();
        if (name == "ret" || name == "exit")
            continue;
        double weight = 1;
        std::smatch shape;
        if ((name == "mma" || name == "wgmma") && std::regex_search(line, shape, mma_shape)) {
            const double mnk = std::stod(shape[1].str()) * std::stod(shape[2].str()) * std::stod(shape[3].str());
            weight = std::max(1.0, mnk / 512.0 / (name == "wgmma" ? 4.0 : 1.0));
        }
        total += weight;
        // Integer adds and multiplies are address arithmetic, not the kernel's flops.
        const bool floating = line.find(".f32") != std::string::npos || line.find(".f64") != std::string::npos ||
                              line.find(".f16") != std::string::npos || line.find(".bf16") != std::string::npos ||
                              name == "mma" || name == "wgmma" || name == "dp4a" || name == "dp2a";
        if (floating && std::regex_match(name, arithmetic))
            math += weight;
    }
    return total == 0 ? 0.0 : math / total;
}

ModelFactors model_factors(const VariantFacts& f, double share)
{
    ModelFactors m;
    m.occupancy = std::min(1.0, f.occupancy.active_warps / 4.0 / 4.0);
    const double spilled = static_cast<double>(f.resources.spill_stores + f.resources.spill_loads);
    m.spills = 1.0 / (1.0 + spilled / 32.0);
    const double per_wave = static_cast<double>(std::max(f.sms, 1)) * std::max(f.occupancy.blocks_per_sm, 1);
    const double blocks = static_cast<double>(std::max<std::int64_t>(f.grid_blocks, 1));
    m.waves = blocks / (std::ceil(blocks / per_wave) * per_wave);
    const GlobalMemoryOps& ops = f.memory_ops;
    if (f.vectors_possible && ops.vector_loads + ops.vector_stores == 0 && ops.scalar_loads + ops.scalar_stores > 0)
        m.vectors = 0.85;
    if (f.problem.compute_bound)
        m.issue = std::max(share, 0.05);
    return m;
}

} // namespace autotune
