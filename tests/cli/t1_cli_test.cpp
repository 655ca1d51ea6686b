// `autotune run FILE.json`: a T1 kernel description runs as it is, without a spec written
// by hand; what it cannot honour is one line naming the field, exit 2.
#include "emit/results_reader.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <map>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

std::filesystem::path shared_kernel(const std::string& file)
{
    return test::source_dir() / ".." / "shared" / "data" / "kernels" / file;
}

class T1Cli : public ::testing::Test {
protected:
    test::CommandResult autotune(const std::string& arguments) { return test::run_autotune(arguments, dir.path()); }
    std::string out_dir() const { return (dir.path() / "results").string(); }
    test::TempDir dir;
};

TEST_F(T1Cli, PnpolyCompilesAndPredictsFromItsT1File)
{
    if (!std::filesystem::exists(shared_kernel("pnpoly.json")))
        GTEST_SKIP() << "no T1 file at " << shared_kernel("pnpoly.json").string()
                     << " (the shared data is not beside this checkout)";
    // Variants 0..2 are between_method 0, block_size_x 32, tile_size 1, use_method 0..2.
    const auto r = autotune(fmt::format("run {} --arch sm_86 --compile-only --variants 0,1,2 --out {}",
                                        shared_kernel("pnpoly.json").string(), out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The space's valid count, not the three picked.
    const KernelSpec spec = load_spec(shared_kernel("pnpoly.json"));
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
    EXPECT_THAT(r.out, HasSubstr(fmt::format("3 variants of pnpoly for sm_86 (--variants picked them from the {} of 4092 "
                                             "combinations valid): 3 compiled, 0 compile errors",
                                             space.variants.size())));
    // The file is one every reader takes (replay --static, --prior): a T1 spec has no cost
    // model, so its problem has ceilings but no place on the roofline.
    const auto path = dir.path() / "results" / "sm_86" / "pnpoly.json";
    nlohmann::ordered_json results;
    ASSERT_NO_THROW(results = read_results_file(path));
    EXPECT_EQ(results.at("variants").size(), 3u);
    EXPECT_TRUE(results.at("problems").at(0).at("ridge").is_null());
}

TEST_F(T1Cli, ABrokenT1FileIsOneLineNamingTheFieldAndExitTwo)
{
    std::ofstream(dir.path() / "k.cu") << "extern \"C\" __global__ void k(float* o) {}\n";
    std::ofstream(dir.path() / "k.json") << R"json({
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "[32, 64]"}]},
  "KernelSpecification": {"KernelFile": "k.cu", "LocalSize": {"X": "block_size_x"}, "ProblemSize": [1024],
                          "Arguments": [{"Name": "o", "Type": "float", "AccessType": "WriteOnly", "Size": "ProblemSize[0]"}]}
})json";
    const auto r = autotune(fmt::format("run {} --arch sm_86 --compile-only --out {}", (dir.path() / "k.json").string(),
                                        out_dir()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, fmt::format("autotune: {}: KernelSpecification.KernelName is missing\n",
                                 (dir.path() / "k.json").string()));
}

// A T1 file's tuning settings (here a writer's search and repetition counts) do not stop
// the run: each is one stderr line naming the field, once, and the run goes on.
TEST_F(T1Cli, TuningSettingsInTheFileAreNotedOnceAndTheRunGoesOn)
{
    std::ofstream(dir.path() / "k.cu") << "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] = 1; }\n";
    std::ofstream(dir.path() / "k.json") << R"json({
  "SearchSettings": {"TunerName": "optuna", "Trials": 10},
  "BenchmarkConfig": {"iterations": 1000},
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "list(range(32, 64+1, 32))"}],
                         "Constraints": []},
  "KernelSpecification": {"KernelName": "k", "KernelFile": "k.cu", "LocalSize": {"X": "block_size_x"}, "ProblemSize": [1024],
                          "Arguments": [{"Name": "o", "Type": "float", "AccessType": "WriteOnly", "Size": "ProblemSize[0]"}]}
})json";
    const std::string file = (dir.path() / "k.json").string();
    const auto r = autotune(fmt::format("run {} --arch sm_86 --compile-only --quiet --out {}", file, out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, fmt::format("autotune: {0}: SearchSettings is not used (the search is --strategy)\n"
                                 "autotune: {0}: BenchmarkConfig is not used (a variant is run until its median is "
                                 "known to --max-noise)\n",
                                 file));
    const auto results = nlohmann::json::parse(test::read_file(dir.path() / "results" / "sm_86" / "k.json"));
    EXPECT_EQ(results.at("variants").size(), 2u);
}

