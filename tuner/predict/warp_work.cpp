#include "predict/warp_work.hpp"

#include "predict/time_model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace autotune {
namespace {

// A data-dependent branch skips its code for some warps and not for others; with nothing
// known of the data, half the warps run it.
constexpr double data_dependent_share = 0.5;
// A loop whose trip count the PTX does not show (a bound loaded from memory, say).
constexpr double unknown_trips = 8;

// How one PTX instruction reaches the machine: its issue slots, the pipe it occupies,
// its latency (cycles until a dependent instruction may issue) and its memory traffic.
struct InstructionCost {
    double issue = 1;
    double latency = 4;
    enum class Pipe { none, fp32, fp64, fp16, integer, sfu, tensor, shared, constant, global, local, barrier } pipe =
        Pipe::integer;
    double pipe_slots = 1;   // slots on that pipe (wavefronts for memory)
    double bytes = 0;        // per warp, global loads and stores
    bool store = false;
};

// Bytes of one lane's access: the element type's size times the vector width.
double access_bytes(const PtxInstruction& in)
{
    double element = 4;
    for (const auto& [suffix, size] : std::initializer_list<std::pair<const char*, double>>{
             {"u8", 1}, {"s8", 1}, {"b8", 1}, {"u16", 2}, {"s16", 2}, {"b16", 2}, {"f16", 2}, {"bf16", 2},
             {"u64", 8}, {"s64", 8}, {"b64", 8}, {"f64", 8}, {"b128", 16}})
        if (in.has_part(suffix))
            element = size;
    const double vector = in.has_part("v8") ? 8 : in.has_part("v4") ? 4 : in.has_part("v2") ? 2 : 1;
    return element * vector;
}

bool floating(const PtxInstruction& in, const char* type) { return in.has_part(type); }

// Whether an address operand ("[d_filter+44]", "[%rd13+8]") names a register.
bool register_addressed(const PtxInstruction& in)
{
    for (const auto& operand : in.operands)
        if (!operand.empty() && operand.front() == '[')
            return operand.find('%') != std::string::npos;
    return false;
}

// The PTX counterparts of the machine code's unroll markers (machine_loops.hpp): loads and
// stores that name the global or shared space (a generic one becomes LD or ST, not a
// marker), and what ptxas makes one MUFU of: the approximations, IEEE division, roots and
// reciprocals (their slow paths are subroutines, outside the entry's code), and 32-bit
// integer division by a register (I2F, MUFU.RCP, ...). True when `in` is one.
bool count_unroll_marker(const PtxInstruction& in, UnrollMarkers& markers)
{
    const std::string_view base = in.base();
    if (base == "ld" || base == "ldu" || base == "st") {
        const bool store = base == "st";
        if (in.has_part("global"))
            ++(store ? markers.global_stores : markers.global_loads);
        else if (in.has_part("shared"))
            ++(store ? markers.shared_stores : markers.shared_loads);
        else
            return false;
        return true;
    }
    const bool wide = in.has_part("s64") || in.has_part("u64") || in.has_part("b64");
    if (base == "rcp" || base == "sqrt" || base == "rsqrt" || base == "sin" || base == "cos" || base == "ex2" ||
        base == "lg2" || base == "tanh" || ((base == "div" || base == "rem") && !wide)) {
        ++markers.multi_function;
        return true;
    }
    return false;
}

InstructionCost cost_of(const PtxInstruction& in)
{
    using Pipe = InstructionCost::Pipe;
    InstructionCost c;
    const std::string_view base = in.base();
    const bool f32 = floating(in, "f32") || floating(in, "ftz");
    const bool f64 = floating(in, "f64");
    const bool f16 = floating(in, "f16") || floating(in, "f16x2") || floating(in, "bf16") || floating(in, "bf16x2");
    auto memory = [&](Pipe pipe, double latency) {
        c.pipe = pipe;
        c.latency = latency;
        const double lane_bytes = access_bytes(in);
        c.pipe_slots = std::max(1.0, 32 * lane_bytes / 128);
        c.bytes = 32 * lane_bytes;
    };
    if (base == "ld" || base == "ldu" || base == "st") {
        c.store = base == "st";
        if (in.has_part("param")) {
            c = {.issue = 0, .latency = 0, .pipe = Pipe::none, .pipe_slots = 0};
        } else if (in.has_part("const")) {
            // An immediate address is a constant-bank operand of its consumer in SASS.
            if (!register_addressed(in))
                c = {.issue = 0, .latency = 0, .pipe = Pipe::none, .pipe_slots = 0};
            else
                c = {.issue = 1, .latency = 12, .pipe = Pipe::constant, .pipe_slots = 1};
        } else if (in.has_part("shared")) {
            memory(Pipe::shared, c.store ? 1 : 28);
            c.bytes = 0;
        } else if (in.has_part("local")) {
            memory(Pipe::local, c.store ? 1 : local_load_hit_cycles);
            c.bytes = 0;
        } else {
            memory(Pipe::global, c.store ? 1 : dram_load_cycles);
        }
        if (c.store)
            c.latency = 1;
        return c;
    }
    if (base == "cp" || base == "cp.async") {
        memory(Pipe::global, 1);
        return c;
    }
    if (base == "mov" || base == "cvta" || base == "bra" || base == "ret" || base == "exit") {
        c.issue = base == "bra" ? 1 : 0; // moves are mostly renamed away by ptxas
        c.pipe = Pipe::none;
        c.latency = base == "mov" ? 0 : 4;
        // Special registers (%tid.x, %ctaid.x) are read with S2R.
        if (base == "mov" && in.operands.size() == 2 && in.operands[1].find('.') != std::string::npos &&
            in.operands[1].front() == '%') {
            c.issue = 1;
            c.latency = 20;
        }
        return c;
    }
    if (base == "bar" || base == "barrier") {
        c.pipe = Pipe::barrier;
        c.latency = 20;
        return c;
    }
    if (base == "mma" || base == "wgmma") {
        c.pipe = Pipe::tensor;
        c.pipe_slots = 4;
        c.latency = 32;
        return c;
    }
    if (base == "shfl") {
        c.pipe = Pipe::shared;
        c.latency = 24;
        return c;
    }
    if (base == "atom" || base == "red") {
        memory(Pipe::global, 500);
        return c;
    }
    if (base == "tex" || base == "tld4" || base == "suld" || base == "sust") {
        memory(Pipe::global, 400);
        return c;
    }
    // Sequences ptxas expands: IEEE division and square root (a reciprocal on the MUFU
    // plus Newton steps), integer division by a register.
    if (base == "div" || base == "rem") {
        if (f32 || f64) {
            const bool approx = in.has_part("approx") || in.has_part("full");
            c = {.issue = approx ? 2.0 : 10.0, .latency = approx ? 20.0 : 40.0, .pipe = Pipe::sfu, .pipe_slots = 1};
        } else {
            c = {.issue = 20, .latency = 60, .pipe = Pipe::integer, .pipe_slots = 20};
        }
        return c;
    }
    if (base == "rcp" || base == "sqrt" || base == "rsqrt" || base == "sin" || base == "cos" || base == "ex2" ||
        base == "lg2" || base == "tanh") {
        const bool approx = in.has_part("approx");
        c = {.issue = approx ? 1.0 : 6.0, .latency = approx ? 16.0 : 30.0, .pipe = Pipe::sfu, .pipe_slots = 1};
        return c;
    }
    if (base == "cvt" && (f32 || f64 || f16)) {
        c.pipe = Pipe::sfu; // conversions run at the MUFU's rate on recent GPUs
        c.latency = 8;
        return c;
    }
    if (f64) {
        c.pipe = Pipe::fp64;
        c.latency = 8;
    } else if (f16) {
        c.pipe = Pipe::fp16;
    } else if (f32) {
        c.pipe = Pipe::fp32;
    }
    return c;
}

struct Loop {
    std::size_t head = 0;  // the label's position
    std::size_t latch = 0; // the backward branch's position
    double trips = unknown_trips;
    bool known = false;
    // A rotated loop (an unconditional back edge, left by a conditional branch inside, and
    // often entered in the middle, as NVVM leaves a partly unrolled loop): the code from
    // where it is entered to its exit test runs `trips` times, the rest once less.
    std::size_t entry = 0;     // where execution enters: head, or a label inside
    std::size_t exit_test = 0; // the leaving branch's position: latch, or inside
    bool rotated = false;
    bool literal_trips = false; // start and bound are in the code, not arguments: ptxas may unroll it fully

