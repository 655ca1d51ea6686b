#include "predict/thread_walk.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace autotune {
namespace {

enum class Op {
    label, mov, add, sub, mul, mad, shl, shr, and_, or_, xor_, not_, neg, min, max, abs, div, rem,
    selp, setp, cvt, ld_param, bra, exit, other
};
enum class Cmp { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, none };
enum class Special { tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, nctaid_x, nctaid_y, nctaid_z, ctaid, laneid };

struct IntType {
    int bits = 32;
    bool is_signed = false;
    bool integer = true; // false for floating-point types: results unknown
};

struct Source {
    enum class Kind { unknown, reg, imm, special } kind = Kind::unknown;
    int reg = -1;
    std::int64_t imm = 0;
    Special special = Special::ctaid;
    bool negated = false; // "!%p3" as setp's combining predicate
};

struct Decoded {
    Op op = Op::other;
    IntType type;      // the operation's (for cvt: the result's)
    IntType from;      // cvt's source type
    bool wide = false; // mul.wide / mad.wide: 64-bit result from 32-bit sources
    bool high = false; // mul.hi
    Cmp cmp = Cmp::none;
    Op combine = Op::other; // setp.lt.and.s32: and_/or_/xor_ with a fourth operand
    std::vector<int> results;
    std::vector<Source> sources;
    int guard = -1;
    bool guard_negated = false;
    std::size_t target = 0;
    std::optional<std::int64_t> parameter; // ld.param of a known value
};

std::optional<IntType> type_of(std::string_view part)
{
    if (part == "pred")
        return IntType{1, false, true};
    if (part.size() < 2)
        return std::nullopt;
    const char kind = part.front();
    if (kind != 's' && kind != 'u' && kind != 'b' && kind != 'f')
        return std::nullopt;
    if (part.substr(1) == "8" || part.substr(1) == "16" || part.substr(1) == "32" || part.substr(1) == "64")
        return IntType{std::stoi(std::string(part.substr(1))), kind == 's', kind != 'f'};
    if (part.rfind("bf16", 0) == 0 || part.rfind("f16x2", 0) == 0 || part == "tf32" || part.rfind("e4m3", 0) == 0 ||
        part.rfind("e5m2", 0) == 0)
        return IntType{16, false, false};
    return std::nullopt;
}

Cmp compare_of(std::string_view part)
{
    static const std::pair<std::string_view, Cmp> names[] = {
        {"eq", Cmp::eq}, {"ne", Cmp::ne}, {"lt", Cmp::lt}, {"le", Cmp::le}, {"gt", Cmp::gt},
        {"ge", Cmp::ge}, {"lo", Cmp::lo}, {"ls", Cmp::ls}, {"hi", Cmp::hi}, {"hs", Cmp::hs}};
    for (const auto& [name, cmp] : names)
        if (part == name)
            return cmp;
    return Cmp::none;
}

Op op_of(std::string_view base)
{
    static const std::pair<std::string_view, Op> names[] = {
        {"mov", Op::mov},  {"add", Op::add},  {"sub", Op::sub},   {"mul", Op::mul},   {"mad", Op::mad},
        {"shl", Op::shl},  {"shr", Op::shr},  {"and", Op::and_},  {"or", Op::or_},    {"xor", Op::xor_},
        {"not", Op::not_}, {"neg", Op::neg},  {"min", Op::min},   {"max", Op::max},   {"abs", Op::abs},
        {"div", Op::div},  {"rem", Op::rem},  {"selp", Op::selp}, {"setp", Op::setp}, {"cvt", Op::cvt},
        {"bra", Op::bra},  {"ret", Op::exit}, {"exit", Op::exit}};
    for (const auto& [name, op] : names)
        if (base == name)
            return op;
    return Op::other;
}

std::uint64_t fit(std::uint64_t v, int bits, bool is_signed)
{
    if (bits >= 64)
        return v;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    v &= mask;
    if (is_signed && ((v >> (bits - 1)) & 1))
        v |= ~mask;
    return v;
}

class Program {
public:
    Program(const PtxKernel& kernel, const ParameterValues& parameters)
    {
        std::unordered_map<std::string, std::size_t> labels;
        for (std::size_t i = 0; i < kernel.body.size(); ++i)
            if (kernel.body[i].is_label())
                labels[kernel.body[i].label] = i;
        code_.reserve(kernel.body.size());
        for (const PtxInstruction& in : kernel.body)
            code_.push_back(decode(in, labels, parameters));
    }

