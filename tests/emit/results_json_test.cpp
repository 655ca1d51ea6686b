// The results file and the table, from a hand-built TuningRun.
#include "emit/compile_table.hpp"
#include "emit/results_json.hpp"
#include "rank/roofline.hpp"

#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

TuningRun sample_run()
{
    TuningRun run;
    run.kernel = "gemm";
    run.spec_path = "kernels/gemm.toml";
    run.arch = "sm_90";
    run.nvrtc_version = "13.0";
    run.problem.values = {{"M", 64}, {"N", 64}};
    run.combinations = 4;
    run.valid = 2;
    run.removals = {{"constraint fits: X", 2}};
    Variant a;
    a.index = 1;
    a.parameters = {{"BM", 64}, {"MAXRREGCOUNT", 32}};
    a.register_policy.maxrregcount = 32;
    a.block = {128, 1, 1};
    Variant b = a;
    b.index = 3;
    b.parameters = {{"BM", 128}, {"MAXRREGCOUNT", 0}};
    b.register_policy = {};
    run.variants = {a, b};
    CompiledVariant ok;
    ok.status = CompileStatus::ok;
    ok.resources.registers = 32;
    ok.resources.spill_stores = 8;
    ok.resources.spill_loads = 12;
    ok.resources.register_cap = 32;
    ok.resources.register_cap_source = "maxrregcount";
    ok.cubin_sha256 = std::string(64, 'c');
    ok.options = {"--gpu-architecture=sm_90"};
    CompiledVariant failed;
    failed.error = "gemm.cuh(3): error: identifier \"x\" is undefined";
    failed.variant = 1;
    run.compiled = {ok, failed};
    return run;
}

TEST(ResultsJson, CarriesTheContractFieldsAndNullsForFailedVariants)
{
    const auto j = results_json(sample_run());
    EXPECT_EQ(j.at("kernel"), "gemm");
    EXPECT_EQ(j.at("arch"), "sm_90");
    EXPECT_EQ(j.at("nvrtc_version"), "13.0");
    EXPECT_EQ(j.at("measured"), false);
    EXPECT_TRUE(j.at("device").is_null());
    EXPECT_EQ(j.at("space").at("valid"), 2);
    EXPECT_EQ(j.at("exact_problem_variables"), nlohmann::ordered_json::array());
    TuningRun layouts = sample_run();
    layouts.exact_problem_variables = {"N"};
    EXPECT_EQ(results_json(layouts).at("exact_problem_variables"), nlohmann::ordered_json::array({"N"}));
    EXPECT_EQ(j.at("space").at("removed").at(0).at("removed"), 2);
    const auto& ok = j.at("variants").at(0);
    EXPECT_EQ(ok.at("status"), "ok");
    EXPECT_EQ(ok.at("params").begin().key(), "BM"); // spec order kept
    EXPECT_EQ(ok.at("registers"), 32);
    EXPECT_EQ(ok.at("spill_loads"), 12);
    EXPECT_EQ(ok.at("register_cap"), 32);
    EXPECT_EQ(ok.at("register_policy").at("kind"), "maxrregcount");
    EXPECT_TRUE(ok.at("error").is_null());
    EXPECT_TRUE(ok.at("measurement").is_null());
    const auto& failed = j.at("variants").at(1);
    EXPECT_EQ(failed.at("status"), "compile_error");
    EXPECT_THAT(failed.at("error").get<std::string>(), HasSubstr("is undefined"));
    for (const char* field : {"registers", "spill_stores", "stack_frame", "register_cap", "cubin_sha256"})
        EXPECT_TRUE(failed.at(field).is_null()) << field;
}

TEST(ResultsJson, TheSearchRecordsItsStrategyBudgetSeedEvaluationsAndPrior)
{
    TuningRun run = sample_run();
    EXPECT_TRUE(results_json(run).at("search").is_null()); // nothing measured: no search
    run.search = SearchOutcome{};
    run.search->candidates = 2;
    run.search->evaluations = 1;
    run.strategy = "forest";
    run.budget = parse_budget("5%");
    run.seed = 7;
    const auto search = results_json(run).at("search");
    EXPECT_EQ(search.at("strategy"), "forest");
    EXPECT_EQ(search.at("seed"), 7);
    EXPECT_EQ(search.at("candidates"), 2);
    EXPECT_EQ(search.at("evaluations"), 1);
    EXPECT_TRUE(search.at("prior").is_null()); // learned from no other GPU
    run.prior = "rtx3060/gemm.json";
    EXPECT_EQ(results_json(run).at("search").at("prior"), "rtx3060/gemm.json");
    EXPECT_TRUE(search.at("budget").at("evaluations").is_null());
    EXPECT_DOUBLE_EQ(search.at("budget").at("share").get<double>(), 0.05);
    EXPECT_TRUE(search.at("budget").at("seconds").is_null());
    run.budget = parse_budget("90s");
    EXPECT_DOUBLE_EQ(results_json(run).at("search").at("budget").at("seconds").get<double>(), 90.0);
}