// BAT's files have no ProblemSize (the launch is GlobalSize in threads, OpenCL's way), and a
// Default for a fixed limit that is not its value (MAX_THREADS = [1024], Default 1): the run
// goes on without a reference variant, saying so, and prints no empty problem.
TEST_F(T1Cli, AFileWithoutProblemSizeOrUsableDefaultsRuns)
{
    std::ofstream(dir.path() / "k.cu") << "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] = 1; }\n";
    std::ofstream(dir.path() / "k.json") << R"json({
  "General": {"FormatVersion": "0.0.1", "BenchmarkName": "k"},
  "ConfigurationSpace": {"TuningParameters": [{"Name": "BLOCK_SIZE_X", "Type": "int", "Values": "[32, 64]", "Default": 32},
                                              {"Name": "MAX_THREADS", "Type": "int", "Values": "[1024]", "Default": 1}],
                         "Conditions": [{"Expression": "BLOCK_SIZE_X <= MAX_THREADS", "Parameters": ["BLOCK_SIZE_X", "MAX_THREADS"]}]},
  "KernelSpecification": {"Language": "CUDA", "KernelName": "k", "KernelFile": "k.cu", "GlobalSizeType": "OpenCL",
                          "LocalSize": {"X": "BLOCK_SIZE_X", "Y": "1", "Z": "1"}, "GlobalSize": {"X": "4096", "Y": "1", "Z": "1"},
                          "Misc": {"jitify": true},
                          "Arguments": [{"Name": "o", "Type": "float", "AccessType": "WriteOnly", "Size": 4096}]},
  "verification": {"type": "reference_CPU", "path": "/path/reference.cpp"}
})json";
    const std::string file = (dir.path() / "k.json").string();
    const auto r = autotune(fmt::format("run {} --arch sm_86 --compile-only --out {}", file, out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr(fmt::format("autotune: {}: ConfigurationSpace.TuningParameters[1].Default is not used "
                                             "(1 is not among the Values: no reference variant)\n",
                                             file)));
    EXPECT_THAT(r.err, HasSubstr(fmt::format("autotune: {}: KernelSpecification.Misc is not used", file)));
    EXPECT_THAT(r.err, HasSubstr(fmt::format("autotune: {}: verification is not used", file)));
    EXPECT_THAT(r.out, HasSubstr("2 variants of k for sm_86"));
    EXPECT_THAT(r.out, HasSubstr("\nproblem: 0.0164 MB and no flops"));
    EXPECT_THAT(r.out + r.err, testing::Not(HasSubstr("()")));
}

// An energy-tuning space (Kernel Tuner's nvml_gr_clock) predicts each variant at the clock
// it asks the GPU for: at half the clock the SMs' terms take twice as long, DRAM's the same.
TEST_F(T1Cli, AClockParameterIsPredictedAtEachValue)
{
    std::ofstream(dir.path() / "k.cu") << R"cu(extern "C" __global__ void k(float* o) {
    float a = threadIdx.x;
    for (int i = 0; i < 256; ++i)
        a = fmaf(a, 1.0001f, 0.5f);
    o[blockIdx.x * blockDim.x + threadIdx.x] = a;
})cu";
    std::ofstream(dir.path() / "k.json") << R"json({
  "ConfigurationSpace": {"TuningParameters": [{"Name": "block_size_x", "Type": "int", "Values": "[128]"},
                                              {"Name": "nvml_gr_clock", "Type": "int", "Values": "[705, 1410]"}]},
  "KernelSpecification": {"KernelName": "k", "KernelFile": "k.cu", "LocalSize": {"X": "block_size_x"}, "ProblemSize": [1048576],
                          "Arguments": [{"Name": "o", "Type": "float", "AccessType": "WriteOnly", "Size": "ProblemSize[0]"}]}
})json";
    const auto r = autotune(fmt::format("run {} --arch sm_80 --device a100-sxm-80gb --compile-only --quiet --out {}",
                                        (dir.path() / "k.json").string(), out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto results = nlohmann::json::parse(test::read_file(dir.path() / "results" / "sm_80" / "k.json"));
    std::map<int, nlohmann::json> terms; // by clock
    for (const auto& v : results.at("variants"))
        terms[v.at("params").at("nvml_gr_clock").get<int>()] = v.at("predicted_time").at("terms");
    ASSERT_EQ(terms.size(), 2u) << results.dump();
    std::size_t sm_terms = 0;
    for (const auto& [name, seconds] : terms.at(1410).items()) {
        const double fast = seconds.get<double>();
        const double expected = name == "dram" ? fast : 2 * fast;
        sm_terms += name == "dram" ? 0 : 1;
        EXPECT_NEAR(terms.at(705).at(name).get<double>(), expected, 1e-9 * expected) << name;
    }
    EXPECT_GE(sm_terms, 2u); // the FMAs' pipe and the issue term at least
}

} // namespace
