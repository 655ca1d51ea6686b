// The consumer's build of the best variants, against a scripted worker whose times come
// from the cubin it is handed ("t=0.004"): the same machine code keeps its measurement,
// other machine code is measured, and the winner is the fastest as nvcc builds it.
#include "measure/consumer_build.hpp"

#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

// Answers every job "ok" with the time written in its cubin, and logs the cubin's text.
const char* const worker = R"sh(
while IFS= read -r line; do
  cubin=$(printf '%s' "$line" | sed 's/.*"cubin":"\([^"]*\)".*/\1/')
  cat "$cubin" >> "$ASKED"; echo >> "$ASKED"
  t=$(sed 's/.*t=//' "$cubin")
  echo '{"status":"ok","error":"","driver":null,"measurement":{"verified":true,"verified_elements":1,"verification_error":0.0,"time_seconds":{"count":10,"median":'$t',"min":'$t',"max":'$t',"mean":'$t',"relative_spread":0.01,"median_noise":0.001},"throttled_discarded":0,"converged":true,"sm_clock_mhz":1000.0}}'
done
)sh";

VariantMeasurement timed(double seconds)
{
    VariantMeasurement m;
    m.status = "ok";
    m.measurement = Measurement{};
    m.measurement->verified = true;
    m.measurement->time.median = seconds;
    m.measurement->time.median_noise = 0.003;
    return m;
}

struct ConsumerBuilds : test::ScriptedVariants {
    test::TempDir dir;
    std::vector<std::optional<VariantMeasurement>> measurements;
    std::map<std::size_t, CompiledVariant> nvcc; // what nvcc builds of each variant

    ConsumerBuilds() : test::ScriptedVariants(test::scripted_variants(6, 64))
    {
        std::ofstream(dir.path() / "worker.sh") << worker;
        // NVRTC's builds as measured: #3 fastest, then #1, #2, #0, #5; #4 did not verify.
        const double nvrtc[] = {0.005, 0.003, 0.004, 0.002, 0.001, 0.006};
        for (std::size_t i = 0; i < 6; ++i) {
            compiled[i].sass_sha256 = "nvrtc-sass-" + std::to_string(i);
            measurements.push_back(timed(nvrtc[i]));
            CompiledVariant c = compiled[i];
            c.cubin = fmt::format("t={}", nvrtc[i]);
            c.cubin_sha256 = "nvcc-cubin-" + std::to_string(i);
            nvcc[i] = c;
        }
        measurements[4]->measurement->verified = false;
    }
    MeasureSettings settings() { return test::scripted_worker_settings(dir.path()); }
    ConsumerRebuild rebuild()
    {
        return [this](const std::vector<Variant>& asked) {
            std::vector<CompiledVariant> out;
            for (const auto& v : asked)
                out.push_back(nvcc.at(v.index));
            return out;
        };
    }
    std::string asked() const { return test::read_file(dir.path() / "asked.txt"); }
};

TEST(NvccBuildsOfTheBest, TheWinnerIsTheFastestAsNvccBuildsIt)
{
    ConsumerBuilds s;
    s.nvcc[3].cubin = "t=0.0045";        // NVRTC's winner: other machine code, slower
    s.nvcc[3].sass_sha256 = "other-3";
    s.nvcc[1].sass_sha256 = s.compiled[1].sass_sha256; // the same code: its measurement stands
    s.nvcc[2].cubin = "t=0.0025";        // other machine code, faster than NVRTC's #3 as nvcc builds that
    s.nvcc[2].sass_sha256 = "other-2";
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    const auto out = measure_consumer_builds(s.variants, s.compiled, s.predictions, s.measurements, 3, s.rebuild(), measurer);

    ASSERT_EQ(out.builds.size(), 3u); // #3, #1, #2: the three fastest verified
    EXPECT_EQ(out.builds[0].variant, 2u);
    EXPECT_DOUBLE_EQ(*out.builds[0].median, 0.0025);
    EXPECT_FALSE(out.builds[0].same_machine_code);
    EXPECT_EQ(out.builds[1].variant, 1u);
    EXPECT_TRUE(out.builds[1].same_machine_code);
    EXPECT_DOUBLE_EQ(*out.builds[1].median, 0.003);
    EXPECT_FALSE(out.builds[1].measurement.has_value()) << "the same machine code is not measured again";
    EXPECT_DOUBLE_EQ(*out.builds[1].noise, 0.003); // NVRTC's measurement's noise
    EXPECT_DOUBLE_EQ(*out.builds[0].noise, 0.001); // the worker's, for the build measured again
    EXPECT_EQ(out.builds[2].variant, 3u);
    EXPECT_DOUBLE_EQ(*out.builds[2].median, 0.0045);
    EXPECT_EQ(out.builds[2].sass_sha256, "other-3");
    ASSERT_TRUE(out.winner.has_value());
    EXPECT_EQ(*out.winner, 2u);
    EXPECT_EQ(s.asked(), "t=0.0045\nt=0.0025\n") << "only the two differing builds got GPU time";
}

TEST(NvccBuildsOfTheBest, ABuildThatFailsHasNoTimeAndCannotWin)
{
    ConsumerBuilds s;
    for (auto& [i, c] : s.nvcc)
        c.sass_sha256 = s.compiled[i].sass_sha256; // all the same code ...
    s.nvcc[3].status = CompileStatus::compile_error; // ... but nvcc cannot build NVRTC's winner
    s.nvcc[3].error = "kernel.cu(3): error: something NVRTC accepted";
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    const auto out = measure_consumer_builds(s.variants, s.compiled, s.predictions, s.measurements, 2, s.rebuild(), measurer);
    ASSERT_EQ(out.builds.size(), 2u);
    EXPECT_EQ(out.builds[0].variant, 1u);
    EXPECT_EQ(out.builds[1].variant, 3u);
    EXPECT_FALSE(out.builds[1].median.has_value());
    EXPECT_THAT(out.builds[1].error, HasSubstr("nvcc fails: kernel.cu(3): error"));
    EXPECT_EQ(out.winner, std::optional<std::size_t>(1));
}

TEST(NvccBuildsOfTheBest, DuplicatesAreRebuiltOnceAndNothingMeasuredGivesNothing)
{
    ConsumerBuilds s;
    s.compiled[1].sass_sha256 = s.compiled[3].sass_sha256; // #1 runs #3's code
    for (auto& [i, c] : s.nvcc)
        c.sass_sha256 = s.compiled[i].sass_sha256;
    VariantMeasurer measurer(s.spec, s.problem, s.settings());
    const auto out = measure_consumer_builds(s.variants, s.compiled, s.predictions, s.measurements, 2, s.rebuild(), measurer);
    ASSERT_EQ(out.builds.size(), 2u);
    EXPECT_EQ(out.builds[0].variant, 3u);
    EXPECT_EQ(out.builds[1].variant, 2u); // #1 skipped: the same machine code as #3

    const std::vector<std::optional<VariantMeasurement>> none(6);
    const auto empty = measure_consumer_builds(s.variants, s.compiled, s.predictions, none, 3, s.rebuild(), measurer);
    EXPECT_TRUE(empty.builds.empty());
    EXPECT_FALSE(empty.winner.has_value());
}

} // namespace
