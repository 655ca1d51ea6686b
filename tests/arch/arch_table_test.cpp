// The architecture table against the Programming Guide's published numbers (copied here
// separately from the implementation), and the device table against the relations its
// datasheet numbers must satisfy.
#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace autotune {
namespace {

using ::testing::HasSubstr;

// Copied from the CUDA Programming Guide (CUDA 13), section 5.1.3 "Features and Technical
// Specifications": Table 30 "Device and Streaming Multiprocessor (SM) Information per
// Compute Capability" (resident blocks and threads per SM) and Table 31 "Memory Information
// per Compute Capability" (shared memory per SM and per thread block, KB = 1024 bytes).
// Spanned cells are written out per column; 12.x covers 12.0 and 12.1, 10.x 10.0 and 10.3.
// 7.0 comes from the 12.9 Guide's "Technical Specifications per Compute Capability" (the
// CUDA 13 Guide dropped it); 8.8 is in no Guide table, see the CCCL test below.
struct GuideRow {
    int cc;
    int blocks_per_sm;
    int threads_per_sm;
    int shared_per_sm_kb;
    int shared_per_block_kb; // "Maximum amount of shared memory per thread block" (with opt-in)
};

constexpr GuideRow guide_rows[] = {
    {70, 32, 2048, 96, 96},    // 12.9 Guide
    {75, 16, 1024, 64, 64},
    {80, 32, 2048, 164, 163},
    {86, 16, 1536, 100, 99},
    {87, 16, 1536, 164, 163},
    {89, 24, 1536, 100, 99},
    {90, 32, 2048, 228, 227},
    {100, 32, 2048, 228, 227},
    {103, 32, 2048, 228, 227},
    {110, 24, 1536, 228, 227},
    {120, 24, 1536, 100, 99},
    {121, 24, 1536, 100, 99},
};

TEST(ArchTable, MatchesTheProgrammingGuide)
{
    for (const GuideRow& row : guide_rows) {
        SCOPED_TRACE(row.cc);
        const ArchSpec& spec = find_arch_spec(row.cc);
        EXPECT_EQ(spec.max_blocks_per_sm, row.blocks_per_sm);
        EXPECT_EQ(spec.max_threads_per_sm, row.threads_per_sm);
        EXPECT_EQ(spec.max_warps_per_sm(), row.threads_per_sm / 32); // "Maximum number of resident warps per SM"
        EXPECT_EQ(spec.shared_per_sm, row.shared_per_sm_kb * 1024);
        EXPECT_EQ(spec.max_shared_per_block_optin, row.shared_per_block_kb * 1024);
        // Rows that hold one value for every column.
        EXPECT_EQ(spec.warp_size, 32);
        EXPECT_EQ(spec.max_threads_per_block, 1024);
        EXPECT_EQ(spec.registers_per_sm, 64 * 1024);
        EXPECT_EQ(spec.max_registers_per_block, 64 * 1024);
        EXPECT_EQ(spec.max_registers_per_thread, 255);
    }
}

// 8.8 is in no Programming Guide table; CCCL's arch_traits<sm_88> copies sm_86 (16 blocks,
// 1536 threads, 100 KB per SM, 99 KB per block).
TEST(ArchTable, Sm88FollowsCcclAndSaysSo)
{
    const ArchSpec& spec = find_arch_spec(88);
    EXPECT_EQ(spec.max_blocks_per_sm, 16);
    EXPECT_EQ(spec.max_threads_per_sm, 1536);
    EXPECT_EQ(spec.shared_per_sm, 100 * 1024);
    EXPECT_EQ(spec.max_shared_per_block_optin, 99 * 1024);
    EXPECT_THAT(spec.source, HasSubstr("CCCL"));
    EXPECT_THAT(spec.note, HasSubstr("NOT in the Programming Guide"));
}

TEST(ArchTable, EveryArchNvrtcSupportsHasAnEntry)
{
    const std::vector<int> supported = nvrtc_supported_archs();
    ASSERT_FALSE(supported.empty());
    for (int cc : supported) {
        SCOPED_TRACE(cc);
        const ArchSpec& spec = find_arch_spec(cc);
        EXPECT_TRUE(spec.nvrtc_compiles);
    }
    // And the flag is false exactly where this NVRTC cannot compile.
    for (const ArchSpec& spec : arch_table())
        EXPECT_EQ(spec.nvrtc_compiles, std::count(supported.begin(), supported.end(), spec.compute_capability) > 0)
            << spec.name;
}

TEST(ArchTable, Sm70IsCalculatorOnly)
{
    const ArchSpec& spec = find_arch_spec(70);
    EXPECT_FALSE(spec.nvrtc_compiles);
    EXPECT_EQ(spec.name, "sm_70");
}

TEST(ArchTable, HasExactlyTheKnownArchitecturesInOrder)
{
    std::vector<int> ccs;
    for (const ArchSpec& spec : arch_table())
        ccs.push_back(spec.compute_capability);
    EXPECT_EQ(ccs, (std::vector<int>{70, 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}));
}

TEST(ArchTable, EntriesAreInternallyConsistent)
{
    for (const ArchSpec& spec : arch_table()) {
        SCOPED_TRACE(spec.name);
        EXPECT_EQ(spec.name, "sm_" + std::to_string(spec.compute_capability));
        EXPECT_EQ(spec.max_threads_per_sm % spec.warp_size, 0);
        EXPECT_EQ(spec.registers_per_sm, 65536);
        EXPECT_EQ(spec.register_allocation_unit, 256);
        EXPECT_EQ(spec.max_shared_per_block, 48 * 1024);
        // 1 KB reserved per block from 8.0 on; none before.
        EXPECT_EQ(spec.reserved_shared_per_block, spec.compute_capability >= 80 ? 1024 : 0);
        // The opt-in maximum is what is left of the largest carveout after the reservation.
        EXPECT_EQ(spec.max_shared_per_block_optin, spec.shared_per_sm - spec.reserved_shared_per_block);
        EXPECT_FALSE(spec.example_gpus.empty());
        EXPECT_FALSE(spec.source.empty());
    }
}

TEST(ArchTable, SourcesNameTheGuideTables)
{
    const ArchSpec& spec = find_arch_spec(90);
    EXPECT_THAT(spec.source, HasSubstr("Table 30"));
    EXPECT_THAT(spec.source, HasSubstr("Table 31"));
    EXPECT_THAT(spec.source, HasSubstr("docs.nvidia.com/cuda/cuda-programming-guide"));
    EXPECT_THAT(find_arch_spec(70).source, HasSubstr("Technical Specifications per Compute Capability"));
}

TEST(ArchTable, UnknownCapabilityThrowsNamingItAndTheKnownOnes)
{
    try {
        (void)find_arch_spec(12);
        FAIL() << "find_arch_spec(12) did not throw";
    } catch (const ArchError& e) {
        const std::string message = e.what();
        EXPECT_THAT(message, HasSubstr("sm_12 "));
        EXPECT_THAT(message, HasSubstr("compute capability 1.2"));
        EXPECT_THAT(message, HasSubstr("sm_70"));
        EXPECT_THAT(message, HasSubstr("sm_121"));
    }
}

// ---- Devices -------------------------------------------------------------------------

TEST(DeviceTable, HasTheRequiredDevicesWithLowercaseDashedKeys)
{
    for (const char* key : {"a100-sxm-80gb", "h100-sxm", "h200-sxm", "b200", "l40s", "rtx-4090", "rtx-5090"})
        EXPECT_NO_THROW((void)find_device_spec(key)) << key;
    std::set<std::string> keys;
    for (const DeviceSpec& d : device_table()) {
        EXPECT_TRUE(keys.insert(d.key).second) << "duplicate key " << d.key;
        const bool lowercase_dashed = std::all_of(d.key.begin(), d.key.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        });
        EXPECT_TRUE(lowercase_dashed) << d.key;
        EXPECT_FALSE(d.source.empty()) << d.key;
    }
}