    [[nodiscard]] const std::vector<Decoded>& code() const { return code_; }
    [[nodiscard]] std::size_t registers() const { return registers_.size(); }

private:
    int register_id(std::string_view name)
    {
        const auto [it, added] = registers_.try_emplace(std::string(name), static_cast<int>(registers_.size()));
        return it->second;
    }

    Source source(std::string_view text)
    {
        Source s;
        if (!text.empty() && text.front() == '!') {
            s.negated = true;
            text.remove_prefix(1);
        }
        if (const auto value = ptx_integer(text)) {
            s.kind = Source::Kind::imm;
            s.imm = *value;
            return s;
        }
        if (text.empty() || text.front() != '%')
            return s; // a symbol, a float immediate, a vector: unknown
        static const std::pair<std::string_view, Special> specials[] = {
            {"%tid.x", Special::tid_x},   {"%tid.y", Special::tid_y},   {"%tid.z", Special::tid_z},
            {"%ntid.x", Special::ntid_x}, {"%ntid.y", Special::ntid_y}, {"%ntid.z", Special::ntid_z},
            {"%ctaid.x", Special::ctaid}, {"%ctaid.y", Special::ctaid}, {"%ctaid.z", Special::ctaid},
            {"%nctaid.x", Special::nctaid_x}, {"%nctaid.y", Special::nctaid_y}, {"%nctaid.z", Special::nctaid_z},
            {"%laneid", Special::laneid}};
        for (const auto& [name, special] : specials)
            if (text == name) {
                s.kind = Source::Kind::special;
                s.special = special;
                return s;
            }
        if (text.find('.') != std::string_view::npos)
            return s; // %clock, %smid: not known before the launch
        s.kind = Source::Kind::reg;
        s.reg = register_id(text);
        return s;
    }

    // The registers a result operand names: "%r1", "%p1|%p2", "{%f1, %f2}".
    std::vector<int> results(std::string_view text)
    {
        std::vector<int> out;
        for_each_ptx_register(text, [&](std::string_view name) { out.push_back(register_id(name)); });
        return out;
    }

    Decoded decode(const PtxInstruction& in, const std::unordered_map<std::string, std::size_t>& labels,
                   const ParameterValues& parameters)
    {
        Decoded d;
        if (in.is_label()) {
            d.op = Op::label;
            return d;
        }
        if (!in.guard.empty()) {
            d.guard = register_id(in.guard);
            d.guard_negated = in.guard_negated;
        }
        d.op = op_of(in.base());
        std::vector<IntType> types;
        std::string_view rest = in.opcode;
        while (!rest.empty()) {
            const auto dot = rest.find('.');
            const std::string_view part = rest.substr(0, dot);
            if (const auto t = type_of(part))
                types.push_back(*t);
            if (const Cmp c = compare_of(part); c != Cmp::none && d.op == Op::setp && d.cmp == Cmp::none)
                d.cmp = c;
            if (d.op == Op::setp && (part == "and" || part == "or" || part == "xor"))
                d.combine = op_of(part);
            d.wide = d.wide || part == "wide";
            d.high = d.high || part == "hi";
            rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
        }
        if (!types.empty()) {
            d.type = d.op == Op::cvt ? types.front() : types.back();
            d.from = types.back();
        } else if (d.op != Op::bra && d.op != Op::exit) {
            d.op = Op::other; // an untyped instruction this walk does not evaluate
        }
        if (in.base() == "ld" && in.has_part("param")) {
            d.op = Op::ld_param;
            if (in.operands.size() >= 2)
                if (const auto index = ptx_parameter_index(in.operands[1]); index && *index < parameters.size())
                    d.parameter = parameters[*index];
        }
        if (d.op == Op::bra) {
            if (in.operands.empty() || !labels.count(in.operands.front()))
                d.op = Op::other; // a branch through a table: nothing to follow
            else
                d.target = labels.at(in.operands.front());
            return d;
        }
        if (in.writes_first_operand() && !in.operands.empty())
            d.results = results(in.operands.front());
        for (std::size_t k = 1; k < in.operands.size(); ++k)
            d.sources.push_back(source(in.operands[k]));
        return d;
    }

