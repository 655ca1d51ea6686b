// The clock each configuration of a measured file ran at: Kernel Tuner's NVML observer
// records it (core_freq), an energy-tuning space sets it (the nvml_gr_clock parameter), and
// the file's clock is their median over the configurations that ran.
#include "emit/measured_file.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <optional>

using namespace autotune;
using json = nlohmann::ordered_json;

namespace {

// A Kernel Tuner cache of one kernel whose nvml_gr_clock is tuned, as Kernel Tuner's own
// synthetic FP32 cache of an RTX A4000 is laid out; NVML saw 1740 MHz where 2100 was asked.
json energy_cache()
{
    json cache = json::object();
    const auto add = [&](int clock, json time, json core_freq) {
        json entry{{"block_size_x", 1024}, {"nvml_gr_clock", clock}, {"time", time}};
        if (!core_freq.is_null())
            entry["core_freq"] = core_freq;
        cache[fmt::format("1024,{}", clock)] = entry;
    };
    add(2100, 77.5, 1739.7);
    add(1530, 88.2, nullptr);          // no observer reading: the clock it set
    add(960, 140.4, 960.0);
    add(405, "RuntimeFailedConfig", 405.0); // failed: no clock of a run
    return {{"device_name", "NVIDIA RTX A4000"}, {"kernel_name", "fp32_kernel"}, {"problem_size", 1},
            {"tune_params_keys", {"block_size_x", "nvml_gr_clock"}},
            {"tune_params", {{"block_size_x", {1024}}, {"nvml_gr_clock", {2100, 1530, 960, 405}}}},
            {"objective", "time"}, {"cache", cache}};
}

TEST(MeasuredClock, AKernelTunerEntrysObservedClockElseTheClockItSet)
{
    const test::TempDir dir;
    const auto path = dir.path() / "energy.json";
    std::ofstream(path) << energy_cache().dump();
    const MeasuredFile file = read_measured_file(path);
    std::map<int, std::optional<double>> clocks;
    for (const auto& c : file.configurations)
        clocks[c.params.at("nvml_gr_clock").get<int>()] = c.sm_clock_mhz;
    ASSERT_EQ(clocks.size(), 4u);
    EXPECT_EQ(clocks.at(2100), 1739.7);
    EXPECT_EQ(clocks.at(1530), 1530.0);
    EXPECT_EQ(clocks.at(960), 960.0);
    // The file's clock: the median of the three that ran (960, 1530, 1739.7).
    ASSERT_TRUE(file.sm_clock_mhz.has_value());
    EXPECT_EQ(*file.sm_clock_mhz, 1530.0);
}

TEST(MeasuredClock, AClockNoGpuRunsAtIsRefusedNamingTheRecordAndAZeroIsNone)
{
    const test::TempDir dir;
    const auto read_with = [&](const json& core_freq) {
        json document = energy_cache();
        document["cache"]["1024,960"]["core_freq"] = core_freq;
        const auto path = dir.path() / "clock.json";
        std::ofstream(path) << document.dump();
        return read_measured_file(path);
    };
    for (const json& bad : {json(-5), json(20000), json("fast")})
        EXPECT_THAT([&] { (void)read_with(bad); },
                    testing::ThrowsMessage<std::invalid_argument>(testing::AllOf(
                        testing::HasSubstr("clock.json"), testing::HasSubstr("core_freq"), testing::HasSubstr(bad.dump()))))
            << bad.dump();
    // 0 is what autotune writes where it read no clock: the configuration set one, 960.
    for (const auto& c : read_with(0).configurations)
        if (c.params.at("nvml_gr_clock") == 960)
            EXPECT_EQ(c.sm_clock_mhz, 960.0);
}

TEST(MeasuredClock, ACacheThatRecordsNoClockHasNone)
{
    json document = energy_cache();
    for (auto& [key, entry] : document["cache"].items()) {
        entry.erase("core_freq");
        entry.erase("nvml_gr_clock");
    }
    document["tune_params_keys"] = {"block_size_x"};
    document["tune_params"].erase("nvml_gr_clock");
    // Keys must still be unique: one entry a block size.
    json one = json::object();
    one["1024"] = document["cache"].begin().value();
    document["cache"] = one;
    const test::TempDir dir;
    const auto path = dir.path() / "plain.json";
    std::ofstream(path) << document.dump();
    const MeasuredFile file = read_measured_file(path);
    ASSERT_EQ(file.configurations.size(), 1u);
    EXPECT_FALSE(file.configurations.front().sm_clock_mhz);
    EXPECT_FALSE(file.sm_clock_mhz);
}

} // namespace
