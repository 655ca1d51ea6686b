// The autotune program as users run it: exit codes, one-line errors naming the bad
// input, nothing written on bad input, and the compile-only main job on a small kernel.
#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "measure/cuda_driver.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

class Cli : public ::testing::Test {
protected:
    // Runs autotune with a private cache and results directory.
    test::CommandResult autotune(const std::string& arguments)
    {
        return test::run_autotune(arguments, dir.path());
    }
    std::string out_dir() const { return (dir.path() / "results").string(); }
    bool nothing_written() const { return !std::filesystem::exists(dir.path() / "results"); }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    test::TempDir dir;
};

TEST_F(Cli, BadInputExitsTwoWithOneLineNamingItAndWritesNothing)
{
    const std::string out = " --out " + out_dir();
    const std::vector<std::pair<std::string, std::string>> cases{
        {"nope --arch sm_90", "unknown kernel or command 'nope' (commands: list, run"},
        {"copy --arch sm_12", "sm_12"},
        {"copy --arch sm_70", "--arch sm_70: NVRTC"},
        {"copy --arch 90", "expected sm_XX"},
        {"copy --arch sm_90 --problem N=abc", "'abc' is not an integer"},
        {"copy --arch sm_90 --problem N", "not NAME=VALUE"},
        {"copy --arch sm_90 --problem M=5", "'M' is not a problem variable of copy (known: N)"},
        {"copy --arch sm_90 --space huge", "--space 'huge'"},
        {"copy --arch sm_90 --compiler clang", "--compiler 'clang'"},
        {"copy --arch sm_90 --nvcc-flags=-G", "--nvcc-flags applies to --compiler nvcc only"},
        {"copy --arch sm_90 --device nope", "unknown device 'nope'"},
        {"copy --arch sm_90 --variants 1,x", "'x' is not a variant index"},
        {"copy --arch sm_90 --variants 5", "5 is not a valid variant"},
        {"copy --arch sm_90 --device a100-sxm-80gb", "--device a100-sxm-80gb is sm_80, not sm_90"},
        {"copy --arch sm_90 --lazy-compile", "--lazy-compile: --strategy exhaustive measures every variant"},
        {"copy --arch sm_90 --lazy-compile --strategy model --budget 3", "--strategy model needs --prior"},
        {"copy --arch sm_90 --lazy-compile --strategy random --budget 3 --shard 0/2", "--lazy-compile with --shard"},
        {"copy", "--arch"},
        {"copy --arch sm_90 --frobnicate", "frobnicate"},
        {"run " + (dir.path() / "missing.toml").string() + " --arch sm_90", "spec file not found"},
        {"run --arch sm_90", "needs a spec file"},
        {"--bogus", "'--bogus' is not a command"},
    };
    for (const auto& [arguments, expected] : cases) {
        const auto r = autotune(arguments + out);
        EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.err;
        EXPECT_THAT(r.err, HasSubstr(expected)) << arguments;
        EXPECT_EQ(lines(r.err), 1u) << arguments << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments;
        EXPECT_TRUE(nothing_written()) << arguments;
    }
}