    std::vector<Decoded> code_;
    std::unordered_map<std::string, int> registers_;
};

struct Thread {
    std::int64_t tid[3] = {0, 0, 0};
    std::int64_t ntid[3] = {1, 1, 1};
    std::optional<std::int64_t> nctaid[3]; // unknown unless the grid is given
    std::int64_t lane = 0;
};

struct WalkedValue {
    std::uint64_t bits = 0;
    bool known = false;
};

// The body cut into basic blocks, each with the instructions control depends
// on: the walk evaluates only those (the rest cannot change where a thread
// goes) and counts whole blocks.
struct Block {
    std::size_t start = 0, end = 0;   // [start, end) of the body
    std::vector<std::size_t> control; // instructions whose results branches read
};

std::vector<Block> basic_blocks(const std::vector<Decoded>& code, std::size_t registers)
{
    // Registers that decide a branch, and everything they are computed from.
    std::vector<bool> needed(registers, false);
    for (const Decoded& d : code)
        if ((d.op == Op::bra || d.op == Op::exit) && d.guard >= 0)
            needed[static_cast<std::size_t>(d.guard)] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (const Decoded& d : code) {
            if (!std::any_of(d.results.begin(), d.results.end(),
                             [&](int r) { return needed[static_cast<std::size_t>(r)]; }))
                continue;
            auto need = [&](int r) {
                if (r >= 0 && !needed[static_cast<std::size_t>(r)])
                    needed[static_cast<std::size_t>(r)] = grew = true;
            };
            for (const Source& s : d.sources)
                if (s.kind == Source::Kind::reg)
                    need(s.reg);
            need(d.guard);
        }
    }
    std::vector<Block> blocks;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const bool leader =
            i == 0 || code[i].op == Op::label || code[i - 1].op == Op::bra || code[i - 1].op == Op::exit;
        if (leader)
            blocks.push_back({i, i, {}});
        Block& b = blocks.back();
        b.end = i + 1;
        const Decoded& d = code[i];
        if (d.op == Op::bra || d.op == Op::exit ||
            std::any_of(d.results.begin(), d.results.end(), [&](int r) { return needed[static_cast<std::size_t>(r)]; }))
            b.control.push_back(i);
    }
    return blocks;
}

class Walker {
public:
    Walker(const Program& program, const std::vector<LoopRange>& loops)
        : program_(program), loops_(loops), blocks_(basic_blocks(program.code(), program.registers()))
    {
        block_at_.assign(program.code().size() + 1, blocks_.size());
        for (std::size_t b = 0; b < blocks_.size(); ++b)
            for (std::size_t i = blocks_[b].start; i < blocks_[b].end; ++i)
                block_at_[i] = b;
    }

    // One thread from the kernel's start to its exit, counting the blocks it
    // runs; false when it cannot be followed.
    bool run(const Thread& thread, std::vector<std::uint32_t>& block_runs, std::vector<std::uint32_t>& entries,
             std::size_t& steps_left)
    {
        const auto& code = program_.code();
        regs_.assign(program_.registers(), WalkedValue{});
        thread_ = thread;
        std::size_t b = 0;
        while (b < blocks_.size()) {
            const Block& block = blocks_[b];
            if (steps_left < block.control.size() + 1)
                return false;
            steps_left -= block.control.size() + 1;
            ++block_runs[b];
            std::size_t next = block.end; // falls through
            for (const std::size_t i : block.control) {
                const Decoded& d = code[i];
                // 1: runs, 0: skipped, -1: the guard is unknown.
                int guarded = 1;
                if (d.guard >= 0) {
                    const WalkedValue g = regs_[static_cast<std::size_t>(d.guard)];
                    guarded = g.known ? ((g.bits != 0) != d.guard_negated ? 1 : 0) : -1;
                }
                if (d.op == Op::bra) {
                    if (guarded == 1)
                        next = d.target;
                    else if (guarded == -1 && d.target <= i)
                        return false; // a loop the data ends
                } else if (d.op == Op::exit) {
                    if (guarded == 1)
                        return true;
                } else if (guarded != 0) {
                    execute(d, guarded == -1);
                }
            }
            const std::size_t last = block.end - 1;
            for (std::size_t l = 0; l < loops_.size(); ++l)
                if (!inside(last, loops_[l]) && inside(next, loops_[l]))
                    ++entries[l];
            b = block_at_[next];
        }
        return true;
    }

