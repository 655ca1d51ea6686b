#include "arch/device_spec.hpp"
#include "arch/arch_target.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>

// Each entry names only the figures its part has (designated initializers; the others keep
// their defaults: no BF16 on Turing, no driver name beyond `name`). GCC's -Wextra reports
// every omitted member all the same.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace autotune {
namespace {

constexpr std::int64_t MiB = 1024 * 1024;

// Datasheets print tensor throughput as "dense | sparse" or only the sparse figure with a
// footnote ("* With sparsity"); every tensor number here is the dense one. GeForce parts run
// FP16 with FP32 accumulate at half their FP16-accumulate rate, so their fp16 figure is the
// FP32-accumulate row (what a mixed-precision GEMM gets). Ordered by compute capability.
std::vector<DeviceSpec> build_device_table()
{
    return {
        {.key = "v100-sxm2",
         .name = "NVIDIA Tesla V100 SXM2",
         .compute_capability = 70,
         .sms = 80,
         .boost_clock_mhz = 1530,
         .memory_bandwidth_gbs = 900,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 15.7,
         .fp16_tensor_tflops = 125,
         .default_for_arch = true,
         .reported_names = {"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB"},
         .source = "NVIDIA Tesla V100 GPU Architecture whitepaper (Volta), Table 1, Tesla V100 for NVLink: 80 SMs, "
                   "1530 MHz GPU boost clock, 15.7 TFLOPS FP32, 125 Tensor TFLOPS (FP16 multiply, FP32 "
                   "accumulate), 6144 KB L2; 900 GB/s HBM2 from the Tesla V100 datasheet. Volta's tensor cores "
                   "have no INT8 mode and no BF16. CUDA 13 does not compile for sm_70: predict with an older "
                   "toolkit's NVRTC (--nvrtc)."},
        {.key = "v100-pcie",
         .name = "NVIDIA Tesla V100 PCIe",
         .compute_capability = 70,
         .sms = 80,
         .boost_clock_mhz = 1380,
         .memory_bandwidth_gbs = 900,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 14,
         .fp16_tensor_tflops = 112,
         .reported_names = {"Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB"},
         .source = "NVIDIA Tesla V100 datasheet, V100 PCIe column: 14 TFLOPS FP32, 112 Tensor TFLOPS, 900 GB/s "
                   "HBM2; 80 SMs and 6144 KB L2 as the SXM2 part (Volta whitepaper, Table 1); 1380 MHz the "
                   "boost clock those figures imply (80 x 64 x 2 x 1.38 GHz = 14.1 TFLOPS)."},
        {.key = "titan-v",
         .name = "NVIDIA TITAN V",
         .compute_capability = 70,
         .sms = 80,
         .boost_clock_mhz = 1455,
         .memory_bandwidth_gbs = 652.8,
         .l2_bytes = 4608 * 1024,
         .fp32_tflops = 14.9,
         .fp16_tensor_tflops = 110,
         .source = "NVIDIA TITAN V product specifications: 5120 CUDA cores (80 SMs), 1455 MHz boost clock, 110 "
                   "Tensor TFLOPS, 652.8 GB/s (3072-bit HBM2 at 1.7 Gbps); FP32 80 x 64 x 2 x 1.455 GHz = 14.9 "
                   "TFLOPS; 4.5 MB L2: GV100's 6 MB less the slices of the memory partition it disables (three HBM2 stacks "
                   "of four)."},
        {.key = "rtx-2080-ti",
         .name = "NVIDIA GeForce RTX 2080 Ti",
         .compute_capability = 75,
         .sms = 68,
         .boost_clock_mhz = 1545,
         .memory_bandwidth_gbs = 616,
         .l2_bytes = 5632 * 1024,
         .fp32_tflops = 13.4,
         .fp16_tensor_tflops = 53.8,
         .int8_tensor_tops = 215.2,
         .default_for_arch = true,
         .source = "NVIDIA Turing GPU Architecture whitepaper, Table 1 (GeForce RTX 2080 Ti reference): 68 SMs, "
                   "1545 MHz boost clock, 13.4 TFLOPS FP32, FP16 Tensor with FP32 accumulate 53.8 TFLOPS (107.6 with "
                   "FP16 accumulate), INT8 Tensor 215.2 TOPS, 616 GB/s (352-bit GDDR6 at 14 Gbps), 5632 KB L2. One of "
                   "the GPUs of Kernel Tuner's published measurements."},
        {.key = "rtx-2080",
         .name = "NVIDIA GeForce RTX 2080",
         .compute_capability = 75,
         .sms = 46,
         .boost_clock_mhz = 1710,
         .memory_bandwidth_gbs = 448,
         .l2_bytes = 4 * MiB,
         .fp32_tflops = 10.1,
         .fp16_tensor_tflops = 40.3,
         .int8_tensor_tops = 161.1,
         .source = "NVIDIA Turing GPU Architecture whitepaper, Table 2 (GeForce RTX 2080 reference; the Founders "
                   "Edition boosts to 1800 MHz): 2944 CUDA cores (46 SMs), 1710 MHz boost clock, FP16 Tensor with "
                   "FP32 accumulate 40.3 TFLOPS (80.5 with FP16 accumulate), INT8 Tensor 161.1 TOPS, 448 GB/s "
                   "(256-bit GDDR6 at 14 Gbps), 4 MB L2 (TU104); FP32 46 x 64 x 2 x 1.71 GHz = 10.1 TFLOPS. Not the "
                   "2080 Ti, nor the 2080 SUPER (48 SMs), which the driver names apart."},
        {.key = "titan-rtx",
         .name = "NVIDIA TITAN RTX",
         .compute_capability = 75,
         .sms = 72,
         .boost_clock_mhz = 1770,
         .memory_bandwidth_gbs = 672,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 16.3,
         .fp16_tensor_tflops = 130.5,
         .int8_tensor_tops = 261,
         .source = "NVIDIA TITAN RTX product specifications: 4608 CUDA cores (72 SMs), 1770 MHz boost clock, 672 "
                   "GB/s (384-bit GDDR6 at 14 Gbps), 130 Tensor TFLOPS; FP32 72 x 64 x 2 x 1.77 GHz = 16.3 TFLOPS. "
                   "TITAN RTX runs FP16 with FP32 accumulate at the full 130.5 TFLOPS (Turing whitepaper, Appendix "
                   "A); INT8 261 TOPS and the 6 MB L2 of the full TU102 from the same whitepaper."},
        {.key = "t4",
         .name = "NVIDIA T4",
         .compute_capability = 75,
         .sms = 40,
         .boost_clock_mhz = 1590,
         .memory_bandwidth_gbs = 320,
         .l2_bytes = 4 * MiB,
         .fp32_tflops = 8.1,
         .fp16_tensor_tflops = 65,
         .int8_tensor_tops = 130,
         .reported_names = {"Tesla T4"},
         .source = "NVIDIA T4 Tensor Core GPU datasheet: 2560 CUDA cores (40 SMs), 8.1 TFLOPS FP32, 65 TFLOPS "
                   "mixed precision (FP16/FP32), 130 INT8 TOPS, 320 GB/s GDDR6; 1590 MHz the boost clock the FP32 "
                   "figure implies (40 x 64 x 2 x 1.59 GHz = 8.1 TFLOPS); 4 MB L2 (TU104)."},
        {.key = "rtx-2070-super",
         .name = "NVIDIA GeForce RTX 2070 SUPER",
         .compute_capability = 75,
         .sms = 40,
         .boost_clock_mhz = 1770,
         .memory_bandwidth_gbs = 448,
         .l2_bytes = 4 * MiB,
         .fp32_tflops = 9.1,
         .fp16_tensor_tflops = 36.2,
         .int8_tensor_tops = 145,
         .source = "NVIDIA GeForce RTX 2070 SUPER specifications: 2560 CUDA cores (40 SMs), 1770 MHz boost "
                   "clock, 448 GB/s (256-bit GDDR6 at 14 Gbps); FP32 40 x 64 x 2 x 1.77 GHz = 9.1 TFLOPS; tensor "
                   "figures at the Turing whitepaper's GeForce rates (8 tensor cores an SM, 512 FP16 flops a "
                   "clock an SM with FP32 accumulate: 36.2 TFLOPS; INT8 four times that); 4 MB L2 (TU104)."},
        {.key = "a100-pcie-40gb",
         .name = "NVIDIA A100 PCIe 40GB",
         .compute_capability = 80,
         .sms = 108,
         .boost_clock_mhz = 1410,
         .memory_bandwidth_gbs = 1555,
         .l2_bytes = 40 * MiB,
         .fp32_tflops = 19.5,
         .fp16_tensor_tflops = 312,
         .bf16_tensor_tflops = 312,
         .int8_tensor_tops = 624,
         .source = "NVIDIA A100 Tensor Core GPU datasheet, A100 40GB PCIe column: FP32 19.5 TFLOPS, FP16 and BFLOAT16 "
                   "Tensor Core 312 | 624* TFLOPS, INT8 624 | 1248* TOPS (* = with sparsity; the dense figure is "
                   "used), GPU memory bandwidth 1,555 GB/s; 108 SMs, 1410 MHz and 40 MB L2 from the A100 "
                   "architecture whitepaper."},
        {.key = "a100-sxm-40gb",
         .name = "NVIDIA A100 SXM4 40GB",
         .compute_capability = 80,
         .sms = 108,
         .boost_clock_mhz = 1410,
         .memory_bandwidth_gbs = 1555,
         .l2_bytes = 40 * MiB,
         .fp32_tflops = 19.5,
         .fp16_tensor_tflops = 312,
         .bf16_tensor_tflops = 312,
         .int8_tensor_tops = 624,
         .source = "NVIDIA A100 Tensor Core GPU datasheet (2020), A100 40GB SXM column: FP32 19.5 TFLOPS, FP16 and "
                   "BFLOAT16 Tensor Core 312 | 624* TFLOPS, INT8 624 | 1248* TOPS (* = with sparsity; the dense "
                   "figure is used), GPU memory bandwidth 1,555 GB/s (HBM2); 108 SMs, 1410 MHz and 40 MB L2 from "
                   "the A100 architecture whitepaper. The driver calls it \"A100-SXM4-40GB\"."},
        {.key = "a100-sxm-80gb",
         .name = "NVIDIA A100 SXM4 80GB",
         .compute_capability = 80,
         .sms = 108,
         .boost_clock_mhz = 1410,
         .memory_bandwidth_gbs = 2039,
         .l2_bytes = 40 * MiB, // "40 MB"; the driver reports 41,943,040 bytes
         .fp32_tflops = 19.5,
         .fp16_tensor_tflops = 312,
         .bf16_tensor_tflops = 312,
         .int8_tensor_tops = 624,
         .default_for_arch = true,
         .source = "NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column: FP32 19.5 TFLOPS, FP16 and "
                   "BFLOAT16 Tensor Core 312 | 624* TFLOPS, INT8 Tensor Core 624 | 1248* TOPS (* = with "
                   "sparsity; the dense first figure is used), GPU memory bandwidth 2,039 GB/s. 108 SMs, 1410 MHz "
                   "boost clock and 40 MB L2 from the NVIDIA A100 Tensor Core GPU Architecture whitepaper, table "
                   "comparing P100, V100 and A100 (dense/sparse pairs 312/624, 624/1248)."},
        {.key = "rtx-3090",
         .name = "NVIDIA GeForce RTX 3090",
         .compute_capability = 86,
         .sms = 82,
         .boost_clock_mhz = 1695,
         .memory_bandwidth_gbs = 936,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 35.6,
         .fp16_tensor_tflops = 71,
         .bf16_tensor_tflops = 71,
         .int8_tensor_tops = 284,
         .default_for_arch = true,
         .source = "NVIDIA Ampere GA102 GPU Architecture whitepaper, Table 2 (GeForce RTX 3090): 82 SMs, 1695 MHz "
                   "boost clock, 35.6 TFLOPS FP32, FP16 and BF16 Tensor with FP32 accumulate 71/142* TFLOPS, INT8 "
                   "Tensor 284/568* TOPS (* = with sparsity; the dense figure is used), 936 GB/s (384-bit GDDR6X at "
                   "19.5 Gbps), 6144 KB L2. Kernel Tuner measured the shared data's spaces on it."},
        {.key = "rtx-3060-laptop",
         .name = "NVIDIA GeForce RTX 3060 Laptop GPU",
         .compute_capability = 86,
         .sms = 30,
         .boost_clock_mhz = 1703,
         .memory_bandwidth_gbs = 336,
         .l2_bytes = 3 * MiB,
         .fp32_tflops = 13.1,
         .fp16_tensor_tflops = 26.1,
         .bf16_tensor_tflops = 26.1,
         .int8_tensor_tops = 104,
         .source = "NVIDIA GeForce RTX 3060 Laptop GPU specifications: 3840 CUDA cores (30 SMs), boost clock 1283 - "
                   "1703 MHz depending on the laptop's power limit (the top of the range is used), 6 GB GDDR6 on a "
                   "192-bit bus at 14 Gbps = 336 GB/s. GA106 has 3 MB L2 (GA102 whitepaper, Appendix). FP32 30 x 128 "
                   "x 2 x 1.703 GHz = 13.1 TFLOPS; the tensor figures scale the RTX 3090's per-SM, per-clock rates "
                   "(GeForce: FP16 with FP32 accumulate at half rate) to 30 SMs at 1703 MHz. Kernel Tuner measured "
                   "the shared data's spaces on it."},
        {.key = "rtx-3060",
         .name = "NVIDIA GeForce RTX 3060",
         .compute_capability = 86,
         .sms = 28,
         .boost_clock_mhz = 1777,
         .memory_bandwidth_gbs = 360,
         .l2_bytes = 3 * MiB,
         .fp32_tflops = 12.7,
         .fp16_tensor_tflops = 25.5,
         .bf16_tensor_tflops = 25.5,
         .int8_tensor_tops = 102,
         .source = "NVIDIA GeForce RTX 3060 specifications (the desktop card, 12 GB): 3584 CUDA cores (28 SMs), "
                   "1777 MHz boost clock, 12 GB GDDR6 on a 192-bit bus at 15 Gbps = 360 GB/s (the later 8 GB card, "
                   "128-bit and 240 GB/s, reports the same name); FP32 28 x 128 x 2 x 1.777 GHz = 12.7 TFLOPS; "
                   "tensor figures at the GA102 whitepaper's GeForce rates (512 FP16 flops a clock an SM with FP32 "
                   "accumulate, dense: 25.5 TFLOPS; INT8 four times that); 3 MB L2 (GA106). Not the Laptop GPU."},
        {.key = "rtx-a4000",
         .name = "NVIDIA RTX A4000",
         .compute_capability = 86,
         .sms = 48,
         .boost_clock_mhz = 1560,
         .memory_bandwidth_gbs = 448,
         .l2_bytes = 4 * MiB,
         .fp32_tflops = 19.2,
         .fp16_tensor_tflops = 76.7,
         .bf16_tensor_tflops = 76.7,
         .source = "NVIDIA RTX A4000 datasheet: 6144 CUDA cores (48 SMs), 19.2 TFLOPS FP32, Tensor performance 153.4 "
                   "TFLOPS with sparsity (76.7 dense; a professional part, FP32 accumulate at full rate), 448 GB/s; "
                   "boost clock 1560 MHz = 19.2 TFLOPS / (6144 x 2). The 4 MB L2 of GA104 from the GA102 "
                   "whitepaper's appendix."},
        {.key = "rtx-a6000",
         .name = "NVIDIA RTX A6000",
         .compute_capability = 86,
         .sms = 84,
         .boost_clock_mhz = 1800,
         .memory_bandwidth_gbs = 768,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 38.7,
         .fp16_tensor_tflops = 154.8,
         .bf16_tensor_tflops = 154.8,
         .source = "NVIDIA RTX A6000 datasheet: 10752 CUDA cores (84 SMs), 38.7 TFLOPS FP32, Tensor performance 309.7 "
                   "TFLOPS with sparsity (154.8 dense), 768 GB/s (384-bit GDDR6 at 16 Gbps); boost clock 1800 MHz = "
                   "38.7 TFLOPS / (10752 x 2); 6 MB L2 (GA102)."},
        {.key = "a10",
         .name = "NVIDIA A10",
         .compute_capability = 86,
         .sms = 72,
         .boost_clock_mhz = 1695,
         .memory_bandwidth_gbs = 600,
         .l2_bytes = 6 * MiB,
         .fp32_tflops = 31.2,
         .fp16_tensor_tflops = 125,
         .bf16_tensor_tflops = 125,
         .int8_tensor_tops = 250,
         .source = "NVIDIA A10 Tensor Core GPU datasheet: FP32 31.2 TFLOPS, BF16 and FP16 Tensor Core 125 | 250* "
                   "TFLOPS, INT8 250 | 500* TOPS (* = with sparsity; the dense figure is used), 600 GB/s GDDR6; 72 "
                   "SMs (9216 CUDA cores), 1695 MHz the clock the FP32 figure implies, 6 MB L2 (GA102)."},
        {.key = "rtx-3080",
         .name = "NVIDIA GeForce RTX 3080",
         .compute_capability = 86,
         .sms = 68,
         .boost_clock_mhz = 1710,
         .memory_bandwidth_gbs = 760,
         .l2_bytes = 5 * MiB,
         .fp32_tflops = 29.8,
         .fp16_tensor_tflops = 59.5,
         .bf16_tensor_tflops = 59.5,
         .int8_tensor_tops = 238,
         .source = "NVIDIA Ampere GA102 GPU Architecture whitepaper, GeForce RTX 3080 column (the 10 GB card; the "
                   "12 GB one, 70 SMs and 912 GB/s, reports the same name): 68 SMs, 1710 MHz boost clock, 29.8 "
                   "TFLOPS FP32, FP16 and BF16 Tensor with FP32 accumulate 59.5/119* TFLOPS, INT8 238/476* TOPS "
                   "(* = with sparsity; the dense figure is used), 760 GB/s (320-bit GDDR6X at 19 Gbps), 5120 KB "
                   "L2."},
        {.key = "rtx-3070",
         .name = "NVIDIA GeForce RTX 3070",
         .compute_capability = 86,
         .sms = 46,
         .boost_clock_mhz = 1725,
         .memory_bandwidth_gbs = 448,
         .l2_bytes = 4 * MiB,
         .fp32_tflops = 20.3,
         .fp16_tensor_tflops = 40.6,
         .bf16_tensor_tflops = 40.6,
         .int8_tensor_tops = 162.6,
         .source = "NVIDIA GeForce RTX 3070 specifications: 5888 CUDA cores (46 SMs), 1725 MHz boost clock, 448 "
                   "GB/s (256-bit GDDR6 at 14 Gbps); FP32 46 x 128 x 2 x 1.725 GHz = 20.3 TFLOPS; tensor figures "
                   "at the GA102 whitepaper's GeForce rates (512 FP16 flops a clock an SM with FP32 accumulate, "
                   "dense: 40.6 TFLOPS; INT8 four times that); 4 MB L2 (GA104)."},
        {.key = "l40s",
         .name = "NVIDIA L40S 48GB",
         .compute_capability = 89,
         .sms = 142,
         .boost_clock_mhz = 2520,
         .memory_bandwidth_gbs = 864,
         .l2_bytes = 96 * MiB,
         .fp32_tflops = 91.6,
         .fp16_tensor_tflops = 362.05,
         .bf16_tensor_tflops = 362.05,
         .int8_tensor_tops = 733,
         .default_for_arch = true,
         .source = "NVIDIA L40S datasheet: FP32 91.6 TFLOPS, BFLOAT16 and FP16 Tensor Core 362.05 | 733* TFLOPS, "
                   "Peak INT8 Tensor 733 | 1,466* TOPS (* = with sparsity; the dense first figure is used; a data "
                   "center part, FP16 with FP32 accumulate at full rate), memory bandwidth 864 GB/s, 18,176 CUDA "
                   "cores = 142 SMs. Boost clock 2520 MHz from the L40S product specifications (142 x 128 x 2 x "
                   "2.52 GHz = 91.6 TFLOPS). The datasheet gives no L2 size: 96 MiB is the L40's, the same AD102 "
                   "configuration with 142 SMs."},
        {.key = "rtx-4090",
         .name = "NVIDIA GeForce RTX 4090",
         .compute_capability = 89,
         .sms = 128,
         .boost_clock_mhz = 2520,
         .memory_bandwidth_gbs = 1008,
         .l2_bytes = 72 * MiB, // 73,728 KB
         .fp32_tflops = 82.6,
         .fp16_tensor_tflops = 165.2,
         .bf16_tensor_tflops = 165.2,
         .int8_tensor_tops = 660.6,
         .source = "NVIDIA Ada GPU Architecture whitepaper, Appendix A \"GeForce RTX 4090 Full Specifications\": "
                   "128 SMs, 2520 MHz boost clock, 1008 GB/s, 73,728 KB L2, Peak FP32 82.6 TFLOPS; tensor rows are "
                   "dense/sparse pairs (footnote: the second uses the Sparsity feature), the dense first figure is "
                   "used: FP16 is \"Peak FP16 Tensor TFLOPS with FP32 Accumulate\" 165.2/330.4 (330.3 with FP16 "
                   "accumulate), \"Peak BF16 Tensor TFLOPS with FP32 Accumulate\" 165.2/330.4, \"Peak INT8 Tensor "
                   "TOPS\" 660.6/1321.2."},
        {.key = "l4",
         .name = "NVIDIA L4",
         .compute_capability = 89,
         .sms = 58,
         .boost_clock_mhz = 2040,
         .memory_bandwidth_gbs = 300,
         .l2_bytes = 48 * MiB,
         .fp32_tflops = 30.3,
         .fp16_tensor_tflops = 121,
         .bf16_tensor_tflops = 121,
         .int8_tensor_tops = 242.5,
         .source = "NVIDIA L4 Tensor Core GPU datasheet: FP32 30.3 TFLOPS, FP16 and BF16 Tensor Core 242* TFLOPS, "
                   "INT8 485* TOPS (* = with sparsity; half of it, dense, is used), 300 GB/s GDDR6; 58 SMs (7424 "
                   "CUDA cores), 2040 MHz boost clock, 48 MB L2 (AD104)."},
        {.key = "rtx-4080",
         .name = "NVIDIA GeForce RTX 4080",
         .compute_capability = 89,
         .sms = 76,
         .boost_clock_mhz = 2505,
         .memory_bandwidth_gbs = 716.8,
         .l2_bytes = 64 * MiB,
         .fp32_tflops = 48.7,
         .fp16_tensor_tflops = 97.5,
         .bf16_tensor_tflops = 97.5,
         .int8_tensor_tops = 389.9,
         .source = "NVIDIA Ada GPU Architecture whitepaper, GeForce RTX 4080 column: 76 SMs, 2505 MHz boost "
                   "clock, 48.7 TFLOPS FP32, FP16 and BF16 Tensor with FP32 accumulate 97.5/194.9* TFLOPS, INT8 "
                   "389.9/779.8* TOPS (* = with sparsity; the dense figure is used), 716.8 GB/s (256-bit GDDR6X at "
                   "22.4 Gbps), 64 MB L2."},
        {.key = "h100-sxm",
         .name = "NVIDIA H100 SXM5 80GB",
         .compute_capability = 90,
         .sms = 132,
         .boost_clock_mhz = 1980,
         .memory_bandwidth_gbs = 3350,
         .l2_bytes = 50 * MiB, // "50 MB"; the driver reports 52,428,800 bytes
         .fp32_tflops = 66.9,
         .fp16_tensor_tflops = 989.4,
         .bf16_tensor_tflops = 989.4,
         .int8_tensor_tops = 1978.9,
         .default_for_arch = true,
         .reported_names = {"NVIDIA H100 80GB HBM3"}, // cuDeviceGetName and nvidia-smi on an H100 SXM5
         .source = "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04, Table 3 \"Comparison of NVIDIA "
                   "A100 and H100 Data Center GPUs\", H100 SXM5 column: 132 SMs, 50 MB L2, Peak FP32 66.9 TFLOPS, "
                   "dense/sparse pairs 989.4/1978.9 (FP16 and BF16 with FP32 accumulate) and 1978.9/3957.8 (INT8), "
                   "the dense first figure is used. Memory bandwidth 3.35 TB/s from the NVIDIA H100 datasheet, H100 "
                   "SXM column (which prints only the sparse tensor figures, 1,979* and 3,958*, * = with sparsity). "
                   "1980 MHz is the clock the FP32 figure implies (132 x 128 x 2 x 1.98 GHz); the tensor figures "
                   "imply about 1830 MHz (132 x 4096 flop/clock)."},
        {.key = "h200-sxm",
         .name = "NVIDIA H200 SXM 141GB",
         .compute_capability = 90,
         .sms = 132,
         .boost_clock_mhz = 1980,
         .memory_bandwidth_gbs = 4800,
         .l2_bytes = 50 * MiB,
         .fp32_tflops = 67,
         .fp16_tensor_tflops = 989.5,
         .bf16_tensor_tflops = 989.5,
         .int8_tensor_tops = 1979,
         .source = "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column: FP32 67 TFLOPS, BFLOAT16 and FP16 "
                   "Tensor Core 1,979* TFLOPS and INT8 Tensor Core 3,958* TOPS (* = with sparsity, halved here to "
                   "dense), GPU memory bandwidth 4.8 TB/s. The same GH100 configuration as the H100 SXM: 132 SMs, "
                   "50 MB L2, 1980 MHz (H100 architecture whitepaper)."},
        {.key = "h100-pcie",
         .name = "NVIDIA H100 PCIe",
         .compute_capability = 90,
         .sms = 114,
         .boost_clock_mhz = 1755,
         .memory_bandwidth_gbs = 2000,
         .l2_bytes = 50 * MiB,
         .fp32_tflops = 51.2,
         .fp16_tensor_tflops = 756.5,
         .bf16_tensor_tflops = 756.5,
         .int8_tensor_tops = 1513,
         .source = "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04, Table 3, H100 PCIe column: 114 SMs, "
                   "50 MB L2, Peak FP32 51.2 TFLOPS, dense/sparse pairs 756.5/1513 (FP16 and BF16 with FP32 "
                   "accumulate) and 1513/3026 (INT8), the dense first figure is used; 2 TB/s from the H100 "
                   "datasheet's PCIe column; 1755 MHz the clock the FP32 figure implies (114 x 128 x 2)."},
        {.key = "b200",
         .name = "NVIDIA B200 (HGX B200, 180GB)",
         .compute_capability = 100,
         .sms = 148,
         .boost_clock_mhz = 1965,
         .memory_bandwidth_gbs = 8000,
         .l2_bytes = 132644864,
         .fp32_tflops = 75,
         .fp16_tensor_tflops = 2250,
         .bf16_tensor_tflops = 2250,
         .int8_tensor_tops = 4500,
         .default_for_arch = true,
         .source = "NVIDIA HGX platform specifications, HGX B200 column (8-GPU totals): FP32 600 TFLOPS, FP16/BF16 "
                   "Tensor Core 36 PFLOPS and INT8 Tensor Core 72 POPS carry the footnote \"Sparse specification\", "
                   "so per GPU dense = total / 8 / 2; memory bandwidth from the DGX B200 page, 64 TB/s over 8 GPUs. "
                   "NVIDIA publishes no SM count, boost clock or L2 size for B200: 148 SMs, the 1965 MHz maximum SM "
                   "clock and the 132,644,864-byte L2 are what cudaGetDeviceProperties and nvidia-smi report on a "
                   "B200 (148 x 128 x 2 x 1.965 GHz = 74.4 TFLOPS). B200s in GB200 systems are rated higher (the "
                   "seeds' rough 80 TFLOPS FP32)."},
        {.key = "rtx-5090",
         .name = "NVIDIA GeForce RTX 5090",
         .compute_capability = 120,
         .sms = 170,
         .boost_clock_mhz = 2407,
         .memory_bandwidth_gbs = 1792,
         .l2_bytes = 96 * MiB,
         .fp32_tflops = 104.8,
         .fp16_tensor_tflops = 209.5,
         .bf16_tensor_tflops = 209.5,
         .int8_tensor_tops = 838,
         .default_for_arch = true,
         .source = "NVIDIA RTX Blackwell GPU Architecture whitepaper, Table 3, GeForce RTX 5090 column: 170 SMs, "
                   "2407 MHz boost clock, 1792 GB/s, Peak FP32 104.8 TFLOPS; tensor rows are dense/sparse pairs, "
                   "the dense first figure is used: FP16 is the FP32-accumulate row, 209.5/419 (419 with FP16 "
                   "accumulate), BF16 with FP32 accumulate 209.5/419, INT8 838/1676 (INT8 as quoted from that table "
                   "by third parties, not read in the whitepaper here). L2 96 MB as the driver reports it."},
    };
}

} // namespace

