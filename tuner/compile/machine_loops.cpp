#include "compile/machine_loops.hpp"

#include "compile/cubin_bytes.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

namespace autotune {
namespace {

constexpr std::size_t word = 16;

// A branch's target as an instruction index, for a BRA (or, from sm_90, a uniform BRA.U).
// The target is a signed offset from the next instruction, encoded (as cuobjdump -sass
// decodes it, CUDA 13.0) up to sm_89 in bits 32–63 in bytes, where a BRA has opcode 0x947
// in the low 12 bits (any predicate above them); from sm_90 in 4-byte words, its low 8 bits
// in bits 16–23 and the rest from bit 34.
std::optional<std::int64_t> branch_target(std::uint64_t low, std::size_t index, int sm)
{
    constexpr std::uint64_t kOpcodeMask = 0xfff, kBra = 0x947, kUniformBra = 0x547;
    const std::uint64_t opcode = low & kOpcodeMask;
    std::int64_t offset = 0;
    if (sm < 90 && opcode == kBra) {
        offset = static_cast<std::int32_t>(static_cast<std::uint32_t>(low >> 32));
    } else if (sm >= 90 && (opcode == kBra || opcode == kUniformBra)) {
        const auto high_part = static_cast<std::int64_t>(low) >> 34; // arithmetic: keeps the sign
        offset = (high_part * 256 + static_cast<std::int64_t>((low >> 16) & 0xff)) * 4;
    } else {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(index) + 1 + offset / static_cast<std::int64_t>(word);
}

// The low 9 bits of the opcode name the instruction; the bits above them its operand forms
// (register, immediate, uniform register, ...). Checked against cuobjdump -sass on 1,500
// cubins of sm_75 to sm_90 and a kernel for each of sm_75 to sm_120 (CUDA 13.0): no other
// instruction shares these.
void count_marker(std::uint64_t low, UnrollMarkers& markers)
{
    switch (low & 0x1ff) {
    case 0x181: ++markers.global_loads; break;   // LDG
    case 0x186: ++markers.global_stores; break;  // STG
    case 0x184: ++markers.shared_loads; break;   // LDS
    case 0x188: ++markers.shared_stores; break;  // STS
    case 0x108: ++markers.multi_function; break; // MUFU
    default: break;
    }
}

} // namespace

MachineLoops read_machine_loops(std::string_view code, int sm)
{
    const std::size_t n = code.size() / word;
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges; // [target, branch]
    // Markers before each instruction, so that a loop's are two lookups (a fuzzed cubin may
    // hold as many overlapping loops as instructions).
    std::vector<UnrollMarkers> before(n + 1);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t low = load_u64(code, i * word);
        before[i + 1] = before[i];
        count_marker(low, before[i + 1]);
        if (const auto target = branch_target(low, i, sm); target && *target <= static_cast<std::int64_t>(i))
            ranges.emplace_back(std::max<std::int64_t>(*target, 0), static_cast<std::int64_t>(i));
    }
    MachineLoops out;
    out.backward_branches = static_cast<int>(ranges.size());
    // A range holds another when one ending at or before its end starts at or after its
    // start: sorted by end (then by start, latest first), the latest start seen so far says.
    std::vector<std::size_t> order(ranges.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return ranges[a].second != ranges[b].second ? ranges[a].second < ranges[b].second
                                                    : ranges[a].first > ranges[b].first;
    });
    std::vector<bool> innermost(ranges.size(), false);
    std::int64_t latest_start = -1;
    for (const std::size_t i : order) {
        innermost[i] = latest_start < ranges[i].first; // each branch has its own end: no equal ranges
        latest_start = std::max(latest_start, ranges[i].first);
    }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (!innermost[i])
            continue;
        const auto [from, to] = ranges[i];
        out.innermost.push_back(
            {to - from + 1, before[static_cast<std::size_t>(to) + 1] - before[static_cast<std::size_t>(from)]});
    }
    return out;
}

} // namespace autotune