    [[nodiscard]] const std::vector<Block>& blocks() const { return blocks_; }

private:
    static bool inside(std::size_t at, const LoopRange& loop) { return at >= loop.head && at <= loop.latch; }

    WalkedValue read(const Source& s, const IntType& type) const
    {
        WalkedValue v;
        switch (s.kind) {
        case Source::Kind::unknown:
            return v;
        case Source::Kind::imm:
            v = {static_cast<std::uint64_t>(s.imm), true};
            break;
        case Source::Kind::reg:
            v = regs_[static_cast<std::size_t>(s.reg)];
            break;
        case Source::Kind::special: {
            const std::optional<std::int64_t> value = [&]() -> std::optional<std::int64_t> {
                switch (s.special) {
                case Special::tid_x: return thread_.tid[0];
                case Special::tid_y: return thread_.tid[1];
                case Special::tid_z: return thread_.tid[2];
                case Special::ntid_x: return thread_.ntid[0];
                case Special::ntid_y: return thread_.ntid[1];
                case Special::ntid_z: return thread_.ntid[2];
                case Special::nctaid_x: return thread_.nctaid[0];
                case Special::nctaid_y: return thread_.nctaid[1];
                case Special::nctaid_z: return thread_.nctaid[2];
                case Special::laneid: return thread_.lane;
                case Special::ctaid: return 0;
                }
                return std::nullopt;
            }();
            if (value)
                v = {static_cast<std::uint64_t>(*value), true};
            break;
        }
        }
        if (v.known && s.negated)
            v.bits = v.bits == 0 ? 1 : 0;
        if (v.known)
            v.bits = fit(v.bits, type.bits, type.is_signed);
        return v;
    }

    static bool compare(Cmp cmp, std::uint64_t a, std::uint64_t b, bool is_signed)
    {
        const auto sa = static_cast<std::int64_t>(a), sb = static_cast<std::int64_t>(b);
        switch (cmp) {
        case Cmp::eq:
            return a == b;
        case Cmp::ne:
            return a != b;
        case Cmp::lt:
            return is_signed ? sa < sb : a < b;
        case Cmp::le:
            return is_signed ? sa <= sb : a <= b;
        case Cmp::gt:
            return is_signed ? sa > sb : a > b;
        case Cmp::ge:
            return is_signed ? sa >= sb : a >= b;
        case Cmp::lo:
            return a < b;
        case Cmp::ls:
            return a <= b;
        case Cmp::hi:
            return a > b;
        case Cmp::hs:
            return a >= b;
        case Cmp::none:
            break;
        }
        return false;
    }