    // How often the instruction at `position` (inside the loop) runs per entry.
    [[nodiscard]] double runs_at(std::size_t position) const
    {
        if (!rotated)
            return trips;
        const bool in_counted_part = entry <= exit_test ? position >= entry && position <= exit_test
                                                        : position >= entry || position <= exit_test;
        return in_counted_part ? trips : std::max(trips - 1, 0.0);
    }
};

class Analysis {
public:
    Analysis(const PtxKernel& kernel, const ParameterValues& parameters, const std::optional<BlockShape>& block,
             const std::optional<GridShape>& grid)
        : body_(kernel.body), parameters_(parameters)
    {
        if (block)
            access_costs(kernel, *block);
        for (std::size_t i = 0; i < body_.size(); ++i)
            if (body_[i].is_label())
                labels_[body_[i].label] = i;
        find_loops();
        weigh_conditional_code();
        if (block)
            walk_loops(kernel, *block, grid);
    }

    WarpWork run()
    {
        WarpWork work;
        std::vector<double> weight(body_.size(), 1.0);
        if (walked_)
            weight = walked_->runs;
        else
            for (const Loop& loop : loops_)
                for (std::size_t i = loop.head; i <= loop.latch; ++i)
                    weight[i] *= loop.runs_at(i);
        for (const Loop& loop : loops_)
            work.unknown_trip_counts += loop.known ? 0 : 1;
        const std::vector<std::size_t> bounds = phase_bounds(weight);
        if (bounds.size() > 2)
            work.phases.resize(bounds.size() - 1);
        std::size_t phase = 0;
        for (std::size_t i = 0; i < body_.size(); ++i) {
            while (phase + 2 < bounds.size() && i >= bounds[phase + 1])
                ++phase;
            if (body_[i].is_label())
                continue;
            const InstructionCost c = cost(i);
            const double w = weight[i] * share_[i];
            count(work, i, c, w);
            if (!work.phases.empty())
                count(work.phases[phase], i, c, w);
        }
        describe_loops(work, weight);
        std::unordered_map<std::string, double> ready;
        work.latency_cycles = simulate(0, body_.size(), ready, 0.0);
        // Each phase starts when the barrier before it releases the block: its chain is its own.
        for (std::size_t p = 0; p < work.phases.size(); ++p) {
            std::unordered_map<std::string, double> phase_ready;
            work.phases[p].latency_cycles = simulate(bounds[p], bounds[p + 1], phase_ready, 0.0);
        }
        return work;
    }

private:
    // Each loop's body once, its trips and the loop it sits in (loops_ is outer first);
    // its markers and what one warp runs of it.
    void describe_loops(WarpWork& work, const std::vector<double>& weight) const
    {
        for (std::size_t l = 0; l < loops_.size(); ++l) {
            const Loop& loop = loops_[l];
            PtxLoop described;
            for (std::size_t i = loop.head; i <= loop.latch; ++i) {
                if (body_[i].is_label())
                    continue;
                const double issue = cost(i).issue;
                const double runs = weight[i] * share_[i];
                described.static_issue += issue;
                described.issue += runs * issue;
                if (count_unroll_marker(body_[i], described.markers))
                    described.marker_runs += runs;
            }
            described.trips = loop.trips;
            described.literal_trips = loop.known && loop.literal_trips;
            for (std::size_t outer = l; outer-- > 0;)
                if (loops_[outer].head <= loop.head && loop.latch <= loops_[outer].latch) {
                    described.parent = static_cast<int>(outer);
                    work.loops[outer].innermost = false;
                    break;
                }
            work.loops.push_back(described);
        }
    }

