#include "predict/lane_addresses.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace autotune {
namespace {

// What is known of a register: uniform plus an affine per-lane part, or nothing.
struct Value {
    bool affine = false;
    LaneAffine lane;
};

class Tracker {
public:
    Value of(std::string_view operand) const
    {
        if (ptx_integer(operand))
            return {true, {}};
        if (operand == "%tid.x")
            return {true, {1, 0}};
        if (operand == "%tid.y")
            return {true, {0, 1}};
        if (operand.rfind("%tid", 0) == 0 || operand.rfind("%laneid", 0) == 0)
            return {};
        if (!operand.empty() && operand.front() == '%' && operand.find('.') != std::string_view::npos)
            return {true, {}}; // %ctaid.x, %ntid.x, %nctaid.x: the same in every lane
        if (operand.empty() || operand.front() != '%')
            return {true, {}}; // a symbol (a __shared__ array, a __constant__ one)
        const auto it = values_.find(std::string(operand));
        return it == values_.end() ? Value{} : it->second;
    }

    // The address inside "[%rd4+8]" or "[sh_input]".
    Value address(std::string_view operand) const
    {
        if (operand.size() < 2 || operand.front() != '[')
            return {};
        std::string_view inside = operand.substr(1, operand.size() - 2);
        if (const auto plus = inside.find('+'); plus != std::string_view::npos)
            inside = inside.substr(0, plus);
        return of(inside);
    }

