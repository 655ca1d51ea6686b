// T4 out and back: a results file's measurements as T4, and T4 read back by the importer
// giving the same variants, statuses and times (a hand-made file and the shared convolution
// cache); the export laid out like Kernel Tuner's own T4 file, and that file imported with the
// facts its cache holds.
#include "emit/kt_cache_import.hpp"
#include "emit/t4_format.hpp"
#include "strategy/replay.hpp"
#include "support/test_support.hpp"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <gtest/gtest.h>

using namespace autotune;
using json = nlohmann::ordered_json;
using ::testing::HasSubstr;

namespace {

json variant(int bx, const std::string& status, const json& measurement)
{
    return {{"index", bx}, {"params", {{"bx", bx}}}, {"status", status}, {"measurement", measurement}};
}

json measured(double seconds)
{
    return {{"time_seconds", {{"median", seconds}}}, {"samples_seconds", {seconds, seconds}}};
}

TEST(T4Format, MeasuredAndFailedVariantsAreRecordedAndUnmeasuredOnesLeftOut)
{
    const json results{{"variants",
                        {variant(32, "ok", measured(0.002)), variant(64, "compile_error", nullptr),
                         variant(96, "launch_error", nullptr), variant(128, "wrong_result", nullptr),
                         variant(160, "ok", nullptr), variant(192, "pruned", nullptr)}}};
    const json t4 = t4_document(results, "r.json");
    EXPECT_EQ(t4.at("schema_version"), "1.0.0");
    const json& records = t4.at("results");
    ASSERT_EQ(records.size(), 4u); // 160 (not measured) and 192 (pruned) have nothing to record
    EXPECT_EQ(records[0].at("configuration"), (json{{"bx", 32}}));
    EXPECT_EQ(records[0].at("invalidity"), "correct");
    EXPECT_DOUBLE_EQ(records[0].at("measurements").at(0).at("value").get<double>(), 2.0); // ms
    EXPECT_EQ(records[0].at("times").at("runtimes"), (json{2.0, 2.0}));
    EXPECT_EQ(records[1].at("invalidity"), "compile");
    EXPECT_EQ(records[1].at("measurements").at(0).at("value"), "CompilationFailedConfig");
    EXPECT_EQ(records[2].at("invalidity"), "runtime");
    EXPECT_EQ(records[3].at("invalidity"), "correctness");
    EXPECT_EQ(records[3].at("correctness"), 0);
}

// What T4 keeps of a variant: its status, objective time (s) and samples (s), keyed by its
// parameters (T4 keeps no value lists, so indices need not survive the trip). Variants T4
// does not record (never measured) are left out.
struct Recorded {
    std::string status;
    std::optional<double> time;
    std::vector<double> samples;
};

std::map<std::string, Recorded> recorded_variants(const json& results)
{
    std::map<std::string, Recorded> out;
    for (const json& v : results.at("variants")) {
        const std::string status = v.at("status").get<std::string>();
        const auto time = measured_time(v);
        if (!time && (status == "ok" || status == "pruned"))
            continue;
        std::vector<double> samples;
        if (time && v.at("measurement").contains("samples_seconds"))
            samples = v.at("measurement").at("samples_seconds").get<std::vector<double>>();
        out[v.at("params").dump()] = {status, time, samples};
    }
    return out;
}

void expect_same_recorded_variants(const json& before, const json& after)
{
    const auto expected = recorded_variants(before);
    const auto actual = recorded_variants(after);
    ASSERT_EQ(actual.size(), expected.size());
    for (const auto& [params, want] : expected) {
        const auto got = actual.find(params);
        ASSERT_NE(got, actual.end()) << params << " did not come back";
        EXPECT_EQ(got->second.status, want.status) << params;
        ASSERT_EQ(got->second.time.has_value(), want.time.has_value()) << params;
        if (want.time)
            EXPECT_DOUBLE_EQ(*got->second.time, *want.time) << params;
        ASSERT_EQ(got->second.samples.size(), want.samples.size()) << params;
        for (std::size_t i = 0; i < want.samples.size(); ++i)
            EXPECT_DOUBLE_EQ(got->second.samples[i], want.samples[i]) << params;
    }
}

// A results document exported as T4 to a file, and that file imported back.
json round_trip(const json& results, const test::TempDir& dir)
{
    const auto file = dir.path() / "round.t4.json";
    std::ofstream(file) << t4_document(results, "results.json").dump(2);
    return import_kt_cache(file);
}

TEST(T4Format, AHandMadeResultsFileRoundTripsThroughImport)
{
    json objective = measured(0.004);
    objective["objective_seconds"] = 0.0041; // a Kernel Tuner mean, which ranks over the median
    json results{{"variants",
                  {variant(32, "ok", measured(0.002)), variant(64, "compile_error", nullptr),
                   variant(96, "launch_error", nullptr), variant(128, "wrong_result", nullptr),
                   variant(160, "timeout", nullptr), variant(192, "ok", objective), variant(224, "ok", nullptr),
                   variant(256, "pruned", nullptr)}}};
    for (json& v : results.at("variants")) // float parameters, one of them with no fraction
        v["params"]["scale"] = v.at("index") == 192 ? 2.0 : 1.5;
    results["device"] = {{"name", "NVIDIA GeForce RTX 3090"}};
    const test::TempDir dir;
    const json back = round_trip(results, dir);
    EXPECT_EQ(back.at("kernel"), "round"); // T4 names no kernel: the file does, and the import says so
    EXPECT_EQ(back.at("kernel_named_by_file"), true);
    // nor a device: the export keeps it where Kernel Tuner's caches do, and the import finds
    // the device's architecture as for a cache
    EXPECT_EQ(back.at("device"), (json{{"name", "NVIDIA GeForce RTX 3090"}}));
    EXPECT_EQ(back.at("arch"), "sm_86");
    expect_same_recorded_variants(results, back);
    EXPECT_EQ(back.at("problems").at(0).at("winner").at("params"), (json{{"bx", 32}, {"scale", 1.5}}));
}

TEST(T4FormatReal, TheConvolutionCacheRoundTripsThroughT4)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("convolution");
    const json imported = import_kt_cache(test::kernel_tuner_cache("convolution"));
    const test::TempDir dir;
    const json back = round_trip(imported, dir);
    EXPECT_EQ(back.at("variants").size(), 6768u);
    expect_same_recorded_variants(imported, back);
    EXPECT_EQ(back.at("problems").at(0).at("winner").at("params"),
              imported.at("problems").at(0).at("winner").at("params"));
}