TEST(DeviceTable, EveryDeviceArchIsInTheArchTable)
{
    for (const DeviceSpec& d : device_table())
        EXPECT_NO_THROW((void)find_arch_spec(d.compute_capability)) << d.key;
}

TEST(DeviceTable, AtMostOneDefaultPerArch)
{
    std::map<int, int> defaults;
    for (const DeviceSpec& d : device_table())
        if (d.default_for_arch)
            ++defaults[d.compute_capability];
    for (const auto& [cc, count] : defaults)
        EXPECT_EQ(count, 1) << "sm_" << cc;
}

TEST(DeviceTable, DefaultDevices)
{
    const std::map<int, std::string> expected = {
        {70, "v100-sxm2"}, {75, "rtx-2080-ti"}, {80, "a100-sxm-80gb"}, {86, "rtx-3090"},
        {89, "l40s"},      {90, "h100-sxm"},    {100, "b200"},         {120, "rtx-5090"}};
    for (const auto& [cc, key] : expected) {
        const DeviceSpec* d = default_device_for(cc);
        ASSERT_NE(d, nullptr) << cc;
        EXPECT_EQ(d->key, key);
    }
    EXPECT_EQ(default_device_for(87), nullptr); // Jetson Orin: no device in the table
    EXPECT_EQ(default_device_for(12), nullptr);
}