    void count(WarpCounts& work, std::size_t i, const InstructionCost& c, double w) const
    {
        work.issue += w * c.issue;
        work.static_issue += c.issue;
        using Pipe = InstructionCost::Pipe;
        const double slots = w * c.pipe_slots;
        switch (c.pipe) {
        case Pipe::fp32: work.fp32 += slots; break;
        case Pipe::fp64: work.fp64 += slots; break;
        case Pipe::fp16: work.fp16 += slots; break;
        case Pipe::integer: work.integer += slots; break;
        case Pipe::sfu: work.sfu += slots; break;
        case Pipe::tensor: work.tensor += slots; break;
        case Pipe::shared:
            work.shared_wavefronts += slots;
            if (body_[i].base() != "shfl") // a shuffle moves registers, not through the LD/ST units
                work.shared_instructions += w;
            break;
        case Pipe::constant: work.constant_loads += slots; break;
        case Pipe::global:
            work.global_wavefronts += slots;
            work.lsu_instructions += w;
            (c.store ? work.global_store_bytes : work.global_load_bytes) += w * c.bytes;
            break;
        case Pipe::local:
            work.local_wavefronts += slots;
            if (!c.store)
                work.local_loads += slots;
            work.lsu_instructions += w;
            work.local_instructions += w;
            break;
        case Pipe::barrier: work.barriers += w; break;
        case Pipe::none: break;
        }
    }

    // Where the block's phases begin and end: 0, the position after each barrier that runs
    // outside every loop, and the body's end. Inside a loop the barriers repeat, and a
    // block's trips drift against the other blocks' (one fills while another computes),
    // so such a loop stays one stretch of work.
    [[nodiscard]] std::vector<std::size_t> phase_bounds(const std::vector<double>& weight) const
    {
        std::vector<std::size_t> bounds{0};
        for (std::size_t i = 0; i < body_.size(); ++i) {
            if (body_[i].is_label() || weight[i] <= 0 || cost(i).pipe != InstructionCost::Pipe::barrier)
                continue;
            const bool in_loop = std::any_of(loops_.begin(), loops_.end(),
                                             [&](const Loop& l) { return l.head <= i && i <= l.latch; });
            if (!in_loop && i + 1 < body_.size())
                bounds.push_back(i + 1);
        }
        bounds.push_back(body_.size());
        return bounds;
    }