TEST_F(Cli, ASpecWithABadExpressionIsBadInputNamingTheSpecAndTheExpression)
{
    const auto spec = dir.path() / "bad.toml";
    std::filesystem::copy_file(test::data_dir() / "broken" / "broken.cuh", dir.path() / "broken.cuh");
    std::string text = test::read_file(test::data_dir() / "broken" / "broken.toml");
    text.replace(text.find("ceil_div(N, 128)"), 16, "ceil_div(N, BLOK)");
    std::ofstream(spec) << text;
    const auto r = autotune(fmt::format("run {} --arch sm_90 --out {}", spec.string(), out_dir()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(spec.string()));
    EXPECT_THAT(r.err, HasSubstr("launch.grid[0]"));
    EXPECT_THAT(r.err, HasSubstr("'BLOK'"));
    EXPECT_EQ(lines(r.err), 1u);
    EXPECT_TRUE(nothing_written());
}

TEST_F(Cli, CompileOnlyWritesTheResultsFileAndPrintsTheTable)
{
    const auto r = autotune("copy --arch sm_80 --compile-only --quiet --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("regs"));
    EXPECT_THAT(r.out, HasSubstr("spill st/ld"));
    EXPECT_THAT(r.out, HasSubstr("36 variants of copy for sm_80"));
    EXPECT_TRUE(r.err.empty()) << r.err;

    const json results = json::parse(test::read_file(dir.path() / "results" / "sm_80" / "copy.json"));
    EXPECT_EQ(results.at("kernel"), "copy");
    EXPECT_EQ(results.at("arch"), "sm_80");
    EXPECT_FALSE(results.at("nvrtc_version").get<std::string>().empty());
    EXPECT_EQ(results.at("measured"), false);
    EXPECT_TRUE(results.at("device").is_null());
    ASSERT_EQ(results.at("variants").size(), 36u);
    for (const auto& v : results.at("variants")) {
        for (const char* field : {"params", "name_expression", "lowered_name", "template", "options", "status",
                                  "registers", "spill_stores", "spill_loads", "stack_frame", "shared_static",
                                  "register_cap", "cubin_sha256"})
            EXPECT_TRUE(v.contains(field)) << field;
        // How long a compile took and whether the cache served it belong to the run, not
        // to the results: they live in the run's side file.
        for (const char* field : {"cache_hit", "compile_seconds"})
            EXPECT_FALSE(v.contains(field)) << field;
        EXPECT_EQ(v.at("status"), "ok");
        EXPECT_EQ(v.at("template"), "templates/copy.cuh");
        EXPECT_TRUE(v.at("params").is_object());
        EXPECT_GT(v.at("registers").get<int>(), 0);
    }
    for (const char* field : {"created", "compile_seconds"})
        EXPECT_FALSE(results.contains(field)) << field;
    const json run = json::parse(test::read_file(dir.path() / "results" / "sm_80" / "runs" / "copy.json"));
    EXPECT_EQ(run.at("problems").at(0).at("variants").size(), 36u);
    EXPECT_TRUE(run.at("problems").at(0).at("variants").at(0).at("cache_hit").is_boolean());
    EXPECT_FALSE(run.at("created").get<std::string>().empty());
    // No temporary left next to the results file and the folder of run logs.
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "results" / "sm_80"))
        files.insert(entry.path().filename().string());
    EXPECT_EQ(files, (std::set<std::string>{"copy.json", "runs"}));
}

TEST_F(Cli, ASecondRunWithTheSameCacheCompilesNothing)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --out " + out_dir()).exit_code, 0);
    const auto r = autotune("copy --arch sm_90 --compile-only --json --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    const json run = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "runs" / "copy.json"));
    for (const auto& v : run.at("problems").at(0).at("variants"))
        EXPECT_TRUE(v.at("cache_hit").get<bool>()) << v.at("index");
    EXPECT_EQ(json::parse(test::read_file(dir.path() / "results" / "sm_90" / "copy.json")), results);
}

TEST_F(Cli, WithoutCompileOnlyItSaysNothingWasMeasured)
{
    const auto r = autotune("copy --arch sm_90 --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("nothing was measured"));
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "results" / "sm_90" / "copy.json"));
}