TEST(DeviceTable, UnknownKeyThrowsListingTheKeys)
{
    try {
        (void)find_device_spec("nope");
        FAIL() << "find_device_spec(\"nope\") did not throw";
    } catch (const ArchError& e) {
        const std::string message = e.what();
        EXPECT_THAT(message, HasSubstr("'nope'"));
        for (const DeviceSpec& d : device_table())
            EXPECT_THAT(message, HasSubstr(d.key));
    }
}

// Names as drivers report them (Kernel Tuner's device_name, cuDeviceGetName).
TEST(DeviceTable, FindsADeviceByTheNameADriverReports)
{
    const auto key_of = [](std::string_view name) {
        const DeviceSpec* d = find_device_by_name(name);
        return d ? d->key : std::string("none");
    };
    EXPECT_EQ(key_of("NVIDIA A100-PCIE-40GB"), "a100-pcie-40gb");
    EXPECT_EQ(key_of("NVIDIA A100-SXM4-80GB"), "a100-sxm-80gb");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 3060 Laptop GPU"), "rtx-3060-laptop");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 3090"), "rtx-3090");
    EXPECT_EQ(key_of("NVIDIA TITAN RTX"), "titan-rtx");
    EXPECT_EQ(key_of("TITAN RTX"), "titan-rtx"); // older drivers name no vendor
    EXPECT_EQ(key_of("GeForce RTX 2080 Ti"), "rtx-2080-ti");
    EXPECT_EQ(key_of("A100-PCIE-40GB"), "a100-pcie-40gb");
    EXPECT_EQ(key_of("Tesla V100-SXM2-32GB"), "v100-sxm2"); // what the driver calls each Volta part
    EXPECT_EQ(key_of("Tesla V100-PCIE-16GB"), "v100-pcie");
    EXPECT_EQ(key_of("TITAN V"), "titan-v");
    EXPECT_EQ(key_of("NVIDIA Tesla V100"), "none"); // begins two
    EXPECT_EQ(key_of("Tesla T4"), "t4");
    EXPECT_EQ(key_of("NVIDIA L4"), "l4"); // itself, though "L40S" begins with it
    EXPECT_EQ(key_of("NVIDIA A10"), "a10");
    EXPECT_EQ(key_of("NVIDIA H100 PCIe"), "h100-pcie");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 2070 SUPER"), "rtx-2070-super");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 3080 Ti"), "none"); // another GPU, not a 3080
    EXPECT_EQ(key_of("NVIDIA"), "none"); // no GPU named
    EXPECT_EQ(key_of("NVIDIA H200"), "h200-sxm");             // the one name it begins
    EXPECT_EQ(key_of("NVIDIA H100 80GB HBM3"), "h100-sxm");   // a name the driver gives it
    EXPECT_EQ(key_of("NVIDIA A100"), "none");                 // begins two
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 3090 Ti"), "none");  // another GPU, not a 3090
    // A shorter name stands for a longer one only where the rest is a form factor or a
    // memory: a tier word names another GPU.
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 3060"), "rtx-3060");  // the desktop card, not the Laptop GPU
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 2080"), "rtx-2080");  // not the 2080 Ti
    EXPECT_EQ(key_of("NVIDIA A100-SXM4-40GB"), "a100-sxm-40gb");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 2080 SUPER"), "none");
    EXPECT_EQ(key_of("NVIDIA GeForce RTX 2070"), "none");      // not the 2070 SUPER
    EXPECT_EQ(key_of("NVIDIA L40"), "none");                   // not the L40S
    EXPECT_EQ(key_of("NVIDIA B200"), "b200");                  // "B200 (HGX B200, 180GB)"
    EXPECT_EQ(key_of("NVIDIA H100"), "none");                  // begins two
    EXPECT_EQ(key_of(""), "none");
    // Of an architecture: the device, or none where the name is of another arch's GPU.
    ASSERT_NE(find_device_of_arch("TITAN RTX", 75), nullptr);
    EXPECT_EQ(find_device_of_arch("TITAN RTX", 75)->key, "titan-rtx");
    EXPECT_EQ(find_device_of_arch("TITAN RTX", 86), nullptr);
    EXPECT_EQ(find_device_of_arch("Radeon RX 7900", 86), nullptr);
}

