// --nvrtc PATH and --compile-option=OPT end to end: a run compiles every variant with the
// library named (a fake NVRTC that says 11.2 and fails each compile with a line of its own)
// and its results record that toolkit's version; check-model says what it compiled with; a
// run's compile options reach every variant; a path that is no NVRTC, an architecture the
// library cannot compile for, --nvrtc beside --compiler nvcc and options NVRTC refuses are
// bad input, one line naming them.
#include "compile/nvrtc_library.hpp"
#include "measure/measure_job.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

std::string unrolled_toml() { return (test::data_dir() / "compile_limits" / "unrolled.toml").string(); }

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST(NvrtcOptionCli, ARunCompilesWithTheNamedNvrtcAndRecordsItsVersion)
{
    test::TempDir dir;
    const auto r = test::run_autotune(fmt::format("run {} --arch sm_86 --compile-only --quiet --cache none "
                                                  "--nvrtc {} --out {}",
                                                  unrolled_toml(), AUTOTUNE_FAKE_NVRTC, (dir.path() / "out").string()),
                                      dir.path());
    EXPECT_EQ(r.exit_code, 1) << "no variant compiled, so no winner";
    EXPECT_THAT(r.out, HasSubstr("0 compiled, 3 compile errors"));
    EXPECT_THAT(r.out, HasSubstr("compile_error: fake_nvrtc.cu(1): error: the fake NVRTC 11.2 compiles nothing"));
    const json results = json::parse(test::read_file(dir.path() / "out" / "sm_86" / "unrolled.json"));
    EXPECT_EQ(results.at("nvrtc_version"), "11.2");
    for (const auto& v : results.at("variants"))
        EXPECT_EQ(v.at("status"), "compile_error") << v.dump();
}

TEST(NvrtcOptionCli, CheckModelSaysWhichNvrtcCompiled)
{
    test::TempDir dir;
    const auto measured = dir.path() / "measured.json";
    std::ofstream(measured) << json{{"device_name", "NVIDIA GeForce RTX 3090"}, {"kernel_name", "unrolled"},
                                    {"problem_size", 1}, {"tune_params_keys", {"N"}}, {"tune_params", {{"N", {1, 2}}}},
                                    {"objective", "time"},
                                    {"cache", {{"1", {{"N", 1}, {"time", 1.0}, {"times", {1.0, 1.0}}}},
                                               {"2", {{"N", 2}, {"time", 2.0}, {"times", {2.0, 2.0}}}}}}}
                                   .dump();
    const std::string toolkit = test::from_environment("AUTOTUNE_NVRTC_LIBRARY", AUTOTUNE_NVRTC_LIBRARY).string();
    const auto base = fmt::format("check-model {} --measured {} --arch sm_86 --nvrtc {}", unrolled_toml(),
                                  measured.string(), toolkit);
    const auto r = test::run_autotune(base + " --json", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out.at("nvrtc_version"), linked_nvrtc().version);
    EXPECT_EQ(out.at("points"), 2);
    const auto text = test::run_autotune(base, dir.path());
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr(fmt::format("compiled with: NVRTC {} ({}), ", linked_nvrtc().version, toolkit)));
}