    // Where sample threads can be walked through the code (thread_walk.hpp), their counts
    // replace the loops' estimated trips: each loop runs as often per entry as its
    // backward branch ran (plus the last trip, which leaves before an unconditional one).
    void walk_loops(const PtxKernel& kernel, const BlockShape& block, const std::optional<GridShape>& grid)
    {
        std::vector<LoopRange> ranges;
        for (const Loop& loop : loops_)
            ranges.push_back({loop.head, loop.latch});
        walked_ = walk_threads(kernel, parameters_, block, ranges, grid);
        if (!walked_)
            return;
        for (std::size_t l = 0; l < loops_.size(); ++l) {
            Loop& loop = loops_[l];
            const double entries = walked_->entries[l];
            const double back_edges = walked_->runs[loop.latch];
            loop.trips = entries <= 0 ? 0 : (back_edges + (body_[loop.latch].guard.empty() ? entries : 0)) / entries;
            loop.known = true;
            loop.rotated = false;
        }
    }

    InstructionCost cost(std::size_t i) const { return i < costs_.size() && costs_[i] ? *costs_[i] : cost_of(body_[i]); }

    // Global and shared accesses whose lanes' addresses are known: the sectors and bank
    // conflicts of the first warp, in place of the coalesced, conflict-free default.
    void access_costs(const PtxKernel& kernel, const BlockShape& block)
    {
        using Pipe = InstructionCost::Pipe;
        const auto lanes = lane_addresses(kernel);
        // The architecture the PTX is for decides what a shared conflict costs.
        const PipeRates rates = pipe_rates(kernel.target);
        const int replay_pass_clocks = rates.shared_conflicts_replay ? static_cast<int>(rates.lsu_clocks_per_access) : 0;
        costs_.resize(body_.size());
        for (std::size_t i = 0; i < body_.size(); ++i) {
            if (!lanes[i])
                continue;
            InstructionCost c = cost_of(body_[i]);
            const int bytes = static_cast<int>(access_bytes(body_[i]));
            if (c.pipe == Pipe::shared) {
                c.pipe_slots = shared_access_wavefronts(*lanes[i], block, bytes, replay_pass_clocks);
            } else if (c.pipe == Pipe::global) {
                // L1 passes one 128-byte line's sectors a wavefront: a warp's access takes a
                // wavefront per four sectors, and at least one per line it touches (a narrow
                // block's rows, each in a line of its own).
                const GlobalFootprint touched = global_footprint(*lanes[i], block, bytes);
                c.pipe_slots = std::max({1.0, std::ceil(touched.sectors / 4.0), static_cast<double>(touched.lines)});
                c.bytes = 32.0 * touched.sectors;
            } else {
                continue;
            }
            costs_[i] = c;
        }
    }

    // The last instruction in [from, to) that writes `reg`, searching backwards.
    const PtxInstruction* definition(std::string_view reg, std::size_t from, std::size_t to) const
    {
        for (std::size_t i = to; i-- > from;) {
            const PtxInstruction& in = body_[i];
            if (!in.is_label() && !in.operands.empty() && in.writes_first_operand() && in.operands.front() == reg)
                return &in;
        }
        return nullptr;
    }

    // The constant value of `operand` at `before`: an immediate, or a register last set
    // from one through a chain of moves.
    // With `arguments` false, only a value the code itself holds (what ptxas sees too).
    std::optional<std::int64_t> constant_value(std::string_view operand, std::size_t before, int depth = 0,
                                               bool arguments = true) const
    {
        if (const auto value = ptx_integer(operand))
            return value;
        if (depth > 4 || operand.empty() || operand.front() != '%')
            return std::nullopt;
        const PtxInstruction* def = definition(operand, 0, before);
        if (def != nullptr && def->base() == "ld" && def->has_part("param") && def->operands.size() == 2) {
            const auto index = ptx_parameter_index(def->operands[1]);
            if (arguments && index && *index < parameters_.size())
                return parameters_[*index];
            return std::nullopt;
        }
        if (def != nullptr && def->base() == "cvt" && def->operands.size() == 2) // widened: cvt.s64.s32
            return constant_value(def->operands[1], static_cast<std::size_t>(def - body_.data()), depth + 1, arguments);
        if (def == nullptr || def->base() != "mov" || def->operands.size() != 2)
            return std::nullopt;
        return constant_value(def->operands[1], static_cast<std::size_t>(def - body_.data()), depth + 1, arguments);
    }