TEST_F(Cli, ProblemSizesReachTheResultsAndTheGeometry)
{
    const auto r = autotune("copy --arch sm_90 --compile-only --json --problem N=1000 --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    EXPECT_EQ(results.at("problem").at("N"), 1000);
    const json& first = results.at("variants").at(0); // BLOCK 128, VEC 1, ITEMS 1
    EXPECT_EQ(first.at("grid").at(0), 8);              // ceil(1000 / 128)
}

TEST_F(Cli, ABrokenTemplateGivesCompileErrorsAndASuccessfulRun)
{
    const auto spec = test::data_dir() / "broken" / "broken.toml";
    const auto r = autotune(fmt::format("run {} --arch sm_90 --compile-only --json --out {}", spec.string(), out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    ASSERT_EQ(results.at("variants").size(), 3u);
    EXPECT_EQ(results.at("variants").at(0).at("status"), "ok");
    EXPECT_EQ(results.at("variants").at(2).at("status"), "compile_error");
    EXPECT_THAT(results.at("variants").at(2).at("error").get<std::string>(), HasSubstr("broken on purpose"));
    EXPECT_TRUE(results.at("variants").at(2).at("registers").is_null());
}

TEST_F(Cli, ListShowsEachKernelWithItsSpaceSizes)
{
    const auto r = autotune("list --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json listing = json::parse(r.out);
    std::size_t spec_files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "kernels"))
        spec_files += entry.path().extension() == ".toml" ? 1 : 0;
    ASSERT_EQ(listing.size(), spec_files);
    ASSERT_GE(listing.size(), 6u); // copy, gemm, gemm_bf16, reduce, transpose, triad
    for (const auto& kernel : listing) {
        const KernelSpec spec = load_spec(test::source_dir() / "kernels" / (kernel.at("name").get<std::string>() + ".toml"));
        const Problem problem = resolve_problem(spec, {});
        EXPECT_EQ(kernel.at("space").at("default").at("valid"),
                  enumerate_space(spec, problem, SpaceSelection::default_space).variants.size());
        EXPECT_EQ(kernel.at("parameters").size(), spec.parameters.size());
    }
    const auto text = autotune("list");
    EXPECT_THAT(text.out, HasSubstr("gemm"));
    EXPECT_THAT(text.out, HasSubstr("default 176 valid of 256 combinations"));
}

TEST_F(Cli, FidelityRecompilesWithNvccAndReportsAgreement)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --out " + out_dir()).exit_code, 0);
    const auto r = autotune(fmt::format("fidelity {}/sm_90/copy.json --limit 3 --json", out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);
    ASSERT_EQ(report.at("builds").size(), 2u); // plain nvcc, and nvcc with the matching flag
    EXPECT_EQ(report.at("builds").at(1).at("nvcc_flags").at(0), "-Xcicc=--sharedmem32=0");
    for (const auto& build : report.at("builds")) {
        EXPECT_EQ(build.at("checked"), 3);
        // copy uses no shared memory: NVRTC and nvcc agree either way (docs/fidelity.md).
        EXPECT_EQ(build.at("machine_code_identical"), 3);
        for (const auto& v : build.at("variants")) {
            EXPECT_EQ(v.at("status"), "ok");
            EXPECT_TRUE(v.at("registers").at(1).is_number());
        }
    }
    const auto mine = autotune(fmt::format("fidelity {}/sm_90/copy.json --limit 1 --json --nvcc-flags=-lineinfo", out_dir()));
    ASSERT_EQ(mine.exit_code, 0) << mine.err;
    EXPECT_EQ(json::parse(mine.out).at("builds").size(), 1u);
    const auto missing = autotune("fidelity " + (dir.path() / "none.json").string());
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_THAT(missing.err, HasSubstr("none.json"));
}

TEST_F(Cli, HelpIsAvailableForEveryCommand)
{
    for (const char* arguments : {"--help", "gemm --help", "run --help", "list --help", "fidelity --help"}) {
        const auto r = autotune(arguments);
        EXPECT_EQ(r.exit_code, 0) << arguments;
        EXPECT_THAT(r.out, HasSubstr("usage: autotune")) << arguments;
    }
    EXPECT_EQ(autotune("").exit_code, 2);
}

} // namespace

namespace {

TEST_F(Cli, TwoConcurrentRunsShareTheCacheSafely)
{
    // Both start cold on one cache directory and race on the same entries.
    const std::string run = fmt::format("AUTOTUNE_CACHE_DIR={} {} copy --arch sm_86 --compile-only --json --out ",
                                        (dir.path() / "cache").string(), test::autotune_binary().string());
    const auto both = test::run_command(fmt::format(
        "({0}{1}/a > {1}/a.json; echo $? > {1}/a.rc) & ({0}{1}/b > {1}/b.json; echo $? > {1}/b.rc) & wait", run,
        dir.path().string()));
    ASSERT_EQ(both.exit_code, 0) << both.err;
    EXPECT_EQ(test::read_file(dir.path() / "a.rc"), "0\n");
    EXPECT_EQ(test::read_file(dir.path() / "b.rc"), "0\n");
    const json a = json::parse(test::read_file(dir.path() / "a.json"));
    const json b = json::parse(test::read_file(dir.path() / "b.json"));
    ASSERT_EQ(a.at("variants").size(), b.at("variants").size());
    for (std::size_t i = 0; i < a.at("variants").size(); ++i)
        EXPECT_EQ(a.at("variants").at(i).at("sass_sha256"), b.at("variants").at(i).at("sass_sha256"));
    const auto third = autotune("copy --arch sm_86 --compile-only --json --out " + out_dir());
    ASSERT_EQ(third.exit_code, 0) << third.err;
    const json third_results = json::parse(third.out); // named: a temporary's member would dangle in the loop
    ASSERT_FALSE(third_results.at("variants").empty());
    for (const auto& v : third_results.at("variants"))
        EXPECT_EQ(v.at("status"), "ok");
    const json log = json::parse(test::read_file(dir.path() / "results" / "sm_86" / "runs" / "copy.json"));
    for (const auto& v : log.at("problems").at(0).at("variants"))
        EXPECT_TRUE(v.at("cache_hit").get<bool>());
}

} // namespace

namespace {

TEST_F(Cli, OccupancyCalculatorPrintsTheSeedsExample)
{
    const auto r = autotune("occupancy --arch sm_70 --threads 320 --regs 37 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json o = json::parse(r.out);
    EXPECT_EQ(o.at("blocks_per_sm"), 4);
    EXPECT_EQ(o.at("active_warps"), 40);
    EXPECT_EQ(o.at("max_warps"), 64);
    EXPECT_DOUBLE_EQ(o.at("fraction").get<double>(), 0.625);
    EXPECT_EQ(o.at("limiter"), "registers");
    ASSERT_EQ(o.at("by_block_size").size(), 32u); // 32, 64, ..., 1024
    EXPECT_EQ(o.at("by_block_size").at(3).at("threads"), 128);
    EXPECT_EQ(o.at("by_block_size").at(3).at("blocks_per_sm"), 12);

    const auto text = autotune("occupancy --arch sm_100 --threads 768 --regs 16");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("blocks per SM  2"));
    EXPECT_THAT(text.out, HasSubstr("occupancy      75.0%"));
    EXPECT_THAT(text.out, HasSubstr("limited by     warps"));
}

TEST_F(Cli, OccupancyBadInputIsOneLineAndExitTwo)
{
    const std::vector<std::pair<std::string, std::string>> cases{
        {"occupancy --arch sm_90 --threads 0 --regs 32", "--threads 0"},
        {"occupancy --arch sm_90 --threads 2000 --regs 32", "--threads 2000"},
        {"occupancy --arch sm_90 --threads 128 --regs 300", "--regs 300"},
        {"occupancy --arch sm_12 --threads 128 --regs 32", "sm_12"},
        {"occupancy --arch sm_95 --threads 128 --regs 32", "95"},
        {"occupancy --arch sm_90 --regs 32", "--threads"},
        {"occupancy --arch sm_90 --threads 1024 --regs 128", "no block fits"},
    };
    for (const auto& [arguments, expected] : cases) {
        const auto r = autotune(arguments);
        EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.out;
        EXPECT_THAT(r.err, HasSubstr(expected)) << arguments;
        EXPECT_EQ(lines(r.err), 1u) << arguments << "\n" << r.err;
    }
}

TEST_F(Cli, ArchsPrintsBothTables)
{
    const auto r = autotune("archs --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json tables = json::parse(r.out);
    EXPECT_EQ(tables.at("archs").size(), arch_table().size());
    EXPECT_EQ(tables.at("devices").size(), device_table().size());
    const auto text = autotune("archs");
    EXPECT_THAT(text.out, HasSubstr("sm_90"));
    EXPECT_THAT(text.out, HasSubstr("h200-sxm"));
}

TEST_F(Cli, CompileOnlyResultsCarryOccupancy)
{
    const auto r = autotune("copy --arch sm_90 --compile-only --json --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    for (const auto& v : results.at("variants")) {
        const json& o = v.at("occupancy");
        ASSERT_TRUE(o.is_object()) << v.at("index");
        for (const char* field : {"blocks_per_sm", "active_warps", "fraction", "limiter"})
            EXPECT_TRUE(o.contains(field)) << field;
        const int threads = v.at("block").at(0).get<int>();
        EXPECT_EQ(o.at("active_warps").get<int>(), o.at("blocks_per_sm").get<int>() * threads / 32);
    }
    EXPECT_EQ(results.at("roofline_device").at("key"), "h100-sxm");
    EXPECT_EQ(results.at("roofline_device").at("chosen_by"), "default for sm_90");
    const auto table = autotune("copy --arch sm_90 --compile-only --device h200-sxm --out " + out_dir());
    EXPECT_THAT(table.out, HasSubstr("blk/SM"));
    EXPECT_THAT(table.out, HasSubstr("limit"));
    EXPECT_THAT(table.out, HasSubstr("device model: h200-sxm"));
    const auto none = autotune("copy --arch sm_87 --compile-only --out " + out_dir()); // Jetson Orin: none
    EXPECT_THAT(none.out, HasSubstr("device model: none known for sm_87"));
}

} // namespace

namespace {

// Where no driver is installed (CI, this machine), measuring commands say so and go on.
class CliWithoutDriver : public Cli {
protected:
    void SetUp() override
    {
        std::string why_not;
        if (CudaDriver::load(why_not))
            GTEST_SKIP() << "a CUDA driver is present: the no-driver path cannot be observed here";
    }
};

TEST_F(CliWithoutDriver, DevicesSaysSoInOneLineAndListsNothing)
{
    const auto text = autotune("devices");
    EXPECT_EQ(text.exit_code, 0);
    EXPECT_TRUE(text.out.empty());
    EXPECT_THAT(text.err, HasSubstr("no CUDA driver"));
    EXPECT_EQ(lines(text.err), 1u);
    const auto as_json = autotune("devices --json");
    EXPECT_EQ(as_json.exit_code, 0);
    EXPECT_EQ(json::parse(as_json.out), json::array());
}

TEST_F(CliWithoutDriver, TuningCompilesPredictsAndSaysNothingWasMeasured)
{
    const auto r = autotune("copy --arch sm_90 --quiet --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("nothing was measured: no CUDA driver"));
    EXPECT_EQ(lines(r.err), 1u);
    const json results = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "copy.json"));
    EXPECT_EQ(results.at("measured"), false);
    EXPECT_TRUE(results.at("device").is_null());
    EXPECT_THAT(results.at("not_measured").get<std::string>(), HasSubstr("no CUDA driver"));
    for (const auto& v : results.at("variants")) {
        EXPECT_TRUE(v.at("measurement").is_null());
        EXPECT_TRUE(v.at("occupancy").is_object());
    }
    // No journal is left behind.
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "results" / "sm_90" / "copy.journal.jsonl"));
}