    // The result of an integer operation, or unknown.
    WalkedValue evaluate(const Decoded& d) const
    {
        const IntType t = d.type;
        if (!t.integer && d.op != Op::ld_param && d.op != Op::mov)
            return {};
        auto arg = [&](std::size_t k, const IntType& type) {
            return k < d.sources.size() ? read(d.sources[k], type) : WalkedValue{};
        };
        const IntType narrow = d.wide ? IntType{t.bits, t.is_signed, true} : t;
        const WalkedValue a = arg(0, narrow), b = arg(1, narrow),
                    c = arg(2, d.op == Op::mad && d.wide ? IntType{64, t.is_signed, true} : t);
        auto known = [](std::uint64_t bits) { return WalkedValue{bits, true}; };
        const auto sa = static_cast<std::int64_t>(a.bits), sb = static_cast<std::int64_t>(b.bits);
        switch (d.op) {
        case Op::ld_param:
            return d.parameter ? known(static_cast<std::uint64_t>(*d.parameter)) : WalkedValue{};
        case Op::mov:
            return d.sources.size() == 1 ? arg(0, t) : WalkedValue{};
        case Op::cvt:
            if (!d.from.integer || !t.integer)
                return {};
            return arg(0, d.from);
        case Op::setp: {
            if (!a.known || !b.known || d.cmp == Cmp::none)
                return {};
            bool r = compare(d.cmp, a.bits, b.bits, t.is_signed);
            if (d.combine != Op::other) {
                const WalkedValue p = arg(2, IntType{1, false, true});
                if (!p.known)
                    return {};
                const bool q = p.bits != 0;
                r = d.combine == Op::and_ ? (r && q) : d.combine == Op::or_ ? (r || q) : (r != q);
            }
            return known(r ? 1 : 0);
        }
        case Op::selp: {
            const WalkedValue p = arg(2, IntType{1, false, true});
            if (!p.known)
                return a.known && b.known && a.bits == b.bits ? a : WalkedValue{};
            return p.bits != 0 ? a : b;
        }
        case Op::not_:
            return a.known ? known(t.bits == 1 ? (a.bits == 0 ? 1 : 0) : ~a.bits) : WalkedValue{};
        case Op::neg:
            return a.known ? known(0 - a.bits) : WalkedValue{};
        case Op::abs:
            return a.known ? known(sa < 0 ? 0 - a.bits : a.bits) : WalkedValue{}; // unsigned: no overflow at the minimum
        default:
            break;
        }
        if (!a.known || !b.known)
            return {};
        switch (d.op) {
        case Op::add:
            return known(a.bits + b.bits);
        case Op::sub:
            return known(a.bits - b.bits);
        case Op::mul:
        case Op::mad: {
            std::uint64_t product = a.bits * b.bits;
            if (d.high) {
                if (t.bits > 32)
                    return {};
                product = static_cast<std::uint64_t>(t.is_signed ? (sa * sb) >> t.bits : (a.bits * b.bits) >> t.bits);
            }
            if (d.op == Op::mul)
                return known(product);
            return c.known ? known(product + c.bits) : WalkedValue{};
        }
        case Op::shl:
            return known(b.bits >= static_cast<std::uint64_t>(t.bits) ? 0 : a.bits << b.bits);
        case Op::shr: {
            const std::uint64_t s = std::min<std::uint64_t>(b.bits, 63);
            return known(t.is_signed ? static_cast<std::uint64_t>(sa >> s) : (b.bits >= 64 ? 0 : a.bits >> s));
        }
        case Op::and_:
            return known(a.bits & b.bits);
        case Op::or_:
            return known(a.bits | b.bits);
        case Op::xor_:
            return known(a.bits ^ b.bits);
        case Op::min:
            return known(t.is_signed ? (sa < sb ? a.bits : b.bits) : std::min(a.bits, b.bits));
        case Op::max:
            return known(t.is_signed ? (sa > sb ? a.bits : b.bits) : std::max(a.bits, b.bits));
        case Op::div:
        case Op::rem:
            if (b.bits == 0 || (t.is_signed && sb == -1))
                return {};
            if (t.is_signed)
                return known(static_cast<std::uint64_t>(d.op == Op::div ? sa / sb : sa % sb));
            return known(d.op == Op::div ? a.bits / b.bits : a.bits % b.bits);
        default:
            return {};
        }
    }

    void execute(const Decoded& d, bool maybe)
    {
        if (d.results.empty())
            return;
        WalkedValue v = d.results.size() == 1 || d.op == Op::setp ? evaluate(d) : WalkedValue{};
        if (maybe) // a guard the walk cannot decide: the old value or the new one
            v = WalkedValue{};
        regs_[static_cast<std::size_t>(d.results.front())] = v;
        for (std::size_t k = 1; k < d.results.size(); ++k) // setp's "%p|%q": q is not p
            regs_[static_cast<std::size_t>(d.results[k])] =
                d.op == Op::setp && v.known ? WalkedValue{v.bits == 0 ? 1u : 0u, true} : WalkedValue{};
    }