    // Trip count of a loop from its exit test: "@%p bra HEAD" after "setp.ne.s32 %p, %r,
    // 600" with "add.s32 %r, %r, 2" in the body and %r entering as 0 → 300.
    void estimate_trips(Loop& loop) const
    {
        const PtxInstruction& latch = body_[loop.latch];
        if (latch.guard.empty()) {
            estimate_rotated_trips(loop); // an unconditional back edge: left from inside
            return;
        }
        const PtxInstruction* test = definition(latch.guard, loop.head, loop.latch);
        if (test == nullptr || test->base() != "setp" || test->operands.size() < 3)
            return;
        for (int side = 1; side <= 2; ++side) {
            const std::string& induction = test->operands[side];
            const std::string& other = test->operands[3 - side];
            const PtxInstruction* step_def = definition(induction, loop.head, loop.latch);
            // A mov copies one operand, an add or sub takes two: anything else (a user's
            // hand-written or broken PTX) is no induction step this reads.
            if (step_def == nullptr ||
                (step_def->base() != "add" && step_def->base() != "sub" && step_def->base() != "mov") ||
                step_def->operands.size() != (step_def->base() == "mov" ? 2u : 3u))
                continue;
            // The tested value is the induction variable itself (add r, r, step before the
            // test), or the next value computed beside it (t = r + offset, the test on t, r
            // stepped at the end of the body).
            std::string variable = induction;
            std::int64_t offset = 0;
            const PtxInstruction* stepper = step_def;
            bool tested_before_step = false;
            if (step_def->base() == "mov") {
                // r = next at the head, next = r + step further down: the test sees r, the
                // value before this trip's step (start, start + step, ...).
                const std::string& next = step_def->operands[1];
                stepper = definition(next, loop.head, loop.latch);
                if (stepper == nullptr || (stepper->base() != "add" && stepper->base() != "sub") ||
                    stepper->operands.size() != 3 || stepper->operands[1] != induction)
                    continue;
                variable = next;
                tested_before_step = true;
            } else if (step_def->operands[1] != induction) {
                const auto added = ptx_integer(step_def->operands[2]);
                variable = step_def->operands[1];
                stepper = definition(variable, loop.head, loop.latch);
                if (!added || stepper == nullptr || (stepper->base() != "add" && stepper->base() != "sub") ||
                    stepper->operands.size() != 3 || stepper->operands[1] != variable)
                    continue;
                offset = step_def->base() == "sub" ? -*added : *added;
            }
            auto step = ptx_integer(stepper->operands[2]);
            if (!step || *step == 0)
                continue;
            if (stepper->base() == "sub")
                step = -*step;
            const auto bound = constant_value(other, loop.head);
            if (!bound)
                continue;
            // Where the induction variable starts: its value entering the loop, or 0 when it
            // comes from the launch (threadIdx.y in a strided loop), which makes the estimate
            // the average over threads.
            const auto start = constant_value(variable, loop.head).value_or(0);
            const double steps = static_cast<double>(*step);
            const double trips = tested_before_step ? std::ceil(static_cast<double>(*bound - start) / steps)
                                 : variable == induction
                                     ? std::ceil(static_cast<double>(*bound - start) / steps)
                                     : std::ceil(static_cast<double>(*bound - start - offset) / steps) + 1;
            if (trips >= 1 && trips < 1e9) {
                loop.trips = trips;
                loop.known = true;
                loop.literal_trips = constant_value(other, loop.head, 0, false).has_value() &&
                                     constant_value(variable, loop.head, 0, false).has_value();
            }
            return;
        }
    }

    // A loop with an unconditional back edge, left by one conditional branch inside:
    // "@%p bra OUT" after "setp.eq.s32 %p, %r, 12", with "add.s32 %r, %r, 4" somewhere in
    // the loop and %r entering as 0. Entered in the middle (a branch from before the loop
    // to a label inside), the step may come after the test in a trip: the test then sees
    // 0, 4, 8, 12 and the loop runs 4 times to it, 3 times past it. The trip count is how
    // often the test runs; anything else stays unknown.
    void estimate_rotated_trips(Loop& loop) const
    {
        std::optional<std::size_t> exit;
        for (std::size_t i = loop.head + 1; i < loop.latch; ++i) {
            const PtxInstruction& in = body_[i];
            if (in.is_label() || in.base() != "bra" || in.operands.empty())
                continue;
            const auto target = labels_.find(in.operands.front());
            if (target == labels_.end() || (target->second >= loop.head && target->second <= loop.latch))
                continue;
            if (in.guard.empty() || exit)
                return; // left unconditionally, or more than one way out
            exit = i;
        }
        if (!exit)
            return;
        std::size_t entry = loop.head;
        for (std::size_t i = 0; i < body_.size(); ++i) {
            if (i >= loop.head && i <= loop.latch)
                continue;
            const PtxInstruction& in = body_[i];
            if (in.is_label() || in.base() != "bra" || in.operands.empty())
                continue;
            const auto target = labels_.find(in.operands.front());
            if (target != labels_.end() && target->second > loop.head && target->second <= loop.latch) {
                if (entry != loop.head && entry != target->second)
                    return; // entered in more than one place
                entry = target->second;
            }
        }
        const PtxInstruction& leave = body_[*exit];
        const PtxInstruction* test = definition(leave.guard, loop.head, *exit);
        if (test == nullptr || test->base() != "setp" || test->operands.size() < 3)
            return;
        const std::size_t test_at = static_cast<std::size_t>(test - body_.data());
        for (int side = 1; side <= 2; ++side) {
            const std::string& variable = test->operands[side];
            const PtxInstruction* stepper = definition(variable, loop.head, loop.latch + 1);
            if (stepper == nullptr || (stepper->base() != "add" && stepper->base() != "sub") ||
                stepper->operands.size() != 3 || stepper->operands[1] != variable)
                continue;
            auto step = ptx_integer(stepper->operands[2]);
            const auto bound = constant_value(test->operands[3 - side], loop.head);
            const auto start = constant_value(variable, loop.head);
            if (!step || *step == 0 || !bound || !start)
                return;
            if (stepper->base() == "sub")
                step = -*step;
            // Execution order within a trip starts at the entry and wraps at the latch.
            const auto order = [&](std::size_t position) {
                return position >= entry ? position - entry : position + (loop.latch + 1 - entry);
            };
            const std::size_t step_at = static_cast<std::size_t>(stepper - body_.data());
            const std::int64_t first = *start + (order(step_at) < order(test_at) ? *step : 0);
            const auto leaves = [&](std::int64_t value) {
                const std::int64_t a = side == 1 ? value : *bound, b = side == 1 ? *bound : value;
                bool holds = false;
                if (test->has_part("eq")) holds = a == b;
                else if (test->has_part("ne")) holds = a != b;
                else if (test->has_part("lt") || test->has_part("lo")) holds = a < b;
                else if (test->has_part("le") || test->has_part("ls")) holds = a <= b;
                else if (test->has_part("gt") || test->has_part("hi")) holds = a > b;
                else if (test->has_part("ge") || test->has_part("hs")) holds = a >= b;
                else return std::optional<bool>();
                return std::optional<bool>(holds != leave.guard_negated);
            };
            constexpr std::int64_t most_trips = 1'000'000;
            for (std::int64_t n = 1; n <= most_trips; ++n) {
                const auto out = leaves(first + (n - 1) * *step);
                if (!out)
                    return; // a comparison this does not read
                if (*out) {
                    loop.trips = static_cast<double>(n);
                    loop.known = true;
                    loop.rotated = true;
                    loop.entry = entry;
                    loop.exit_test = *exit;
                    return;
                }
            }
            return;
        }
    }