TEST_F(CliWithoutDriver, LazyCompileWithoutAGpuCompilesEveryVariantAndSaysWhy)
{
    const auto r = autotune("copy --arch sm_90 --quiet --lazy-compile --strategy forest --budget 3 --json --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--lazy-compile: no GPU to measure on, so every variant was compiled"));
    EXPECT_EQ(lines(r.err), 2u) << r.err; // that, and nothing was measured
    const json results = json::parse(r.out);
    EXPECT_TRUE(results.at("search").is_null());
    const auto& variants = results.at("variants");
    EXPECT_GT(variants.size(), 3u);
    for (const auto& v : variants)
        EXPECT_EQ(v.at("status"), "ok");
}

} // namespace

namespace {

TEST_F(Cli, ReportWritesMarkdownAndAPlotPerResultsFile)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --out " + out_dir()).exit_code, 0);
    ASSERT_EQ(autotune("gemm --arch sm_90 --compile-only --variants 2236800,2237088 --out " + out_dir()).exit_code, 0);
    const auto report_dir = dir.path() / "report";
    const auto r = autotune(fmt::format("report {0}/sm_90/copy.json {0}/sm_90/gemm.json -o {1}", out_dir(), report_dir.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string md = test::read_file(report_dir / "report.md");
    EXPECT_THAT(md, HasSubstr("## copy on sm_90, not measured"));
    EXPECT_THAT(md, HasSubstr("## gemm on sm_90, not measured"));
    EXPECT_THAT(md, HasSubstr("**Nothing was measured**"));
    EXPECT_TRUE(std::filesystem::exists(report_dir / "copy-sm_90-predicted.svg"));
    EXPECT_TRUE(std::filesystem::exists(report_dir / "copy-sm_90-predicted-registers.svg"));
    EXPECT_THAT(md, HasSubstr("![registers against performance](copy-sm_90-predicted-registers.svg)"));
    // gemm's spec tunes four problems by default: a section and a plot each.
    for (const char* size : {"1024", "2048", "4096", "8192"})
        EXPECT_THAT(md, HasSubstr(fmt::format("## gemm on sm_90, not measured — M = {0}, N = {0}, K = {0}", size)));
    EXPECT_TRUE(std::filesystem::exists(report_dir / "gemm-sm_90-predicted-p1.svg"));
    EXPECT_TRUE(std::filesystem::exists(report_dir / "gemm-sm_90-predicted-p4.svg"));

    const auto missing = autotune("report " + (dir.path() / "none.json").string() + " -o " + report_dir.string());
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_THAT(missing.err, HasSubstr("none.json"));
}

TEST_F(Cli, ResultsCarryTheProblemsRooflineAndTheModelsWinner)
{
    const auto r = autotune("gemm --arch sm_90 --compile-only --json --variants 2236800,2237088,3363600 "
                            "--problem M=4096,N=4096,K=4096 --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    ASSERT_EQ(results.at("problems").size(), 1u); // --problem replaces the spec's set
    const json& p = results.at("problems").at(0);
    EXPECT_DOUBLE_EQ(p.at("flops").get<double>(), 2.0 * 4096 * 4096 * 4096);
    EXPECT_DOUBLE_EQ(p.at("bytes").get<double>(), 4.0 * 3 * 4096 * 4096);
    EXPECT_NEAR(p.at("intensity").get<double>(), 682.67, 0.01);
    EXPECT_EQ(p.at("bound"), "compute");
    EXPECT_EQ(p.at("ceilings").at("source"), "datasheet: h100-sxm");
    EXPECT_EQ(p.at("winner").at("basis"), "predicted");
    EXPECT_TRUE(p.at("prediction_quality").is_null());
    for (const auto& v : results.at("variants")) {
        EXPECT_TRUE(v.at("roofline_fraction").is_null()); // nothing measured: no measured figures
        EXPECT_GT(v.at("predicted_fraction").get<double>(), 0);
        EXPECT_TRUE(v.at("diagnosis").is_array());
    }
}

// --variants tunes a few of a space: the summary counts the space's valid variants, not the
// picked ones, and says that --variants picked them; a shard says its part the same way.
TEST_F(Cli, TheSummaryCountsTheWholeSpaceAndSaysWhatPickedTheTunedVariants)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    const Space space = enumerate_space(spec, resolve_problems(spec, {"M=4096,N=4096,K=4096"}).front(),
                                        SpaceSelection::default_space);
    ASSERT_GT(space.variants.size(), 2u);
    const auto picked = autotune("gemm --arch sm_90 --compile-only --quiet --variants 2236800,2237088 "
                                 "--problem M=4096,N=4096,K=4096 --out " + out_dir());
    ASSERT_EQ(picked.exit_code, 0) << picked.err;
    EXPECT_THAT(picked.out, HasSubstr(fmt::format("2 variants of gemm for sm_90 (--variants picked them from the {} of "
                                                  "{} combinations valid)",
                                                  space.variants.size(), space.combinations)));
    const auto shard = autotune("gemm --arch sm_90 --compile-only --quiet --shard 1/64 --problem M=4096,N=4096,K=4096 "
                                "--out " + out_dir());
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    EXPECT_THAT(shard.out, HasSubstr(fmt::format("{} variants of gemm for sm_90 (shard 1/64 of the {} of {} combinations "
                                                 "valid)",
                                                 (space.variants.size() + 62) / 64, space.variants.size(),
                                                 space.combinations)));
}

// Nothing about the input was wrong: a command that could not run exits 1, not 2.
TEST_F(CliWithoutDriver, RooflineIsMeasuringOnlyAndExitsOne)
{
    const auto r = autotune("roofline");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_THAT(r.err, HasSubstr("nothing was measured: no CUDA driver"));
    EXPECT_EQ(lines(r.err), 1u);
}

// A driver that loads and sees no device (tests/cli/fake_driver) is, like no driver, a fact
// about the machine: measuring commands exit 1 whatever --device says, devices lists
// nothing, and a tuning run compiles and predicts.
TEST_F(Cli, ADriverThatSeesNoDeviceIsAFactAboutTheMachineNotBadInput)
{
    const std::filesystem::path fake_driver = AUTOTUNE_FAKE_DRIVER_DIR;
    if (!std::filesystem::exists(fake_driver / "libcuda.so.1"))
        GTEST_SKIP() << "no fake driver at " << fake_driver.string() << " (the test programs run away from their build)";
    const auto with_fake_driver = [&](const std::string& arguments) {
        return test::run_command(fmt::format("LD_LIBRARY_PATH={} AUTOTUNE_CACHE_DIR={} {} {}", fake_driver.string(),
                                             (dir.path() / "cache").string(), test::autotune_binary().string(), arguments));
    };
    for (const char* device : {"", " --device 0", " --device 3"}) {
        SCOPED_TRACE(device);
        const auto r = with_fake_driver(fmt::format("roofline{} --out {}", device, out_dir()));
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr("roofline: nothing was measured: the CUDA driver sees no device"));
        EXPECT_TRUE(nothing_written());
    }
    const auto devices = with_fake_driver("devices --json");
    EXPECT_EQ(devices.exit_code, 0) << devices.err;
    EXPECT_EQ(json::parse(devices.out), json::array());
    EXPECT_THAT(devices.err, HasSubstr("sees no device"));
    const auto tuned = with_fake_driver("copy --arch sm_90 --quiet --out " + out_dir());
    EXPECT_EQ(tuned.exit_code, 0) << tuned.err;
    EXPECT_THAT(tuned.err, HasSubstr("nothing was measured: no sm_90 device (this machine has none)"));
}

} // namespace