    void step(const PtxInstruction& in)
    {
        if (in.operands.empty() || in.operands.front().empty() || in.operands.front().front() != '%')
            return;
        const std::string& dst = in.operands.front();
        const std::string_view base = in.base();
        auto operand = [&](std::size_t k) { return k < in.operands.size() ? of(in.operands[k]) : Value{}; };
        auto constant = [&](std::size_t k) {
            return k < in.operands.size() ? ptx_integer(in.operands[k]) : std::optional<std::int64_t>{};
        };
        // Coefficients beyond 64 bits (no real address has them) make the value unknown,
        // not undefined behaviour.
        auto scaled = [](Value v, std::int64_t by) {
            if (__builtin_mul_overflow(v.lane.x, by, &v.lane.x) || __builtin_mul_overflow(v.lane.y, by, &v.lane.y))
                return Value{};
            return v;
        };
        auto combined = [](const Value& a, const Value& b, std::int64_t sign) {
            Value r{true, {}};
            std::int64_t bx = 0, by = 0;
            if (__builtin_mul_overflow(b.lane.x, sign, &bx) || __builtin_mul_overflow(b.lane.y, sign, &by) ||
                __builtin_add_overflow(a.lane.x, bx, &r.lane.x) || __builtin_add_overflow(a.lane.y, by, &r.lane.y))
                return Value{};
            return r;
        };
        auto uniform = [](const Value& v) { return v.affine && v.lane.x == 0 && v.lane.y == 0; };
        Value result;
        if (base == "mov" || base == "cvt" || base == "cvta") {
            result = operand(1);
        } else if (base == "add" || base == "sub") {
            const Value a = operand(1), b = operand(2);
            if (a.affine && b.affine)
                result = combined(a, b, base == "sub" ? -1 : 1);
        } else if (base == "mul" || base == "shl") {
            const Value a = operand(1), b = operand(2);
            const auto k = constant(2);
            if (a.affine && k && (base == "mul" || (*k >= 0 && *k < 63)))
                result = scaled(a, base == "shl" ? (std::int64_t{1} << *k) : *k);
            else if (b.affine && constant(1) && base == "mul")
                result = scaled(b, *constant(1));
            else if (uniform(a) && uniform(b))
                result = {true, {}};
        } else if (base == "mad") {
            const Value a = operand(1), b = operand(2), c = operand(3);
            if (a.affine && c.affine && constant(2)) {
                const Value product = scaled(a, *constant(2));
                if (product.affine)
                    result = combined(product, c, 1);
            }
            else if (uniform(a) && uniform(b) && c.affine)
                result = c;
        } else if (base == "ld" && in.has_part("param")) {
            result = {true, {}};
        }
        // Anything else (loads, selects, compares, ...) makes the register unknown.
        values_[dst] = result;
    }

private:
    std::unordered_map<std::string, Value> values_;
};

bool accesses_memory(const PtxInstruction& in)
{
    const std::string_view base = in.base();
    return (base == "ld" || base == "st" || base == "atom" || base == "red") && !in.has_part("param");
}

// Addresses are 64-bit and wrap, as the hardware's do: a coefficient no real address has
// (the PTX may shift by anything) gives some address, not undefined behaviour.
std::int64_t wrapping(std::uint64_t value)
{
    return static_cast<std::int64_t>(value);
}

std::int64_t wrapping_add(std::int64_t a, std::int64_t b)
{
    return wrapping(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// a / d rounded down, for any a (d > 0).
std::int64_t floor_div(std::int64_t a, std::int64_t d)
{
    return a >= 0 ? a / d : -1 - (-(a + 1)) / d;
}

// Byte offsets of the first warp's lanes.
std::vector<std::int64_t> lane_offsets(const LaneAffine& a, const BlockShape& shape)
{
    std::vector<std::int64_t> out;
    const std::int64_t threads = std::max<std::int64_t>(1, shape.x * shape.y);
    for (std::int64_t lane = 0; lane < std::min<std::int64_t>(32, threads); ++lane) {
        const std::int64_t tx = lane % std::max<std::int64_t>(1, shape.x);
        const std::int64_t ty = (lane / std::max<std::int64_t>(1, shape.x)) % std::max<std::int64_t>(1, shape.y);
        out.push_back(wrapping(static_cast<std::uint64_t>(a.x) * static_cast<std::uint64_t>(tx) +
                               static_cast<std::uint64_t>(a.y) * static_cast<std::uint64_t>(ty)));
    }
    return out;
}

} // namespace

std::vector<std::optional<LaneAffine>> lane_addresses(const PtxKernel& kernel)
{
    std::vector<std::optional<LaneAffine>> out(kernel.body.size());
    Tracker tracker;
    for (std::size_t i = 0; i < kernel.body.size(); ++i) {
        const PtxInstruction& in = kernel.body[i];
        if (in.is_label())
            continue;
        if (accesses_memory(in)) {
            const std::size_t address = in.base() == "st" || in.base() == "red" ? 0 : 1;
            if (address < in.operands.size())
                if (const Value v = tracker.address(in.operands[address]); v.affine)
                    out[i] = v.lane;
        }
        if (in.base() != "st" && in.base() != "red")
            tracker.step(in);
    }
    return out;
}

GlobalFootprint global_footprint(const LaneAffine& address, const BlockShape& shape, int bytes)
{
    std::set<std::int64_t> sectors;
    for (const std::int64_t offset : lane_offsets(address, shape))
        for (int k = 0; k < std::max(bytes, 1); k += 4)
            sectors.insert(floor_div(wrapping_add(offset, k), 32));
    std::set<std::int64_t> lines; // four sectors a line: 32-byte sector s lies in line floor(s / 4)
    for (const std::int64_t s : sectors)
        lines.insert(floor_div(s, 4));
    return {static_cast<int>(sectors.size()), static_cast<int>(lines.size())};
}

int shared_wavefronts(const LaneAffine& address, const BlockShape& shape, int bytes)
{
    std::map<std::int64_t, std::set<std::int64_t>> words_by_bank;
    const auto offsets = lane_offsets(address, shape);
    for (const std::int64_t offset : offsets)
        for (int k = 0; k < std::max(bytes, 4); k += 4) {
            const std::int64_t word = floor_div(wrapping_add(offset, k), 4);
            words_by_bank[((word % 32) + 32) % 32].insert(word);
        }
    std::size_t most = 1;
    for (const auto& [bank, words] : words_by_bank)
        most = std::max(most, words.size());
    const auto moved = static_cast<std::int64_t>(offsets.size()) * std::max(bytes, 4);
    return static_cast<int>(std::max<std::int64_t>(static_cast<std::int64_t>(most), (moved + 127) / 128));
}

int shared_access_wavefronts(const LaneAffine& address, const BlockShape& shape, int bytes, int replay_pass_clocks)
{
    const int wavefronts = shared_wavefronts(address, shape, bytes);
    if (replay_pass_clocks <= 0)
        return wavefronts;
    const std::int64_t lanes = std::min<std::int64_t>(32, std::max<std::int64_t>(1, shape.x * shape.y));
    const int conflict_free = static_cast<int>(std::max<std::int64_t>(1, (lanes * std::max(bytes, 4) + 127) / 128));
    const int ways = (wavefronts + conflict_free - 1) / conflict_free;
    return ways == 1 ? wavefronts : ways * std::max(conflict_free, replay_pass_clocks);
}

} // namespace autotune