    void find_loops()
    {
        for (std::size_t i = 0; i < body_.size(); ++i) {
            const PtxInstruction& in = body_[i];
            if (in.base() != "bra" || in.operands.empty())
                continue;
            const auto target = labels_.find(in.operands.front());
            if (target == labels_.end() || target->second > i)
                continue;
            Loop loop{target->second, i};
            estimate_trips(loop);
            loops_.push_back(loop);
        }
        // Outer loops first: the largest latch for the earliest head.
        std::sort(loops_.begin(), loops_.end(), [](const Loop& a, const Loop& b) {
            return a.head != b.head ? a.head < b.head : a.latch > b.latch;
        });
    }

    // Whether a predicate comes from the data (a floating-point compare, or logic over
    // such compares) rather than from indices and sizes (bounds checks, which nearly every
    // warp passes alike).
    bool data_dependent(std::string_view predicate, std::size_t before, int depth = 0) const
    {
        if (depth > 6)
            return false;
        const PtxInstruction* def = definition(predicate, 0, before);
        if (def == nullptr)
            return false;
        const std::size_t at = static_cast<std::size_t>(def - body_.data());
        if (def->base() == "setp")
            return def->has_part("f32") || def->has_part("f64") || def->has_part("f16");
        bool any = false;
        for (std::size_t k = 1; k < def->operands.size(); ++k)
            if (!def->operands[k].empty() && def->operands[k].front() == '%')
                any = any || data_dependent(def->operands[k], at, depth + 1);
        return any;
    }

    // share_[i]: the fraction of warps that run instruction i, from the forward branches
    // that skip it.
    void weigh_conditional_code()
    {
        share_.assign(body_.size(), 1.0);
        for (std::size_t i = 0; i < body_.size(); ++i) {
            const PtxInstruction& in = body_[i];
            if (in.base() != "bra" || in.guard.empty() || in.operands.empty())
                continue;
            const auto target = labels_.find(in.operands.front());
            if (target == labels_.end() || target->second < i || !data_dependent(in.guard, i))
                continue;
            for (std::size_t k = i + 1; k < target->second; ++k)
                share_[k] *= data_dependent_share;
        }
    }