TEST(NvrtcOptionCli, WhatCannotBeCompiledWithIsBadInputNamingIt)
{
    test::TempDir dir;
    const auto run = [&](const std::string& options) {
        return test::run_autotune(fmt::format("run {} --arch {} --compile-only --out {}", unrolled_toml(), options,
                                              (dir.path() / "out").string()),
                                  dir.path());
    };
    const auto missing = run("sm_86 --nvrtc /no/such/libnvrtc.so");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_THAT(missing.err, HasSubstr("--nvrtc /no/such/libnvrtc.so: no such file"));
    EXPECT_EQ(line_count(missing.err), 1u) << missing.err;

    const auto no_nvrtc = run(fmt::format("sm_86 --nvrtc {}", AUTOTUNE_FAKE_DRIVER));
    EXPECT_EQ(no_nvrtc.exit_code, 2);
    EXPECT_THAT(no_nvrtc.err, HasSubstr("not an NVRTC of CUDA 11.2 or newer (it has no nvrtcGetErrorString)"));
    EXPECT_EQ(line_count(no_nvrtc.err), 1u) << no_nvrtc.err;

    const auto arch = run(fmt::format("sm_80 --nvrtc {}", AUTOTUNE_FAKE_NVRTC));
    EXPECT_EQ(arch.exit_code, 2);
    EXPECT_THAT(arch.err, HasSubstr("--arch sm_80: NVRTC 11.2 ("));
    EXPECT_THAT(arch.err, HasSubstr("cannot compile for it (supported: sm_52, sm_86, sm_90;"));
    EXPECT_EQ(line_count(arch.err), 1u) << arch.err;

    const auto nvcc = run("sm_86 --nvrtc /no/such/libnvrtc.so --compiler nvcc"); // the conflict, before the path
    EXPECT_EQ(nvcc.exit_code, 2);
    EXPECT_THAT(nvcc.err, HasSubstr("--nvrtc applies to --compiler nvrtc only"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out")) << "bad input left output";
}

TEST(NvrtcOptionCli, ACompileOptionOfARunCompilesEveryVariantWithIt)
{
    // As a build that caps registers compiles the kernel: the cap holds in every variant,
    // and each variant's recorded options say so.
    test::TempDir dir;
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto r = test::run_autotune(fmt::format("run {} --arch sm_80 --compile-only --quiet --json "
                                                  "--compile-option=-maxrregcount=32 --out {}",
                                                  spec, (dir.path() / "out").string()),
                                      dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    int heavy = 0;
    for (const auto& v : results.at("variants")) {
        EXPECT_LE(v.at("registers").get<int>(), 32) << v.dump();
        EXPECT_EQ(v.at("options").back(), "-maxrregcount=32");
        heavy += v.at("params").at("WIDTH") == 96 ? 1 : 0;
    }
    EXPECT_EQ(heavy, 2); // without the option these take about a hundred registers
    // The results say what was added, and a reader of the file (fidelity, recompiling the
    // variants with nvcc) compiles them so: the same registers, not the uncapped ~100.
    const auto file = dir.path() / "out" / "sm_80" / "heavy_blocks.json";
    EXPECT_EQ(json::parse(test::read_file(file)).at("compile_options_added"), json::array({"-maxrregcount=32"}));
    const auto fidelity = test::run_autotune(fmt::format("fidelity {} --limit 4 --json", file.string()), dir.path());
    ASSERT_EQ(fidelity.exit_code, 0) << fidelity.err;
    const json checked = json::parse(fidelity.out); // named: a temporary's member would dangle in the loop
    ASSERT_EQ(checked.at("builds").size(), 2u) << fidelity.out;
    for (const auto& build : checked.at("builds")) {
        EXPECT_EQ(build.at("checked"), 4) << build.dump();
        EXPECT_EQ(build.at("registers_identical"), 4) << build.dump();
    }
    // The tuned header tells its consumer's build what to add.
    const auto header = dir.path() / "tuned.hpp";
    const auto generated = test::run_autotune(fmt::format("header {} -o {}", file.string(), header.string()), dir.path());
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    EXPECT_THAT(test::read_file(header), HasSubstr("nvrtc, compiled with -maxrregcount=32 added)"));

    const auto bad = test::run_autotune(fmt::format("run {} --arch sm_80 --compile-only --compile-option=-bogus "
                                                    "--out {}", spec, (dir.path() / "bad").string()),
                                        dir.path());
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_THAT(bad.err, HasSubstr("--compile-option: NVRTC "));
    EXPECT_THAT(bad.err, HasSubstr("unrecognized option -bogus"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "bad"));
}

TEST(NvrtcOptionCli, OptionsTheNvrtcRefusesAreBadInputBeforeAnythingCompiles)
{
    test::TempDir dir;
    // A spec whose options NVRTC refuses: the spec is named, nothing is written.
    std::filesystem::copy(test::data_dir() / "compile_limits" / "unrolled.cuh", dir.path() / "unrolled.cuh");
    std::string spec = test::read_file(unrolled_toml());
    spec.replace(spec.find("function = \"unrolled\""), 21, "function = \"unrolled\"\noptions = [\"-std=c++99\"]");
    std::ofstream(dir.path() / "bad_options.toml") << spec;
    const auto bad_spec = test::run_autotune(fmt::format("run {} --arch sm_86 --compile-only --out {}",
                                                         (dir.path() / "bad_options.toml").string(),
                                                         (dir.path() / "out").string()),
                                             dir.path());
    EXPECT_EQ(bad_spec.exit_code, 2);
    EXPECT_THAT(bad_spec.err, HasSubstr("bad_options.toml: NVRTC "));
    EXPECT_THAT(bad_spec.err, HasSubstr("refuses the compile options '-std=c++99': nvrtc: error: invalid value for --std"));
    EXPECT_EQ(line_count(bad_spec.err), 1u) << bad_spec.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));

    const auto measured = dir.path() / "measured.json";
    std::ofstream(measured) << json{{"device_name", "NVIDIA GeForce RTX 3090"}, {"kernel_name", "unrolled"},
                                    {"problem_size", 1}, {"tune_params_keys", {"N"}}, {"tune_params", {{"N", {1}}}},
                                    {"objective", "time"}, {"cache", {{"1", {{"N", 1}, {"time", 1.0}, {"times", {1.0}}}}}}}
                                   .dump();
    // The spec's own options are checked first: a bad one is the spec's, whatever is added.
    const auto spec_blamed = test::run_autotune(fmt::format("check-model {} --measured {} --arch sm_86 "
                                                             "--compile-option=-ftz=true",
                                                             (dir.path() / "bad_options.toml").string(), measured.string()),
                                                dir.path());
    EXPECT_EQ(spec_blamed.exit_code, 2);
    EXPECT_THAT(spec_blamed.err, HasSubstr("bad_options.toml: NVRTC "));
    EXPECT_THAT(spec_blamed.err, HasSubstr("refuses the compile options '-std=c++99'"));
    const auto bad_option = test::run_autotune(fmt::format("check-model {} --measured {} --arch sm_86 "
                                                            "--compile-option=-bogus",
                                                            unrolled_toml(), measured.string()),
                                               dir.path());
    EXPECT_EQ(bad_option.exit_code, 2);
    EXPECT_THAT(bad_option.err, HasSubstr("--compile-option: NVRTC "));
    EXPECT_THAT(bad_option.err, HasSubstr("refuses the compile options '-bogus': nvrtc: error: unrecognized option -bogus"));
    EXPECT_EQ(line_count(bad_option.err), 1u) << bad_option.err;
}

// The measuring worker builds its clock probe with the run's NVRTC (the linked one may not
// build for the device: CUDA 13 builds nothing below sm_75), so a run given --nvrtc passes
// it on. Under the fake driver (it loads; it sees no device) the library is loaded before
// any device is asked for: a path that is no library is the job's answer, naming it.
TEST(NvrtcOptionCli, TheMeasuringWorkerLoadsTheRunsNvrtc)
{
    const std::filesystem::path fake_driver = AUTOTUNE_FAKE_DRIVER_DIR;
    if (!std::filesystem::exists(fake_driver / "libcuda.so.1"))
        GTEST_SKIP() << "no fake driver at " << fake_driver.string() << " (the test programs run away from their build)";
    test::TempDir dir;
    MeasureJob job;
    job.cubin_path = (dir.path() / "x.cubin").string();
    job.function = "k";
    job.grid = {1, 1, 1};
    job.block = {32, 1, 1};
    std::ofstream(dir.path() / "job.jsonl") << to_json(job).dump() << "\n";
    const auto worker = [&](const std::string& options) {
        return test::run_command(fmt::format("LD_LIBRARY_PATH={} {} measure-worker {} < {}", fake_driver.string(),
                                             test::autotune_binary().string(), options,
                                             (dir.path() / "job.jsonl").string()));
    };
    const auto missing = worker("--nvrtc /no/such/libnvrtc.so");
    ASSERT_EQ(missing.exit_code, 0) << missing.err;
    const json reply = json::parse(missing.out);
    EXPECT_EQ(reply.at("status"), "launch_error");
    EXPECT_THAT(reply.at("error").get<std::string>(), HasSubstr("/no/such/libnvrtc.so")) << missing.out;
    // Without it the linked NVRTC serves, and the fake driver's missing device answers.
    const auto linked = worker("");
    ASSERT_EQ(linked.exit_code, 0) << linked.err;
    EXPECT_THAT(json::parse(linked.out).at("error").get<std::string>(), ::testing::Not(HasSubstr("libnvrtc")));
    const auto bad = worker("--bogus x");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_THAT(bad.err, HasSubstr("measure-worker takes only --nvrtc PATH"));

    // roofline builds its FMA kernel with --nvrtc's: a path that cannot serve is bad input,
    // said before the machine's lack of a device.
    const auto roofline = test::run_command(fmt::format("LD_LIBRARY_PATH={} {} roofline --nvrtc /no/such/libnvrtc.so "
                                                        "--out {}",
                                                        fake_driver.string(), test::autotune_binary().string(),
                                                        (dir.path() / "out").string()));
    EXPECT_EQ(roofline.exit_code, 2);
    EXPECT_THAT(roofline.err, HasSubstr("--nvrtc /no/such/libnvrtc.so: no such file"));
    EXPECT_EQ(line_count(roofline.err), 1u) << roofline.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

} // namespace