TEST(ResultsJson, AProblemSaysHowItsBestVariantsRanAsNvccBuildsThem)
{
    TuningRun run = sample_run();
    run.ranking = ProblemRanking{};
    run.ranking->variants.resize(run.variants.size());
    const auto plain = results_json(run).at("problems").at(0);
    EXPECT_EQ(plain.at("nvcc_builds"), nlohmann::ordered_json::array());
    EXPECT_TRUE(plain.at("winner_as_built_by_nvcc").is_null());

    ConsumerBuild faster;
    faster.variant = 1; // run.variants[1]: index 3, BM 128
    faster.sass_sha256 = "abc";
    faster.median = 0.002;
    faster.noise = 0.004;
    faster.measurement = VariantMeasurement{};
    ConsumerBuild failed;
    failed.variant = 0;
    failed.error = "nvcc fails: x";
    run.consumer_builds = ConsumerBuildOutcome{{faster, failed}, 1};
    const auto p = results_json(run).at("problems").at(0);
    ASSERT_EQ(p.at("nvcc_builds").size(), 2u);
    EXPECT_EQ(p.at("nvcc_builds").at(0).at("index"), 3);
    EXPECT_EQ(p.at("nvcc_builds").at(0).at("measured_again"), true);
    EXPECT_EQ(p.at("nvcc_builds").at(0).at("same_machine_code"), false);
    EXPECT_EQ(p.at("nvcc_builds").at(1).at("error"), "nvcc fails: x");
    EXPECT_TRUE(p.at("nvcc_builds").at(1).at("median_seconds").is_null());
    EXPECT_EQ(p.at("winner_as_built_by_nvcc").at("index"), 3);
    EXPECT_EQ(p.at("winner_as_built_by_nvcc").at("params").at("BM"), 128);
    EXPECT_DOUBLE_EQ(p.at("winner_as_built_by_nvcc").at("median_seconds").get<double>(), 0.002);
    EXPECT_DOUBLE_EQ(p.at("winner_as_built_by_nvcc").at("median_noise").get<double>(), 0.004);
    EXPECT_DOUBLE_EQ(p.at("nvcc_builds").at(0).at("median_noise").get<double>(), 0.004);
}

TEST(ResultsJson, IsWrittenUnderArchAndKernelWithoutLeavingTemporaries)
{
    test::TempDir dir;
    const auto path = write_results({sample_run()}, dir.path());
    EXPECT_EQ(path, dir.path() / "sm_90" / "gemm.json");
    EXPECT_EQ(nlohmann::ordered_json::parse(test::read_file(path)), results_json(sample_run()));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path() / "sm_90"))
        ++entries;
    EXPECT_EQ(entries, 1u);
}

TEST(CompileTable, ShowsParametersResourcesAndTheFirstErrorLine)
{
    const std::string table = compile_table(sample_run());
    EXPECT_THAT(table, HasSubstr("BM"));
    EXPECT_THAT(table, HasSubstr("8/12"));
    EXPECT_THAT(table, HasSubstr("32 rr"));
    EXPECT_THAT(table, HasSubstr("compile_error: gemm.cuh(3): error: identifier"));
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3); // header + 2 rows
    EXPECT_THAT(compile_summary(sample_run()), HasSubstr("1 compiled, 1 compile errors"));
    EXPECT_THAT(compile_summary(sample_run()), HasSubstr("2 removed by constraint fits: X"));
}