const std::vector<DeviceSpec>& device_table()
{
    static const std::vector<DeviceSpec> table = build_device_table();
    return table;
}

const DeviceSpec* default_device_for(int compute_capability)
{
    for (const auto& device : device_table())
        if (device.compute_capability == compute_capability && device.default_for_arch)
            return &device;
    return nullptr;
}

namespace {

// The words of a name, lower case, without the vendor: drivers before 2021 (and the Kernel
// Tuner caches measured with them) report "GeForce RTX 2080 Ti", "TITAN RTX", and
// punctuation varies ("A100-PCIE-40GB" for "A100 PCIe 40GB").
std::vector<std::string> name_words(std::string_view name)
{
    std::vector<std::string> words(1);
    for (const char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)))
            words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!words.back().empty())
            words.emplace_back();
    if (words.back().empty())
        words.pop_back();
    if (!words.empty() && words.front() == "nvidia")
        words.erase(words.begin());
    return words;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const auto& w : words)
        out += w;
    return out;
}

// Whether a table name may go on past a shorter reported one with this word: a form factor
// or a memory ("NVIDIA H200" is the H200 SXM 141GB). A tier word ("Ti", "SUPER", "Laptop")
// names another GPU: "RTX 2080" is not the 2080 Ti, nor "RTX 3060" the Laptop GPU.
bool names_a_form_factor_or_memory(const std::string& word)
{
    if (word == "pcie" || word == "hgx" || word == "nvl" || word.starts_with("sxm") || word.starts_with("hbm"))
        return true;
    return word.size() > 2 && word.ends_with("gb") &&
           std::all_of(word.begin(), word.end() - 2, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

} // namespace

const DeviceSpec* find_device_by_name(std::string_view reported)
{
    const std::vector<std::string> wanted = name_words(reported);
    if (wanted.empty())
        return nullptr;
    const DeviceSpec* begun = nullptr;
    std::size_t begun_count = 0;
    for (const auto& device : device_table()) {
        const std::vector<std::string> words = name_words(device.name);
        if (joined(words) == joined(wanted))
            return &device;
        for (const std::string& reported_name : device.reported_names)
            if (joined(name_words(reported_name)) == joined(wanted))
                return &device;
        if (words.size() > wanted.size() && std::equal(wanted.begin(), wanted.end(), words.begin()) &&
            names_a_form_factor_or_memory(words[wanted.size()])) {
            begun = &device;
            ++begun_count;
        }
    }
    return begun_count == 1 ? begun : nullptr;
}

const DeviceSpec* find_device_of_arch(std::string_view reported, int compute_capability)
{
    const DeviceSpec* device = find_device_by_name(reported);
    return device && device->compute_capability == compute_capability ? device : nullptr;
}

const DeviceSpec& find_device_spec(const std::string& key)
{
    for (const auto& device : device_table())
        if (device.key == key)
            return device;
    std::vector<std::string> keys;
    for (const auto& device : device_table())
        keys.push_back(device.key);
    throw ArchError(fmt::format("unknown device '{}'; known devices: {}", key, fmt::join(keys, ", ")));
}

} // namespace autotune
