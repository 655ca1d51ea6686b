// --compile-timeout end to end: a variant whose compile never ends is recorded as
// compile_timeout in the results and the table, the run goes on to rank the others and
// succeeds; the option's default is in --help; a timeout that is not a positive number of
// seconds is bad input naming the option.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

std::string unrolled_spec() { return (test::data_dir() / "compile_limits" / "unrolled.toml").string(); }

TEST(CompileLimitsCli, AVariantPastTheTimeoutIsCompileTimeoutAndTheRunGoesOn)
{
    test::TempDir dir;
    const auto r = test::run_autotune(fmt::format("run {} --arch sm_90 --compile-only --quiet --cache none -j 1 "
                                                  "--compile-timeout 8 --out {}",
                                                  unrolled_spec(), (dir.path() / "results").string()),
                                      dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("compile_timeout: the compile did not finish within 8 s (--compile-timeout)"));
    EXPECT_THAT(r.out, HasSubstr("2 compiled, 1 compile errors (1 compile_timeout)"));

    const json results = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "unrolled.json"));
    std::map<std::int64_t, json> by_n;
    for (const auto& v : results.at("variants"))
        by_n[v.at("params").at("N").get<std::int64_t>()] = v;
    ASSERT_EQ(by_n.size(), 3u);
    EXPECT_EQ(by_n[65536].at("status"), "compile_timeout");
    EXPECT_THAT(by_n[65536].at("error").get<std::string>(), HasSubstr("--compile-timeout"));
    EXPECT_TRUE(by_n[65536].at("registers").is_null());
    for (const std::int64_t n : {1, 2}) {
        EXPECT_EQ(by_n[n].at("status"), "ok") << n;
        EXPECT_GT(by_n[n].at("registers").get<int>(), 0) << n;
    }
}

TEST(CompileLimitsCli, HelpStatesTheDefaultTimeout)
{
    test::TempDir dir;
    const auto r = test::run_autotune("gemm --help", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("--compile-timeout arg (=300)"));
}

TEST(CompileLimitsCli, ATimeoutThatIsNotPositiveSecondsIsBadInput)
{
    test::TempDir dir;
    for (const char* value : {"0", "-3", "nan", "1e300"}) {
        const auto r = test::run_autotune(fmt::format("run {} --arch sm_90 --compile-only --compile-timeout {} --out {}",
                                                      unrolled_spec(), value, (dir.path() / "results").string()),
                                          dir.path());
        EXPECT_EQ(r.exit_code, 2) << value;
        EXPECT_THAT(r.err, HasSubstr("--compile-timeout")) << value;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "results")) << value;
    }
}

} // namespace