    const Program& program_;
    const std::vector<LoopRange>& loops_;
    std::vector<Block> blocks_;
    std::vector<std::size_t> block_at_; // the block of each position (one past: none)
    std::vector<WalkedValue> regs_;
    Thread thread_;
};

} // namespace

std::optional<ExecutionCounts> walk_threads(const PtxKernel& kernel, const ParameterValues& parameters,
                                            const BlockShape& block, const std::vector<LoopRange>& loops,
                                            const std::optional<GridShape>& grid, std::size_t step_limit)
{
    const Program program(kernel, parameters);
    Walker walker(program, loops);
    const std::int64_t bx = std::max<std::int64_t>(1, block.x), by = std::max<std::int64_t>(1, block.y),
                       bz = std::max<std::int64_t>(1, block.z);
    const std::int64_t threads = bx * by * bz;
    const std::int64_t warps = (threads + 31) / 32;
    auto thread_at = [&](std::int64_t t) {
        Thread thread;
        thread.tid[0] = t % bx;
        thread.tid[1] = (t / bx) % by;
        thread.tid[2] = t / (bx * by);
        thread.ntid[0] = bx;
        thread.ntid[1] = by;
        thread.ntid[2] = bz;
        thread.lane = t % 32;
        if (grid) {
            thread.nctaid[0] = grid->x;
            thread.nctaid[1] = grid->y;
            thread.nctaid[2] = grid->z;
        }
        return thread;
    };

    const std::size_t n = kernel.body.size();
    ExecutionCounts counts{std::vector<double>(n, 0.0), std::vector<double>(loops.size(), 0.0)};
    std::size_t steps_left = step_limit;
    const std::size_t blocks = walker.blocks().size();

    // Every warp where that is cheap (thread 0's walk times the block's lanes walked stays
    // within a tenth of the limit): warp-dependent counts are then exact. Otherwise the
    // first, middle and last warps. Thread 0's walk is kept for warp 0.
    std::vector<std::uint32_t> first_runs(blocks, 0), first_entries(loops.size(), 0);
    if (!walker.run(thread_at(0), first_runs, first_entries, steps_left))
        return std::nullopt;
    const auto per_thread = static_cast<double>(step_limit - steps_left);
    std::vector<std::int64_t> sampled_warps;
    if (per_thread * 2 * static_cast<double>(warps) <= static_cast<double>(step_limit) / 10)
        for (std::int64_t w = 0; w < warps; ++w)
            sampled_warps.push_back(w);
    else
        sampled_warps = {0, warps / 2, warps - 1};
    sampled_warps.erase(std::unique(sampled_warps.begin(), sampled_warps.end()), sampled_warps.end());

    std::vector<double> block_runs(blocks, 0.0);
    for (const std::int64_t warp : sampled_warps) {
        std::vector<std::uint32_t> warp_runs(blocks, 0), warp_entries(loops.size(), 0);
        std::vector<std::int64_t> lanes{32 * warp, std::min(32 * warp + 31, threads - 1)};
        lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
        for (const std::int64_t t : lanes) {
            std::vector<std::uint32_t> runs = first_runs, entries = first_entries;
            if (t != 0) {
                std::fill(runs.begin(), runs.end(), 0);
                std::fill(entries.begin(), entries.end(), 0);
                if (!walker.run(thread_at(t), runs, entries, steps_left))
                    return std::nullopt;
            }
            for (std::size_t i = 0; i < blocks; ++i)
                warp_runs[i] = std::max(warp_runs[i], runs[i]);
            for (std::size_t l = 0; l < loops.size(); ++l)
                warp_entries[l] = std::max(warp_entries[l], entries[l]);
        }
        for (std::size_t i = 0; i < blocks; ++i)
            block_runs[i] += warp_runs[i] / static_cast<double>(sampled_warps.size());
        for (std::size_t l = 0; l < loops.size(); ++l)
            counts.entries[l] += warp_entries[l] / static_cast<double>(sampled_warps.size());
    }
    for (std::size_t b = 0; b < blocks; ++b)
        for (std::size_t i = walker.blocks()[b].start; i < walker.blocks()[b].end; ++i)
            counts.runs[i] = kernel.body[i].is_label() ? 0.0 : block_runs[b];
    return counts;
}

} // namespace autotune