TEST(T4FormatReal, TheExportHasTheLayoutOfKernelTunersOwnT4File)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("convolution");
    const auto theirs_file = test::kernel_tuner_cache("convolution").parent_path() / "convolution_RTX_3090_T4.json.gz";
    const json theirs = read_json_file(theirs_file);
    const json ours = t4_document(import_kt_cache(test::kernel_tuner_cache("convolution")), "convolution.json");
    EXPECT_EQ(ours.at("schema_version"), theirs.at("schema_version"));
    for (const auto& [field, value] : theirs.at("metadata").items()) // theirs, and the cache's device
        EXPECT_EQ(ours.at("metadata").at(field), value) << field;
    EXPECT_EQ(ours.at("metadata").at("device_name"), "NVIDIA GeForce RTX 3090");
    std::map<std::string, json> their_records;
    for (const json& r : theirs.at("results"))
        their_records[r.at("configuration").dump()] = r;
    ASSERT_EQ(ours.at("results").size(), their_records.size());
    for (const json& r : ours.at("results")) {
        const auto it = their_records.find(r.at("configuration").dump());
        ASSERT_NE(it, their_records.end()) << r.at("configuration").dump();
        const json& their = it->second;
        for (const auto& [field, value] : r.items()) // every field we write, Kernel Tuner writes
            EXPECT_TRUE(their.contains(field)) << field;
        EXPECT_EQ(r.at("invalidity"), their.at("invalidity")) << r.at("configuration").dump();
        EXPECT_EQ(r.at("correctness"), their.at("correctness"));
        EXPECT_EQ(r.at("objectives"), their.at("objectives"));
        const json& time = r.at("measurements").at(0);
        const json& their_time = their.at("measurements").at(0);
        EXPECT_EQ(time.at("name"), their_time.at("name"));
        EXPECT_EQ(time.at("unit"), their_time.at("unit"));
        if (their_time.at("value").is_string()) // the failure's name; their times disagree with
            EXPECT_EQ(time.at("value"), their_time.at("value")); // their own runtimes (see below)
        const auto runtimes = r.at("times").value("runtimes", json::array()).get<std::vector<double>>();
        const auto their_runtimes = their.at("times").value("runtimes", json::array()).get<std::vector<double>>();
        ASSERT_EQ(runtimes.size(), their_runtimes.size());
        for (std::size_t i = 0; i < runtimes.size(); ++i)
            EXPECT_DOUBLE_EQ(runtimes[i], their_runtimes[i]);
    }
}

TEST(T4FormatReal, KernelTunersOwnT4FileImportsWithTheCachesStatusesAndSamples)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("convolution");
    const auto t4_file = test::kernel_tuner_cache("convolution").parent_path() / "convolution_RTX_3090_T4.json.gz";
    const auto from_cache = recorded_variants(import_kt_cache(test::kernel_tuner_cache("convolution")));
    const auto from_t4 = recorded_variants(import_kt_cache(t4_file));
    ASSERT_EQ(from_t4.size(), from_cache.size());
    for (const auto& [params, want] : from_cache) {
        const auto got = from_t4.find(params);
        ASSERT_NE(got, from_t4.end()) << params;
        EXPECT_EQ(got->second.status, want.status) << params;
        // The file's "time" values are not the means of its runtimes, nor the cache's times
        // (the benchmark hub's conversion): only the samples are compared.
        ASSERT_EQ(got->second.samples.size(), want.samples.size()) << params;
        for (std::size_t i = 0; i < want.samples.size(); ++i)
            EXPECT_DOUBLE_EQ(got->second.samples[i], want.samples[i]) << params;
    }
}

TEST(T4Format, APredictionIsNotAMeasurement)
{
    const json predicted{{"variants", {variant(32, "ok", nullptr)}}};
    try {
        (void)t4_document(predicted, "sm_90/gemm.json");
        ADD_FAILURE() << "a compile-only file was exported";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("sm_90/gemm.json: nothing in it was measured"));
    }
}

} // namespace
