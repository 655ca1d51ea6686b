// The body of one kernel's PTX as a list of instructions and labels: what the time model
// counts. PTX is what NVRTC hands to ptxas, so it shows the compiler's unrolling, its
// common subexpressions and its loop structure, before register allocation.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

struct PtxInstruction {
    std::string label;                 // a label line ("$L__BB0_8"): no opcode
    std::string opcode;                // "ld.const.v2.f32", "fma.rn.f32", "bra.uni"
    std::vector<std::string> operands; // as written: "%f41", "[%rd13+8]", "{%f71, %f72}", "600"
    std::string guard;                 // "%p53" for "@%p53 bra ..."; empty when unguarded
    bool guard_negated = false;        // "@!%p53"

    [[nodiscard]] bool is_label() const { return !label.empty(); }
    // The opcode's first part: "ld" for "ld.const.v2.f32".
    [[nodiscard]] std::string_view base() const;
    // Whether the opcode has this dot-separated part: has_part("const") for "ld.const.f32".
    [[nodiscard]] bool has_part(std::string_view part) const;
    // Whether the first operand is a result: not for stores, branches, barriers and fences.
    [[nodiscard]] bool writes_first_operand() const;
};

// Registers an operand names ("%f41", "[%rd13+8]" → "%rd13", "{%f1, %f2}"), special
// registers (%tid.x, read-only and known before the launch) left out.
template <typename F>
void for_each_ptx_register(std::string_view operand, F&& f)
{
    for (std::size_t i = 0; i < operand.size(); ++i) {
        if (operand[i] != '%')
            continue;
        std::size_t j = i + 1;
        while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])) || operand[j] == '_'))
            ++j;
        if (j < operand.size() && operand[j] == '.') { // %tid.x
            i = j;
            continue;
        }
        f(operand.substr(i, j - i));
        i = j;
    }
}

// An integer immediate as PTX writes one ("600", "-114", "0x1f"); nullopt for anything else.
[[nodiscard]] std::optional<std::int64_t> ptx_integer(std::string_view text);

// The parameter a "[name_param_3]" operand reads: 3; nullopt for any other operand.
[[nodiscard]] std::optional<std::size_t> ptx_parameter_index(std::string_view operand);

// What the kernel's parameters hold at launch, in parameter order (nullopt for pointers and
// non-integers): a loop bounded by one (for k < K) then counts its real trips.
using ParameterValues = std::vector<std::optional<std::int64_t>>;

struct PtxKernel {
    std::string name;
    std::vector<PtxInstruction> body;
    int target = 0; // the module's `.target` as a compute capability (75 for sm_75); 0 when it names none
};

// The entries (.entry) of a PTX module, each with its body. Function bodies (.func)
// called from an entry are not inlined here: NVRTC inlines device functions unless told
// otherwise, and a call left in is counted as one instruction.
[[nodiscard]] std::vector<PtxKernel> parse_ptx_kernels(std::string_view ptx);

// The one entry of `ptx` whose name is `name` (mangled, as in the PTX), or the only entry
// when `name` is empty. Throws std::invalid_argument naming what was looked for.
[[nodiscard]] PtxKernel find_ptx_kernel(std::string_view ptx, std::string_view name);

} // namespace autotune