    // Cycles one warp spends in [begin, end) as ptxas schedules it (which reorders freely
    // within straight-line code): at least its issue slots, and at least its longest chain
    // of dependent results, each waiting for its operands' latencies. A loop inside is a
    // block of its own once its inputs are ready: trips × (the larger of a trip's slots
    // and the chain a trip carries into the next); what it writes is ready when it ends.
    double simulate(std::size_t begin, std::size_t end, std::unordered_map<std::string, double>& ready, double start,
                    bool loop_body = false)
    {
        double issued = start;
        double barrier_floor = start; // when the last barrier released the block
        std::set<std::string> written, carried; // carried: read before this region writes it
        auto ready_at = [&](std::string_view reg) {
            const auto it = ready.find(std::string(reg));
            return it == ready.end() ? start : it->second;
        };
        for (std::size_t i = begin; i < end; ++i) {
            const auto loop = std::find_if(loops_.begin(), loops_.end(), [&](const Loop& l) {
                return l.head == i && l.latch < end && !(l.head == begin && l.latch + 1 == end);
            });
            if (loop != loops_.end()) {
                double entry = issued;
                for (std::size_t k = loop->head; k <= loop->latch; ++k)
                    for (const auto& operand : body_[k].operands)
                        for_each_ptx_register(operand, [&](std::string_view reg) { entry = std::max(entry, ready_at(reg)); });
                std::unordered_map<std::string, double> inner;
                const double body = simulate(loop->head, loop->latch + 1, inner, 0.0, true);
                issued = entry + loop->trips * body;
                for (std::size_t k = loop->head; k <= loop->latch; ++k)
                    if (!body_[k].is_label() && body_[k].writes_first_operand() && !body_[k].operands.empty())
                        for_each_ptx_register(body_[k].operands.front(), [&](std::string_view reg) {
                            ready[std::string(reg)] = issued;
                            written.insert(std::string(reg));
                        });
                i = loop->latch;
                continue;
            }
            const PtxInstruction& in = body_[i];
            if (in.is_label() || (walked_ && walked_->runs[i] == 0))
                continue; // a label, or code no sampled thread ran
            const InstructionCost c = cost(i);
            if (c.pipe == InstructionCost::Pipe::barrier) {
                // The block waits here until every access before the barrier is done (a
                // store to shared memory waits for the load it stores): nothing after it
                // starts earlier. The dependence runs through memory, which the registers'
                // chains do not see.
                for (const auto& [reg, at] : ready)
                    barrier_floor = std::max(barrier_floor, at);
                barrier_floor = std::max(barrier_floor, issued);
                issued = barrier_floor;
            }
            double operands_ready = std::max(start, barrier_floor);
            const bool writes = in.writes_first_operand();
            for (std::size_t k = writes ? 1 : 0; k < in.operands.size(); ++k)
                for_each_ptx_register(in.operands[k], [&](std::string_view reg) {
                    if (!written.count(std::string(reg)))
                        carried.insert(std::string(reg));
                    operands_ready = std::max(operands_ready, ready_at(reg));
                });
            if (!in.guard.empty())
                operands_ready = std::max(operands_ready, ready_at(in.guard));
            issued += share_[i] * c.issue;
            if (writes && !in.operands.empty())
                for_each_ptx_register(in.operands.front(), [&](std::string_view reg) {
                    ready[std::string(reg)] = operands_ready + c.latency;
                    written.insert(std::string(reg));
                });
        }
        // A trip ends when its last result is ready: ptxas reorders within a trip, not across
        // trips (a warp issues in order, and a store waiting on this trip's load holds back
        // the next trip's loads). The kernel is done when its last result is.
        (void)loop_body;
        double done = issued;
        for (const auto& [reg, at] : ready)
            done = std::max(done, at);
        return done - start;
    }

    const std::vector<PtxInstruction>& body_;
    const ParameterValues& parameters_;
    std::vector<std::optional<InstructionCost>> costs_; // where the lanes' addresses say more
    std::map<std::string, std::size_t> labels_;
    std::vector<Loop> loops_;
    std::vector<double> share_;
    std::optional<ExecutionCounts> walked_;
};

} // namespace

namespace {

// `accesses` 4-byte spill accesses per thread, of which `loads` are loads, each run `runs` times.
void add_spill_traffic(WarpCounts& work, double accesses, double loads, double runs)
{
    work.local_wavefronts += accesses * runs; // 32 lanes x 4 bytes: one wavefront each
    work.local_loads += loads * runs;
    work.lsu_instructions += accesses * runs;
    work.local_instructions += accesses * runs;
    work.issue += accesses * runs;
    work.latency_cycles += loads * runs * local_load_hit_cycles;
}

} // namespace

void add_spills(WarpWork& work, std::int64_t spill_store_bytes, std::int64_t spill_load_bytes)
{
    const double accesses = static_cast<double>(spill_store_bytes + spill_load_bytes) / 4.0; // 4-byte spills
    if (accesses <= 0)
        return;
    const double loads = static_cast<double>(spill_load_bytes) / 4.0;
    // The PTX does not show where ptxas spills: each phase takes its share of the code's runs.
    for (WarpCounts& phase : work.phases)
        add_spill_traffic(phase, accesses, loads, work.static_issue > 0 ? phase.issue / work.static_issue : 0.0);
    add_spill_traffic(work, accesses, loads, work.static_issue > 0 ? work.issue / work.static_issue : 1.0);
}

void keep_local_in_registers(WarpWork& work)
{
    const auto drop = [](WarpCounts& c) {
        c.lsu_instructions -= c.local_instructions;
        c.local_instructions = c.local_wavefronts = c.local_loads = 0;
    };
    for (WarpCounts& phase : work.phases)
        drop(phase);
    drop(work);
}

