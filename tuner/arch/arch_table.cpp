#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace autotune {
namespace {

constexpr std::int64_t KiB = 1024; // the Guide's "KB" is 1024 bytes ("KB and K units ... correspond to 1024")

// Where the numbers come from. The CUDA 13 Programming Guide no longer lists 7.0 (CUDA 13
// dropped Volta) and has never listed 8.8; those two entries say what they follow instead.
constexpr const char* guide13 =
    "CUDA Programming Guide (CUDA 13), section 5.1 Compute Capabilities > 5.1.3 Features and Technical "
    "Specifications: Table 30 \"Device and Streaming Multiprocessor (SM) Information per Compute Capability\" "
    "(threads, warps and blocks per SM; warp size) and Table 31 \"Memory Information per Compute Capability\" "
    "(registers, shared memory per SM and per block), "
    "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/compute-capabilities.html; "
    "reserved shared memory per block = the difference between Table 31's per-SM and per-block maxima "
    "(also CCCL cuda/__device/arch_traits.h, reserved_shared_memory_per_block)";

constexpr const char* guide129 =
    "CUDA C++ Programming Guide v12.9 (the CUDA 13 Guide dropped 7.0), Features and Technical Specifications: "
    "table \"Technical Specifications per Compute Capability\", column 7.0, "
    "https://docs.nvidia.com/cuda/archive/12.9.0/cuda-c-programming-guide/index.html"
    "#features-and-technical-specifications; no shared memory is reserved per block before 8.0 "
    "(CCCL arch_traits<sm_70>, cuda_occupancy.h adds reservedSharedMemPerBlock only for major >= 8)";

constexpr const char* cccl88 =
    "CCCL libcudacxx cuda/__device/arch_traits.h: arch_traits<sm_88> is arch_traits<sm_86> with the compute "
    "capability changed; cross-checked against /usr/local/cuda/include/cuda_occupancy.h (CUDA 13.0)";

// One disagreement common to every entry: the occupancy header lets a kernel use one more
// register per thread than the Guide allows. It only matters for rejecting a kernel.
constexpr const char* registers_note =
    "cuda_occupancy.h (CUDA 13.0, cudaOccRegAllocationMaxPerThread) accepts up to 256 registers per thread; "
    "the Guide and CCCL say 255; we follow the Guide.";

std::string note(const std::string& specific)
{
    return specific.empty() ? std::string(registers_note) : specific + " " + registers_note;
}

// Built once. Per-block limits common to every architecture: 48 KB static/default shared
// memory per block, 64 K registers per block, 1024 threads per block, warp size 32.
std::vector<ArchSpec> build_arch_table()
{
    return {
        {.compute_capability = 70,
         .name = "sm_70",
         .example_gpus = "V100, TITAN V, Quadro GV100",
         .max_threads_per_sm = 2048,
         .max_blocks_per_sm = 32,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 96 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 96 * KiB,
         .reserved_shared_per_block = 0,
         .nvrtc_compiles = false, // NVRTC 13 compiles for 7.5 and up; kept for the occupancy calculator
         .source = guide129,
         .note = note("Not in the CUDA 13 Guide; the 12.9 Guide, CCCL arch_traits<sm_70> and cuda_occupancy.h "
                      "(32 blocks/SM, shared memory up to 96 KB) agree.")},
        {.compute_capability = 75,
         .name = "sm_75",
         .example_gpus = "T4, GeForce RTX 2080 Ti, Quadro RTX 6000",
         .max_threads_per_sm = 1024,
         .max_blocks_per_sm = 16,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 64 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 64 * KiB, // Table 31: 64 KB per block = per SM, nothing reserved
         .reserved_shared_per_block = 0,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 80,
         .name = "sm_80",
         .example_gpus = "A100, A30",
         .max_threads_per_sm = 2048,
         .max_blocks_per_sm = 32,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 164 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 163 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 86,
         .name = "sm_86",
         .example_gpus = "A10, A40, GeForce RTX 3090, RTX A6000",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 16,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 100 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 99 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 87,
         .name = "sm_87",
         .example_gpus = "Jetson AGX Orin, Jetson Orin NX, Jetson Orin Nano",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 16,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 164 * KiB, // 8.0's shared memory with 8.6's thread and block limits
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 163 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 88,
         .name = "sm_88",
         .example_gpus = "none named by NVIDIA (not on developer.nvidia.com/cuda-gpus)",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 16,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 100 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 99 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = cccl88,
         .note = note("NOT in the Programming Guide's tables, and NVIDIA names no GPU for 8.8: these are CCCL's "
                      "numbers, which copy 8.6. cuda_occupancy.h agrees (16 blocks/SM; the 8.6 shared-memory "
                      "carveouts, up to 100 KB). Not checked against a datasheet or a device.")},
        {.compute_capability = 89,
         .name = "sm_89",
         .example_gpus = "L4, L40, L40S, GeForce RTX 4090, RTX 6000 Ada",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 24,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 100 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 99 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 90,
         .name = "sm_90",
         .example_gpus = "H100, H200, GH200",
         .max_threads_per_sm = 2048,
         .max_blocks_per_sm = 32,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 228 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 227 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 100,
         .name = "sm_100",
         .example_gpus = "B200, GB200",
         .max_threads_per_sm = 2048,
         .max_blocks_per_sm = 32,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 228 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 227 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("CCCL's arch_traits<sm_100> starts from __common_arch_traits(arch_id::sm_90), so its "
                      "arch_id and compute_capability fields read 9.0; the limits themselves match the Guide.")},
        {.compute_capability = 103,
         .name = "sm_103",
         .example_gpus = "B300, GB300",
         .max_threads_per_sm = 2048,
         .max_blocks_per_sm = 32,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 228 * KiB, // Table 31 gives one "10.x" column
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 227 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("Table 30 has its own 10.3 column; Table 31 a shared \"10.x\" column. CCCL copies 10.0; "
                      "cuda_occupancy.h gives 32 blocks/SM (its default for 10.x) and 228 KB.")},
        {.compute_capability = 110,
         .name = "sm_110",
         .example_gpus = "Jetson T5000, Jetson T4000 (Jetson AGX Thor; sm_101 before CUDA 13)",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 24,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 228 * KiB, // 10.x's shared memory with 12.x's thread and block limits
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 227 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("Renumbered from 10.1 in CUDA 13.0. The Guide's 11.0 column, CCCL arch_traits<sm_110> and "
                      "cuda_occupancy.h (24 blocks/SM, 228 KB) agree.")},
        {.compute_capability = 120,
         .name = "sm_120",
         .example_gpus = "GeForce RTX 5090, RTX PRO 6000 Blackwell",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 24,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 100 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 99 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("")},
        {.compute_capability = 121,
         .name = "sm_121",
         .example_gpus = "DGX Spark (GB10)",
         .max_threads_per_sm = 1536,
         .max_blocks_per_sm = 24,
         .registers_per_sm = 65536,
         .max_registers_per_block = 65536,
         .max_registers_per_thread = 255,
         .shared_per_sm = 100 * KiB,
         .max_shared_per_block = 48 * KiB,
         .max_shared_per_block_optin = 99 * KiB,
         .reserved_shared_per_block = 1 * KiB,
         .source = guide13,
         .note = note("The Guide gives one \"12.x\" column for 12.0 and 12.1; CCCL copies 12.0 and "
                      "cuda_occupancy.h agrees (24 blocks/SM, 100 KB).")},
    };
}

} // namespace

const std::vector<ArchSpec>& arch_table()
{
    static const std::vector<ArchSpec> table = build_arch_table();
    return table;
}

const ArchSpec& find_arch_spec(int compute_capability)
{
    for (const auto& spec : arch_table())
        if (spec.compute_capability == compute_capability)
            return spec;
    std::vector<std::string> known;
    for (const auto& spec : arch_table())
        known.push_back(spec.name);
    throw ArchError(fmt::format("no architecture limits for sm_{} (compute capability {}.{}); known: {}",
                                compute_capability, compute_capability / 10, compute_capability % 10,
                                fmt::join(known, ", ")));
}

} // namespace autotune
