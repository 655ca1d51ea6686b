// --nvrtc on a real GPU: the measuring worker builds its clock probe with the run's NVRTC
// (the linked one may not build for the device: CUDA 13 builds nothing below sm_75).
// Skipped, with the reason, without a device; scripts/gpu-check runs them.
#include "arch/arch_spec.hpp"
#include "compile/compile_variants.hpp"
#include "compile/nvrtc_library.hpp"
#include "gpu/gpu_test.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

class NvrtcOptionOnGpu : public test::GpuTest {};

// The worker given an NVRTC that compiles nothing cannot build its probe, and says so: the
// probe is the run's library's, not the linked one's.
TEST_F(NvrtcOptionOnGpu, TheWorkersClockProbeIsBuiltByTheNvrtcItIsGiven)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    const auto space = enumerate_space(spec, problem, SpaceSelection::default_space).variants;
    const std::vector<Variant> variants(space.begin(), space.begin() + 2);
    const ArchTarget arch = first_arch();
    CompileSettings compile;
    compile.nvrtc = load_nvrtc(AUTOTUNE_NVRTC_LIBRARY);
    const auto compiled = compile_variants(spec, problem, variants, arch, compile);
    const auto predictions = predict_variants(find_arch_spec(arch.number()), variants, compiled);
    for (const auto& [library, works] : {std::pair{std::string(AUTOTUNE_NVRTC_LIBRARY), true},
                                         std::pair{std::string(AUTOTUNE_FAKE_NVRTC), false}}) {
        SCOPED_TRACE(library);
        MeasureSettings settings = measure_settings(std::chrono::seconds(60));
        settings.worker_argv.insert(settings.worker_argv.end(), {"--nvrtc", library});
        settings.timing.max_seconds = 0.2;
        const auto results = measure_variants(spec, problem, variants, compiled, predictions, settings);
        ASSERT_EQ(results.size(), 2u);
        for (const auto& r : results) {
            ASSERT_TRUE(r.has_value());
            if (works) {
                EXPECT_EQ(r->status, "ok") << r->error;
                ASSERT_TRUE(r->measurement.has_value());
                EXPECT_GT(r->measurement->sm_clock_mhz, 100.0);
            } else {
                EXPECT_EQ(r->status, "launch_error");
                EXPECT_THAT(r->error, HasSubstr("cannot compile the clock probe"));
                EXPECT_THAT(r->error, HasSubstr("the fake NVRTC 11.2 compiles nothing"));
            }
        }
    }
}

// roofline's FMA kernel is built by --nvrtc's library: the fake's refusal shows.
TEST_F(NvrtcOptionOnGpu, RooflineBuildsItsFmaKernelWithTheGivenNvrtc)
{
    const auto r = test::run_autotune(fmt::format("roofline --nvrtc {} --out {}", AUTOTUNE_FAKE_NVRTC,
                                                  (dir_.path() / "out").string()),
                                      dir_.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_THAT(r.err, HasSubstr("cannot compile the FMA kernel"));
    EXPECT_THAT(r.err, HasSubstr("the fake NVRTC 11.2 compiles nothing"));
    const auto linked = test::run_autotune(fmt::format("roofline --nvrtc {} --out {}", AUTOTUNE_NVRTC_LIBRARY,
                                                       (dir_.path() / "out").string()),
                                           dir_.path());
    EXPECT_EQ(linked.exit_code, 0) << linked.err;
}

// End to end: a tuning run given --nvrtc (the toolkit's own library, named by path) measures.
TEST_F(NvrtcOptionOnGpu, ATuningRunGivenNvrtcMeasures)
{
    const auto out = dir_.path() / "out";
    const auto r = test::run_autotune(fmt::format("copy --arch {} --nvrtc {} --strategy random --budget 3 --quiet "
                                                  "--json --out {}",
                                                  first_arch().name(), AUTOTUNE_NVRTC_LIBRARY, out.string()),
                                      dir_.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json results = nlohmann::json::parse(r.out);
    EXPECT_EQ(results.at("measured"), true) << r.err;
    std::size_t measured = 0;
    for (const auto& v : results.at("variants"))
        measured += v.at("measurement").is_object() && v.at("measurement").value("verified", false) ? 1 : 0;
    EXPECT_EQ(measured, 3u) << r.out;
}

} // namespace