TEST(CompileTable, TheSummaryCountsTheSpacesValidVariantsAndSaysWhatPickedTheRunsOnes)
{
    TuningRun run = sample_run(); // 2 variants tuned
    run.combinations = 16896;
    run.valid = 6768;
    EXPECT_THAT(compile_summary(run), HasSubstr("2 variants of gemm for sm_90 (6768 of 16896 combinations valid): "));
    run.picked_by_variants = true;
    EXPECT_THAT(compile_summary(run),
                HasSubstr("2 variants of gemm for sm_90 (--variants picked them from the 6768 of 16896 combinations valid): "));
    run.shard = std::pair<std::size_t, std::size_t>{1, 4};
    EXPECT_THAT(compile_summary(run), HasSubstr("(--variants picked them, shard 1/4, from the 6768 of 16896 combinations "
                                                "valid): "));
    run.picked_by_variants = false;
    EXPECT_THAT(compile_summary(run), HasSubstr("2 variants of gemm for sm_90 (shard 1/4 of the 6768 of 16896 "
                                                "combinations valid): "));
}

TEST(CompileTable, TheSummarySaysWhyAProblemHasNoRoofline)
{
    TuningRun run = sample_run();
    ProblemRanking ranking;
    ranking.ceilings = Ceilings{35000, 936, 1695, "datasheet: rtx-3090", 6 << 20};
    run.ranking = ranking; // a T1 file's problem: the device's ceilings, but no cost
    EXPECT_THAT(compile_summary(run), HasSubstr("no roofline: the spec gives no cost"));
    EXPECT_THAT(compile_summary(run), Not(HasSubstr("no ceilings")));
    run.ranking->bytes = 1e6; // a cost, and no device to put it against
    run.ranking->ceilings.reset();
    EXPECT_THAT(compile_summary(run), HasSubstr("1 MB; no ceilings for sm_90 (--device names a device)"));
}

TEST(CompileTable, AProblemWithoutFlopsIsNotCalledMemoryBound)
{
    // A T1 file's GEMM: bytes from its buffers, no flops. Its intensity of 0 says nothing
    // of the work, only that the spec gave none: the bandwidth's roof is all there is.
    TuningRun run = sample_run();
    ProblemRanking ranking;
    ranking.ceilings = Ceilings{35000, 936, 1695, "datasheet: rtx-3090", 6 << 20};
    ranking.bytes = 268e6;
    ranking.roofline = roofline_for(0, ranking.bytes, *ranking.ceilings);
    run.ranking = ranking;
    EXPECT_THAT(compile_summary(run), HasSubstr("268 MB and no flops (a [cost] table's flops; a T1 file gives none): the "
                                                "roof is the bandwidth's alone (936 GB/s, ceilings from datasheet: rtx-3090)"));
    EXPECT_THAT(compile_summary(run), Not(HasSubstr("memory-bound")));
    run.ranking->flops = 1.1e12; // with flops, the bound is the intensity's
    run.ranking->roofline = roofline_for(run.ranking->flops, run.ranking->bytes, *run.ranking->ceilings);
    EXPECT_THAT(compile_summary(run), HasSubstr("1.1e+03 GFLOP, 268 MB, 4.1e+03 flop/byte: compute-bound"));
}

} // namespace

TEST(ResultsJson, AWarpsPhasesAreWrittenAndReadBack)
{
    // A merge re-predicts from the file: the phases must come back as they went.
    WarpWork w;
    w.issue = 110;
    w.latency_cycles = 1100;
    w.unknown_trip_counts = 1;
    WarpCounts fill;
    fill.issue = 10;
    fill.global_load_bytes = 128;
    fill.latency_cycles = 1000;
    WarpCounts compute;
    compute.issue = 100;
    compute.fp32 = 64;
    compute.latency_cycles = 100;
    w.phases = {fill, compute};
    const auto written = warp_work_json(w);
    ASSERT_TRUE(written.contains("phases"));
    const WarpWork read = warp_work_of_json(written);
    EXPECT_EQ(read.unknown_trip_counts, 1);
    ASSERT_EQ(read.phases.size(), 2u);
    EXPECT_DOUBLE_EQ(read.phases[0].global_load_bytes, 128);
    EXPECT_DOUBLE_EQ(read.phases[0].latency_cycles, 1000);
    EXPECT_DOUBLE_EQ(read.phases[1].fp32, 64);
    EXPECT_DOUBLE_EQ(read.phases[1].issue, 100);
    // One stretch writes no phases, and a file without them reads as one stretch.
    w.phases.clear();
    EXPECT_FALSE(warp_work_json(w).contains("phases"));
    EXPECT_TRUE(warp_work_of_json(warp_work_json(w)).phases.empty());
}