namespace {

// A spec's [[problems]] are tuned in one run: one results file holding each problem's
// variants and winner, and a tuned header with an entry per problem.
TEST_F(Cli, ASpecsProblemSetIsTunedProblemByProblemIntoOneFileAndHeader)
{
    const auto r = autotune("gemm --arch sm_90 --compile-only --json --variants 2236800,2283840 --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(r.out);
    const json& problems = results.at("problems");
    ASSERT_EQ(problems.size(), 4u);
    EXPECT_EQ(problems.at(0).at("variables").at("M"), 1024);
    EXPECT_EQ(problems.at(3).at("variables").at("K"), 8192);
    EXPECT_EQ(results.at("variants").size(), 2u); // the first problem's, as a one-problem file
    for (std::size_t k = 1; k < 4; ++k) {
        ASSERT_EQ(problems.at(k).at("variants").size(), 2u) << k;
        EXPECT_EQ(problems.at(k).at("problem").at("M"), problems.at(k).at("variables").at("M")) << k;
        EXPECT_FALSE(problems.at(k).at("winner").is_null()) << k;
    }
    // Flops grow with the problem: each problem was ranked on its own numbers.
    EXPECT_LT(problems.at(0).at("flops").get<double>(), problems.at(3).at("flops").get<double>());

    const auto header = dir.path() / "tuned.hpp";
    const auto h = autotune(fmt::format("header {}/sm_90/gemm.json --no-check -o {}", out_dir(), header.string()));
    ASSERT_EQ(h.exit_code, 0) << h.err;
    const std::string text = test::read_file(header);
    for (const char* size : {"1024", "2048", "4096", "8192"})
        EXPECT_THAT(text, HasSubstr(fmt::format("sm_90_M{0}_N{0}_K{0}_A_LAYOUT1_B_LAYOUT1{{90, {0}, {0}, {0}, 1, 1,", size)));

    // The summary names every problem and how to see one problem's table.
    const auto text_run = autotune("gemm --arch sm_90 --compile-only --variants 2236800,2283840 --out " + out_dir());
    EXPECT_THAT(text_run.out, HasSubstr("problem 4 of 4: M=8192,N=8192,K=8192"));
}

// The header's nvcc check rebuilds each problem's winner as that problem builds it: gemm's
// layouts reach the template (TRANS_A), so a check that used the file's first problem for
// every entry would build the transposed-A winner untransposed and report a mismatch.
TEST_F(Cli, TheHeaderChecksEachProblemsWinnerWithThatProblemsTemplateArguments)
{
    const auto r = autotune("gemm --arch sm_90 --compile-only --variants 2236800 --problem M=256,N=256,K=256 "
                            "--problem M=256,N=256,K=256,A_LAYOUT=2 --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json results = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "gemm.json"));
    ASSERT_EQ(results.at("problems").size(), 2u);
    EXPECT_NE(results.at("variants").at(0).at("sass_sha256"),
              results.at("problems").at(1).at("variants").at(0).at("sass_sha256"))
        << "the two layouts must build different machine code for this test to mean anything";

    const auto header = dir.path() / "tuned.hpp";
    const auto h = autotune(fmt::format("header {}/sm_90/gemm.json -o {}", out_dir(), header.string()));
    ASSERT_EQ(h.exit_code, 0) << h.err;
    EXPECT_EQ(h.out.find("mismatch"), std::string::npos) << h.out;
    const std::string text = test::read_file(header);
    EXPECT_THAT(text, HasSubstr("sm_90_M256_N256_K256_A_LAYOUT2_B_LAYOUT1{90, 256, 256, 256, 2, 1,"));
    // Each entry's note gives the registers of the build it checked: its own problem's.
    const int row_major = results.at("variants").at(0).at("registers").get<int>();
    const int transposed = results.at("problems").at(1).at("variants").at(0).at("registers").get<int>();
    ASSERT_NE(row_major, transposed) << "the layouts must differ in registers for the notes to tell them apart";
    const auto note_of = [&](const std::string& entry) {
        const auto at = text.find("inline constexpr Entry " + entry + "{");
        const auto note = text.rfind("builds the tuned machine code (", at);
        return at == std::string::npos || note == std::string::npos ? std::string() : text.substr(note, at - note);
    };
    EXPECT_THAT(note_of("sm_90_M256_N256_K256_A_LAYOUT1_B_LAYOUT1"), HasSubstr(fmt::format("({} registers)", row_major)));
    EXPECT_THAT(note_of("sm_90_M256_N256_K256_A_LAYOUT2_B_LAYOUT1"), HasSubstr(fmt::format("({} registers)", transposed)));
}

// Where a measured run recorded the machine code nvcc built of its winner (nvcc_builds),
// the header's check holds nvcc's rebuild against that, not against NVRTC's build.
TEST_F(Cli, TheHeaderChecksTheWinnerAgainstTheMachineCodeMeasuredAsNvccBuiltIt)
{
    ASSERT_EQ(autotune("gemm --arch sm_90 --compile-only --variants 2236800 --problem M=256,N=256,K=256 --out " +
                       out_dir()).exit_code, 0);
    const auto path = dir.path() / "results" / "sm_90" / "gemm.json";
    json results = json::parse(test::read_file(path));
    const auto header = (dir.path() / "tuned.hpp").string();
    const auto agreeing = autotune(fmt::format("header {} -o {}", path.string(), header));
    ASSERT_EQ(agreeing.exit_code, 0) << agreeing.err;
    EXPECT_EQ(agreeing.out.find("mismatch"), std::string::npos) << agreeing.out;

    // Say the run measured other machine code as nvcc built it: the rebuild no longer matches.
    results["problems"][0]["nvcc_builds"] = json::array(
        {{{"index", 2236800}, {"same_machine_code", false}, {"sass_sha256", "not what nvcc builds here"},
          {"median_seconds", 0.001}, {"measured_again", true}, {"error", nullptr}}});
    std::ofstream(path) << results.dump();
    const auto differing = autotune(fmt::format("header {} -o {}", path.string(), header));
    ASSERT_EQ(differing.exit_code, 0) << differing.err;
    EXPECT_THAT(differing.out, HasSubstr("mismatch: gemm sm_90: MISMATCH: nvcc -Xcicc=--sharedmem32=0 builds other machine code"));
}

} // namespace

namespace {

// Where nobody watches a terminal (these tests capture stderr), a run says how far it is in
// whole lines; --quiet silences them and nothing else.
TEST_F(Cli, ProgressIsLinesWithoutATerminalAndQuietSilencesIt)
{
    const auto r = autotune("copy --arch sm_90 --compile-only --json --out " + out_dir());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("autotune: compiling copy for sm_90"));
    EXPECT_THAT(r.err, HasSubstr("/36 (100%)")) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << "a log gets lines, not a redrawn counter";
    EXPECT_TRUE(json::accept(r.out)) << "progress must not reach stdout";
    const auto quiet = autotune("copy --arch sm_90 --compile-only --json --quiet --out " + out_dir());
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
}

// The results file is a function of its inputs: a second run on the same inputs (now all
// from the cache) leaves its bytes alone, and so does a newer build of the tool that would
// write the same content. A change of content is written.
TEST_F(Cli, RerunningOnTheSameInputsLeavesTheResultsFileByteIdentical)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    const auto path = dir.path() / "results" / "sm_90" / "copy.json";
    const std::string first = test::read_file(path);
    nlohmann::ordered_json document = nlohmann::ordered_json::parse(first); // the file's key order
    EXPECT_EQ(document.at("schema_version"), 2);
    EXPECT_EQ(document.at("tool").at("name"), "autotune");
    EXPECT_FALSE(document.at("tool").at("git_revision").get<std::string>().empty());

    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    EXPECT_EQ(test::read_file(path), first);

    // As if an older build had written it: the same content keeps the older provenance.
    document["tool"]["git_revision"] = "0123456789ab";
    const std::string older = document.dump(2) + "\n";
    { std::ofstream(path) << older; }
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    EXPECT_EQ(test::read_file(path), older);

    // Content that differs from what this run finds is replaced, provenance and all.
    document["variants"][0]["registers"] = 255;
    { std::ofstream(path) << document.dump(2) << "\n"; }
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    const json rewritten = json::parse(test::read_file(path));
    EXPECT_NE(rewritten.at("variants").at(0).at("registers"), 255);
    EXPECT_NE(rewritten.at("tool").at("git_revision"), "0123456789ab");
}

TEST_F(Cli, VersionSaysTheToolItsRevisionAndTheToolkit)
{
    const auto r = autotune("--version");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^autotune \d+\.\d+\.\d+ \(git ([0-9a-f]{12}(-dirty)?|unknown)\)\n)")))
        << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(CUDA toolkit \d+\.\d+)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(NVRTC \d+\.\d+)"))) << r.out;
}