namespace {

// The PTX's issue slots each once, as ptxas would have them had it unrolled `unrolled` of
// its loops fully: innermost first (a loop whose inner loops are all unrolled), only those
// whose trips the code fixes, the smallest unrolled body first, as ptxas' size limit favours.
double static_issue_unrolled(const WarpWork& work, int unrolled)
{
    const std::vector<PtxLoop>& loops = work.loops;
    const std::size_t n = loops.size();
    std::vector<bool> is_unrolled(n, false);
    // Each loop's body with its inner loops' copies, and whether an inner loop is kept; one
    // pass from the innermost (loops are outer first, so an inner loop comes after its parent).
    std::vector<double> body(n);
    std::vector<bool> keeps_inner(n);
    const auto measure = [&] {
        for (std::size_t l = 0; l < n; ++l) {
            body[l] = loops[l].static_issue;
            keeps_inner[l] = false;
        }
        double total = work.static_issue;
        for (std::size_t l = n; l-- > 0;) {
            const double in_place = is_unrolled[l] ? loops[l].trips * body[l] : body[l];
            double& around = loops[l].parent >= 0 ? body[static_cast<std::size_t>(loops[l].parent)] : total;
            around += in_place - loops[l].static_issue;
            if (loops[l].parent >= 0 && !is_unrolled[l])
                keeps_inner[static_cast<std::size_t>(loops[l].parent)] = true;
        }
        return total;
    };
    for (int round = 0; round < unrolled; ++round) {
        measure();
        std::optional<std::size_t> pick;
        for (std::size_t l = 0; l < n; ++l)
            if (!is_unrolled[l] && loops[l].literal_trips && !keeps_inner[l] &&
                (!pick || loops[l].trips * body[l] < loops[*pick].trips * body[*pick]))
                pick = l;
        if (!pick)
            break;
        is_unrolled[*pick] = true;
    }
    return measure();
}

// count_machine_code's count by the innermost loops' own code, as a factor on the PTX's
// issue; nullopt where the markers do not say how the loops were written out.
std::optional<double> expansion_by_markers(const WarpWork& work, double machine_instructions,
                                           const std::vector<MachineLoop>& inner_loops)
{
    if (work.issue <= 0)
        return std::nullopt;
    UnrollMarkers ptx, machine;
    double marker_runs = 0, loop_issue = 0, loop_static = 0, loop_instructions = 0;
    for (const PtxLoop& loop : work.loops)
        if (loop.innermost && loop.markers.total() > 0) {
            ptx += loop.markers;
            marker_runs += loop.marker_runs;
            loop_issue += loop.issue;
            loop_static += loop.static_issue;
        }
    for (const MachineLoop& loop : inner_loops)
        if (loop.markers.total() > 0) {
            machine += loop.markers;
            loop_instructions += static_cast<double>(loop.instructions);
        }
    if (ptx.total() == 0 || machine.total() == 0)
        return std::nullopt;
    // Each kind written out the same number of times over, or the loops are not the same.
    std::optional<double> times;
    const auto in_ptx_by_kind = ptx.by_kind(), in_machine_by_kind = machine.by_kind();
    for (std::size_t k = 0; k < in_ptx_by_kind.size(); ++k) {
        const int in_ptx = in_ptx_by_kind[k], in_machine = in_machine_by_kind[k];
        if ((in_ptx == 0) != (in_machine == 0))
            return std::nullopt;
        if (in_ptx == 0)
            continue;
        const double ratio = static_cast<double>(in_machine) / in_ptx;
        if (times && std::abs(ratio / *times - 1) > 1e-9)
            return std::nullopt;
        times = ratio;
    }
    const double in_loops = marker_runs * loop_instructions / machine.total();
    const double rest_machine = machine_instructions - loop_instructions;
    const double rest_ptx = work.static_issue - loop_static;
    const double rest_ratio = rest_machine > 0 && rest_ptx > 0 ? rest_machine / rest_ptx
                                                              : machine_instructions / work.static_issue;
    return (in_loops + rest_ratio * std::max(0.0, work.issue - loop_issue)) / work.issue;
}

} // namespace

void count_machine_code(WarpWork& work, double machine_instructions, int machine_loops,
                        const std::vector<MachineLoop>& inner_loops)
{
    if (machine_instructions <= 0 || work.static_issue <= 0)
        return;
    // Fewer loops in the machine code than in the PTX: ptxas unrolled some fully, and their
    // copies are code it made, not code that runs more often.
    const int unrolled = static_cast<int>(work.loops.size()) - machine_loops;
    const double ptx_static = unrolled > 0 ? static_issue_unrolled(work, unrolled) : work.static_issue;
    double expansion = machine_instructions / ptx_static;
    if (unrolled <= 0)
        if (const auto by_loops = expansion_by_markers(work, machine_instructions, inner_loops))
            expansion = *by_loops;
    for (WarpCounts& phase : work.phases) {
        phase.issue *= expansion;
        phase.static_issue *= expansion;
    }
    work.issue *= expansion;
    work.static_issue *= expansion;
}

WarpWork analyse_warp_work(const PtxKernel& kernel, const ParameterValues& parameters,
                           const std::optional<BlockShape>& block, const std::optional<GridShape>& grid)
{
    return Analysis(kernel, parameters, block, grid).run();
}

} // namespace autotune
