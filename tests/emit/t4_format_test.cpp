// T4 out and back: a results file's measurements as T4, and T4 read back by the importer
// giving the same variants, statuses and times; on Kernel Tuner's own T4 file, the same
// facts its cache holds.
#include "emit/kt_cache_import.hpp"
#include "emit/t4_format.hpp"
#include "strategy/replay.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
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