// A results file from a newer autotune is refused by every reader, in one line saying
// which schema this build reads and which the file has.
TEST_F(Cli, EveryReaderRefusesANewerResultsSchema)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    json document = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "copy.json"));
    document["schema_version"] = 99;
    const auto newer = dir.path() / "newer.json";
    { std::ofstream(newer) << document.dump(2); }
    const std::string file = newer.string();
    for (const std::string& command :
         {"header " + file + " --no-check -o " + (dir.path() / "h.hpp").string(), "report " + file + " -o " +
          (dir.path() / "report").string(), "compare " + file + " " + file, "merge " + file + " -o " +
          (dir.path() / "m.json").string(), "replay " + file + " --strategy random --budget 5",
          "fidelity " + file}) {
        const auto r = autotune(command);
        EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
        EXPECT_THAT(r.err, HasSubstr(file)) << command;
        EXPECT_THAT(r.err, HasSubstr("schema version 99")) << command;
        EXPECT_THAT(r.err, HasSubstr("reads schema versions up to 2")) << command;
        EXPECT_EQ(lines(r.err), 1u) << command << ": " << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "h.hpp"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "report"));
}

// The commands that write files say what they wrote, as JSON when asked.
TEST_F(Cli, FileWritingCommandsSayWhatTheyWroteAsJson)
{
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --out " + out_dir()).exit_code, 0);
    const std::string results = (dir.path() / "results" / "sm_90" / "copy.json").string();
    const std::string header = (dir.path() / "tuned.hpp").string();
    const auto h = autotune("header " + results + " --no-check --json -o " + header);
    ASSERT_EQ(h.exit_code, 0) << h.err;
    const json written = json::parse(h.out);
    EXPECT_EQ(written.at("written"), json::array({header}));
    EXPECT_GT(written.at("entries").get<int>(), 0);
    EXPECT_TRUE(std::filesystem::exists(header));

    const std::string merged = (dir.path() / "merged.json").string();
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --quiet --shard 0/1 --out " + out_dir()).exit_code, 0);
    const auto m = autotune("merge " + (dir.path() / "results" / "sm_90" / "copy.shard-0-of-1.json").string() +
                            " --json -o " + merged);
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_EQ(json::parse(m.out).at("written"), json::array({merged}));
    EXPECT_EQ(json::parse(m.out).at("variants"), 36);
}

} // namespace