// FP32 peak = SMs x FP32 lanes per SM x 2 (FMA) x boost clock. 7.x and 8.0 have 64 FP32
// cores per SM (Guide, Compute Capability 7.x and 8.x); the others here 128. Datasheets round, and B200's
// clock is a measured maximum, so allow 3%.
TEST(DeviceTable, Fp32PeakMatchesSmsLanesAndClock)
{
    for (const DeviceSpec& d : device_table()) {
        const int lanes = d.compute_capability <= 80 ? 64 : 128;
        const double derived = d.sms * lanes * 2.0 * d.boost_clock_mhz * 1e6 / 1e12;
        EXPECT_NEAR(d.fp32_tflops / derived, 1.0, 0.03) << d.key << ": derived " << derived;
    }
}

TEST(DeviceTable, TensorPeaksAreDenseAndAboveFp32)
{
    for (const DeviceSpec& d : device_table()) {
        SCOPED_TRACE(d.key);
        ASSERT_TRUE(d.fp16_tensor_tflops);
        EXPECT_GT(*d.fp16_tensor_tflops, d.fp32_tflops);
        // Turing has no BF16; where a part has it, it runs at the FP16 rate.
        EXPECT_EQ(d.bf16_tensor_tflops.has_value(), d.compute_capability >= 80);
        if (d.bf16_tensor_tflops)
            EXPECT_DOUBLE_EQ(*d.fp16_tensor_tflops, *d.bf16_tensor_tflops);
        // INT8 runs at twice the FP16 rate on data center and professional parts and at four
        // times FP16 with FP32 accumulate on GeForce; a sparse figure in either would break
        // the ratio. The RTX A-series datasheets give no INT8 figure; Volta's tensor cores
        // have no INT8 mode.
        const bool geforce = d.key.starts_with("rtx-") && !d.key.starts_with("rtx-a");
        if (d.int8_tensor_tops)
            EXPECT_NEAR(*d.int8_tensor_tops / *d.fp16_tensor_tflops / (geforce ? 4.0 : 2.0), 1.0, 0.02);
        else
            EXPECT_TRUE(d.key.starts_with("rtx-a") || d.compute_capability == 70)
                << "only the RTX A-series and Volta may lack an INT8 figure";
    }
}

// Ridge points (flop per byte of DRAM traffic) against published and seed figures.
TEST(DeviceTable, RidgePoints)
{
    const DeviceSpec& a100 = find_device_spec("a100-sxm-80gb");
    // The seeds: "312e12 flop/s ... 1.5e12 bytes/s ... 208 flops/byte" (a 40 GB A100's 1.555 TB/s, rounded).
    EXPECT_NEAR(*a100.bf16_tensor_tflops * 1e12 / 1.5e12, 208, 0.5);
    EXPECT_NEAR(*a100.bf16_tensor_tflops * 1e12 / 1.555e12, 200.6, 0.5); // A100 40GB
    EXPECT_DOUBLE_EQ(a100.memory_bandwidth_gbs, 2039);                   // the 80 GB part
    EXPECT_NEAR(*a100.bf16_tensor_tflops * 1e3 / a100.memory_bandwidth_gbs, 153.0, 0.5);

    const DeviceSpec& h100 = find_device_spec("h100-sxm");
    const double h100_ridge = *h100.bf16_tensor_tflops * 1e3 / h100.memory_bandwidth_gbs;
    EXPECT_NEAR(h100_ridge, 295.3, 0.5);
    EXPECT_NEAR(h100_ridge / 280, 1.0, 0.06); // the seeds' H100 critical batch, "about 280"
    // The seeds' H100 row: 3.35 TB/s, 67 TFLOPS FP32, 989 tensor.
    EXPECT_DOUBLE_EQ(h100.memory_bandwidth_gbs, 3350);
    EXPECT_NEAR(h100.fp32_tflops, 67, 0.2);
    EXPECT_NEAR(*h100.bf16_tensor_tflops, 989, 1);

    const DeviceSpec& b200 = find_device_spec("b200");
    EXPECT_DOUBLE_EQ(b200.memory_bandwidth_gbs, 8000); // the seeds: 8.0 TB/s
    EXPECT_NEAR(b200.fp32_tflops / 80, 1.0, 0.10);     // the seeds: 80 TFLOPS FP32, "rough"
}

} // namespace
} // namespace autotune
