// What a cubin says about its kernels, read from its ELF metadata with libelf: the
// per-function attributes ptxas writes into .nv.info sections, the shared-memory and
// constant-bank sections, and the machine code (.text.<function>) itself.
#pragma once

#include "compile/machine_loops.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

class CubinError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CubinFunctionInfo {
    std::string name;                   // mangled (lowered) name
    int registers = 0;                  // EIATTR_REGCOUNT
    std::int64_t frame_size = 0;        // EIATTR_FRAME_SIZE: per-thread stack, bytes, callees included
                                        // (ptxas' "cumulative stack size" where it prints one)
    std::int64_t min_stack_size = 0;    // EIATTR_MIN_STACK_SIZE
    std::optional<int> max_registers;   // EIATTR_MAXREG_COUNT: the cap ptxas applied (255 = none)
    std::optional<std::int64_t> max_threads; // EIATTR_MAX_THREADS, product of x·y·z (from .maxntid)
    std::optional<int> min_blocks;      // EIATTR_MIN_CTA_PER_SM? (from .minnctapersm) where present
    int barriers = 0;                   // EIATTR_NUM_BARRIERS (absent = 0)
    std::int64_t shared_static = 0;     // static shared memory the kernel declares, bytes, as ptxas reports it
    std::int64_t constant_bank0 = 0;    // size of .nv.constant0.<function> (parameters + driver data)
    std::int64_t code_bytes = 0;        // size of .text.<function>
    // The entry's own machine code: .text.<function> before the first subroutine ptxas
    // placed after it (a division's slow path, say), which runs only when called, and
    // without the self-branch and NOPs that close the section.
    std::int64_t entry_code_bytes = 0;
    // Backward branches in that code: the loops ptxas kept (one it unrolled fully has none).
    int entry_loops = 0;
    std::vector<MachineLoop> entry_inner_loops; // its innermost loops, in code order (machine_loops.hpp)
    std::string sass_sha256;            // SHA-256 of the .text.<function> bytes: the machine-code identity
};

// Every architecture autotune compiles for (Volta onwards) encodes one instruction in 128 bits.
inline constexpr std::int64_t machine_instruction_bytes = 16;

struct CubinInfo {
    int sm = 0;                          // e.g. 90, from the ELF header
    std::string ptxas_arguments;         // "Tool Command Line Arguments" of .note.nv.tkinfo, where present
    std::vector<CubinFunctionInfo> functions; // kernels (entry functions), in section order
};

// Throws CubinError when the bytes are not a CUDA ELF image.
[[nodiscard]] CubinInfo read_cubin(std::string_view cubin);

// The entry `name` of `cubin`; throws CubinError naming the function and listing the
// ones present when it is missing.
[[nodiscard]] const CubinFunctionInfo& find_function(const CubinInfo& cubin, std::string_view name);
// The result refers into `cubin`: a temporary would leave it dangling.
const CubinFunctionInfo& find_function(CubinInfo&& cubin, std::string_view name) = delete;

} // namespace autotune
