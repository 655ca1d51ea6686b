// autotune import kt-cache and autotune replay as users run them: a real Kernel Tuner cache
// imported, strategies replayed on it with a percentage budget, reproducible by seed, and
// bad input as exit 2 with one line naming it.
#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

std::filesystem::path cache_file(const std::string& kernel) { return test::kernel_tuner_cache(kernel); }

class ReplayImportCli : public ::testing::Test {
protected:
    // The pnpoly cache imported once for the suite.
    static void SetUpTestSuite()
    {
        dir_ = new test::TempDir;
        if (!std::filesystem::exists(cache_file("pnpoly")))
            return; // every test skips (SetUp)
        const auto r = run(fmt::format("import kt-cache {} -o {}", cache_file("pnpoly").string(), results().string()));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        import_out_ = new std::string(r.out);
    }
    void SetUp() override { AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("pnpoly"); }
    static void TearDownTestSuite()
    {
        delete dir_;
        delete import_out_;
        dir_ = nullptr;
        import_out_ = nullptr;
    }
    static test::CommandResult run(const std::string& arguments)
    {
        return test::run_command(fmt::format("{} {}", test::autotune_binary().string(), arguments));
    }
    static std::filesystem::path results() { return dir_->path() / "tmp" / "results.json"; }
    // A JSON file that is not a results document.
    static std::filesystem::path not_results()
    {
        const auto path = dir_->path() / "not-results.json";
        std::ofstream(path) << R"({"variants": 3})";
        return path;
    }
    // A results file of another space: one variant, parameters no pnpoly point has.
    static std::filesystem::path other_kernel()
    {
        const auto path = dir_->path() / "other.json";
        if (!std::filesystem::exists(path))
            std::ofstream(path) << R"({"kernel":"other","variants":[{"index":0,"params":{"Q":1},"status":"ok",
                "registers":10,"measurement":{"time_seconds":{"median":0.001}}}]})";
        return path;
    }
    // The pnpoly space's own measurements, named as another kernel's: every point matches.
    static std::filesystem::path renamed_kernel()
    {
        const auto path = dir_->path() / "renamed.json";
        if (!std::filesystem::exists(path)) {
            json doc = json::parse(test::read_file(results()));
            doc["kernel"] = "not_pnpoly";
            std::ofstream(path) << doc.dump();
        }
        return path;
    }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    static test::TempDir* dir_;
    static std::string* import_out_;
};

test::TempDir* ReplayImportCli::dir_ = nullptr;
std::string* ReplayImportCli::import_out_ = nullptr;

TEST_F(ReplayImportCli, ImportWritesAResultsFileAndSaysWhatItHolds)
{
    ASSERT_TRUE(std::filesystem::exists(results()));
    const json doc = json::parse(test::read_file(results()));
    EXPECT_EQ(doc.at("kernel"), "cn_pnpoly");
    EXPECT_EQ(doc.at("arch"), "sm_86");
    EXPECT_EQ(doc.at("variants").size(), 4092u);
    EXPECT_THAT(*import_out_, HasSubstr("imported 4092 configurations of cn_pnpoly"));
    EXPECT_THAT(*import_out_, HasSubstr("318 launch_error"));
    EXPECT_THAT(*import_out_, HasSubstr("3774 ok"));
    // Kernel Tuner's objective, its time (the mean of the runs), chose the winner: the line says so.
    EXPECT_THAT(*import_out_, HasSubstr("winner: #63 {\"between_method\":0,\"block_size_x\":64,\"tile_size\":20,"
                                        "\"use_method\":0} at 0.00871424 s (the file's time, the mean of its runs; "
                                        "median 0.0087337 s)"));
}

TEST_F(ReplayImportCli, ReplayJsonHasTheBudgetTheBestAndTheFraction)
{
    const auto r = run(fmt::format("replay {} --strategy random --budget 2% --seed 3 --json", results().string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    const json out = json::parse(r.out);
    const auto points = out.at("points").get<std::size_t>();
    EXPECT_EQ(points, 4092u);
    const auto expected = static_cast<std::size_t>(std::ceil(0.02 * static_cast<double>(points)));
    EXPECT_EQ(out.at("budget"), expected);
    EXPECT_EQ(out.at("evaluations"), expected);
    EXPECT_EQ(out.at("strategy"), "random");
    EXPECT_EQ(out.at("seed"), 3);
    const double fraction = out.at("fraction_of_optimum").get<double>();
    EXPECT_GT(fraction, 0.0);
    EXPECT_LE(fraction, 1.0);
    const double best = out.at("best_time").get<double>();
    EXPECT_GE(best, out.at("optimum_time").get<double>());
    EXPECT_DOUBLE_EQ(fraction, out.at("optimum_time").get<double>() / best);
    EXPECT_LE(out.at("failed_evaluations").get<std::size_t>(), expected);
    EXPECT_TRUE(out.at("best_params").contains("block_size_x"));

    const auto again = run(fmt::format("replay {} --strategy random --budget 2% --seed 3 --json", results().string()));
    EXPECT_EQ(again.out, r.out);
}

TEST_F(ReplayImportCli, EveryStrategyReplaysAndTheWholeSpaceFindsTheOptimum)
{
    for (const std::string strategy : {"exhaustive", "random", "model", "ils", "annealing", "forest"}) {
        const auto r = run(fmt::format("replay {} --strategy {} --budget 40 --json", results().string(), strategy));
        ASSERT_EQ(r.exit_code, 0) << strategy << ": " << r.err;
        const json out = json::parse(r.out);
        EXPECT_EQ(out.at("evaluations"), 40) << strategy;
        EXPECT_GT(out.at("fraction_of_optimum").get<double>(), 0.0) << strategy;
    }
    const auto all = run(fmt::format("replay {} --strategy exhaustive --budget 100% --json --trace", results().string()));
    ASSERT_EQ(all.exit_code, 0) << all.err;
    const json out = json::parse(all.out);
    EXPECT_EQ(out.at("evaluations"), 4092);
    EXPECT_EQ(out.at("failed_evaluations"), 318);
    EXPECT_DOUBLE_EQ(out.at("fraction_of_optimum").get<double>(), 1.0);
    EXPECT_EQ(out.at("trace").size(), 4092u);
}

TEST_F(ReplayImportCli, TheTextReportNamesTheBestAndTheFraction)
{
    const auto r = run(fmt::format("replay {} --strategy ils --budget 1% --seed 2", results().string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("ils on "));
    EXPECT_THAT(r.out, HasSubstr("41 evaluations of a budget of 41"));
    EXPECT_THAT(r.out, HasSubstr("fraction_of_optimum"));
}

TEST_F(ReplayImportCli, AFileOfSeveralProblemsReplaysTheOneNamed)
{
    // The imported space as two problems: the second twice as slow everywhere.
    json doc = json::parse(test::read_file(results()));
    json second = doc.at("problems").at(0);
    second["problem"] = {{"problem_size", 40000000}};
    second["variables"] = second["problem"];
    second["variants"] = doc.at("variants");
    for (auto& v : second["variants"])
        if (v.contains("measurement") && v.at("measurement").is_object())
            v["measurement"]["objective_seconds"] = 2 * v.at("measurement").at("objective_seconds").get<double>();
    doc["problems"].push_back(second);
    const auto two = dir_->path() / "two.json";
    std::ofstream(two) << doc.dump();

    const auto unnamed = run(fmt::format("replay {} --strategy random --budget 5", two.string()));
    EXPECT_EQ(unnamed.exit_code, 2);
    EXPECT_THAT(unnamed.err, HasSubstr("holds 2 problems; name one with --problem (problem_size=20000000 | "
                                       "problem_size=40000000)"));
    const auto absent = run(fmt::format("replay {} --strategy random --budget 5 --problem problem_size=7", two.string()));
    EXPECT_EQ(absent.exit_code, 2);
    EXPECT_THAT(absent.err, HasSubstr("has no problem problem_size=7"));

    const auto first = run(fmt::format("replay {} --strategy random --budget 5 --problem problem_size=20000000 --json",
                                       two.string()));
    const auto slow = run(fmt::format("replay {} --strategy random --budget 5 --problem problem_size=40000000 --json",
                                      two.string()));
    ASSERT_EQ(first.exit_code, 0) << first.err;
    ASSERT_EQ(slow.exit_code, 0) << slow.err;
    const json a = json::parse(first.out), b = json::parse(slow.out);
    EXPECT_EQ(b.at("problem"), json({{"problem_size", 40000000}}));
    EXPECT_DOUBLE_EQ(b.at("optimum_time").get<double>(), 2 * a.at("optimum_time").get<double>());
    EXPECT_EQ(a.at("best_index"), b.at("best_index")); // random: the same points, seed for seed
}

TEST_F(ReplayImportCli, AnotherGpusMeasurementsAsPriorAreJoinedAndLeadTheSearchToTheirOptimum)
{
    // The same space as its own prior: every point has a time, and the guided start
    // measures the optimum first.
    const std::string file = results().string();
    const auto r = run("replay " + file + " --strategy forest --budget 5 --prior " + file + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_GT(out.at("prior_points").get<std::size_t>(), 3000u); // the variants that ran
    EXPECT_LT(out.at("prior_points").get<std::size_t>(), out.at("points").get<std::size_t>());
    EXPECT_DOUBLE_EQ(out.at("fraction_of_optimum").get<double>(), 1.0);
    EXPECT_TRUE(out.at("static_points").is_null());
    const auto text = run("replay " + file + " --strategy ils --budget 3 --prior " + file);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("prior times from " + file));
}

// Kernel Tuner's cache as it ships (gzipped) replays, and serves as a prior, as its import
// does: the same points, the same search, seed for seed.
TEST_F(ReplayImportCli, TheCacheItselfReplaysAsItsImport)
{
    const std::string cache = cache_file("pnpoly").string();
    const std::string imported = results().string();
    const auto as_cache = run("replay " + cache + " --strategy forest --budget 20 --seed 3 --prior " + cache + " --json");
    const auto as_import = run("replay " + imported + " --strategy forest --budget 20 --seed 3 --prior " + imported + " --json");
    ASSERT_EQ(as_cache.exit_code, 0) << as_cache.err;
    ASSERT_EQ(as_import.exit_code, 0) << as_import.err;
    json a = json::parse(as_cache.out), b = json::parse(as_import.out);
    EXPECT_EQ(a.at("results"), cache);
    for (json* d : {&a, &b})
        d->erase("results");
    EXPECT_EQ(a, b);
    EXPECT_GT(a.at("prior_points").get<std::size_t>(), 3000u);
}

// A T4 document names no kernel; the import names it after the file. Two T4 files of one
// kernel (measured on two GPUs, named after them) are one space: the parameters join them,
// and a file of another space joins nothing and is refused for that.
TEST_F(ReplayImportCli, AT4DocumentsKernelIsItsFilesNameAndDoesNotHaveToMatch)
{
    const auto t4_3090 = dir_->path() / "pnpoly_3090.t4.json";
    const auto t4_3060 = dir_->path() / "pnpoly_3060.t4.json";
    ASSERT_EQ(run("export t4 " + results().string() + " -o " + t4_3090.string()).exit_code, 0);
    std::filesystem::copy_file(t4_3090, t4_3060, std::filesystem::copy_options::overwrite_existing);
    const auto r = run("replay " + t4_3090.string() + " --strategy forest --budget 5 --prior " + t4_3060.string() + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(json::parse(r.out).at("prior_points").get<std::size_t>(), 3000u);
    const auto cache = dir_->path() / "small.json"; // another space, its kernel unnamed
    std::ofstream(cache) << R"({"tune_params_keys": ["bx"], "tune_params": {"bx": [32, 64]}, "objective": "time",
        "cache": {"32": {"bx": 32, "time": 1.5}, "64": {"bx": 64, "time": 0.5}}})";
    const auto other = run("replay " + t4_3090.string() + " --strategy forest --budget 5 --prior " + cache.string());
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_THAT(other.err, HasSubstr("--prior: '" + cache.string() + "' has no variant with the parameters of a point "
                                     "of the space"));
    EXPECT_EQ(lines(other.err), 1u) << other.err;
}

TEST_F(ReplayImportCli, AT4DocumentOfAGpuItDoesNotNameIsNamedOnImportAndComparesWithTheCache)
{
    // Kernel Tuner's own T4 documents name no device (autotune's export does: taken out here).
    const auto t4 = dir_->path() / "pnpoly_kt.t4.json";
    ASSERT_EQ(run("export t4 " + results().string() + " -o " + t4.string()).exit_code, 0);
    json doc = json::parse(test::read_file(t4));
    doc.at("metadata").erase("device_name");
    std::ofstream(t4) << doc.dump();
    const auto unnamed = dir_->path() / "unnamed.json";
    ASSERT_EQ(run("import kt-cache " + t4.string() + " -o " + unnamed.string()).exit_code, 0);
    EXPECT_TRUE(json::parse(test::read_file(unnamed)).at("arch").is_null());

    const auto named = dir_->path() / "named.json";
    const auto r = run("import kt-cache " + t4.string() + " -o " + named.string() + " --device rtx-3090");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json imported = json::parse(test::read_file(named));
    EXPECT_EQ(imported.at("arch"), "sm_86");
    EXPECT_EQ(imported.at("device").at("name"), "NVIDIA GeForce RTX 3090");
    // The same measurements under the file's name and no problem size: compared as the cache's.
    const auto c = run("compare " + results().string() + " " + named.string());
    EXPECT_EQ(c.exit_code, 0) << c.err;
    EXPECT_THAT(c.out, HasSubstr("named by its file: pnpoly_kt (problem_size=null) compared as cn_pnpoly (problem_size=20000000)"));
    EXPECT_THAT(c.out, HasSubstr("1 compared at a 5% threshold (beyond 3σ of the recorded noise): 1 same"));

    // The cache names its GPU: --device may name the same one, not another.
    EXPECT_EQ(run("import kt-cache " + cache_file("pnpoly").string() + " -o " + named.string() + " --device rtx-3090")
                  .exit_code,
              0);
    const auto other = run("import kt-cache " + cache_file("pnpoly").string() + " -o " + named.string() +
                           " --device rtx-3060-laptop");
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_THAT(other.err, HasSubstr("names its device 'NVIDIA GeForce RTX 3090'; --device rtx-3060-laptop is the "
                                     "NVIDIA GeForce RTX 3060 Laptop GPU, another"));
    EXPECT_EQ(lines(other.err), 1u) << other.err;
    const auto unknown = run("import kt-cache " + t4.string() + " -o " + named.string() + " --device rtx-9090");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_THAT(unknown.err, HasSubstr("unknown device 'rtx-9090'"));
}

TEST_F(ReplayImportCli, APriorOfOtherProblemsOnlyIsRefusedBeforeCompiling)
{
    const auto out = dir_->path() / "prior-problems";
    const auto made = run(fmt::format("copy --arch sm_90 --compile-only -q --out {} --problem N=1048576 --problem N=2097152",
                                      out.string()));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const auto prior = out / "sm_90" / "copy.json";
    const auto r = run(fmt::format("copy --arch sm_90 --compile-only -q --cache none --out {} --problem N=4194304 --prior {}",
                                   (dir_->path() / "other-out").string(), prior.string()));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--prior " + prior.string() + ": holds 2 problems and none is N=4194304"));
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir_->path() / "other-out" / "sm_90" / "copy.json"));
}

TEST_F(ReplayImportCli, BadInputExitsTwoWithOneLineNamingIt)
{
    const std::string file = results().string();
    const std::string missing = (dir_->path() / "missing.json").string();
    const std::vector<std::pair<std::string, std::string>> cases{
        {"replay " + file + " --strategy genetic --budget 5", "unknown strategy 'genetic'"},
        {"replay " + missing + " --strategy random --budget 5", missing},
        {"replay " + file + " --strategy random --budget 5x", "budget '5x'"},
        {"replay " + file + " --strategy random --budget 0", "budget '0'"},
        {"replay " + file + " --strategy random", "--budget"},
        {"replay " + file + " --budget 5", "--strategy"},
        {"replay --strategy random --budget 5", "results file"},
        {"import kt-cache " + missing + " -o " + (dir_->path() / "x.json").string(), missing},
        {"import kt-cache " + file + " -o " + (dir_->path() / "x.json").string(), file},
        {"import kt-cache " + cache_file("pnpoly").string(), "-o RESULTS"},
        {"import csv " + cache_file("pnpoly").string() + " -o x.json", "unknown format 'csv'"},
        {"replay " + file + " --strategy forest --budget 5 --prior " + missing, missing},
        {"copy --arch sm_90 --compile-only --cache none --out " + (dir_->path() / "out").string() + " --prior " + missing, "--prior"},
        {"copy --arch sm_90 --compile-only --cache none --out " + (dir_->path() / "out").string() + " --prior " +
             not_results().string(), not_results().string()},
        {"copy --arch sm_90 --compile-only --cache none --out " + (dir_->path() / "out").string() + " --prior " +
             (test::source_dir() / "results/sm_90/gemm.json").string(),
         "results of kernel 'gemm', not 'copy'"},
        // a tuning run's --prior reads a Kernel Tuner cache as it is: this one is another kernel's
        {"copy --arch sm_90 --compile-only --cache none --out " + (dir_->path() / "out").string() + " --prior " +
             cache_file("pnpoly").string(),
         "results of kernel 'cn_pnpoly', not 'copy'"},
        {"replay " + file + " --strategy forest --budget 5 --static " + missing, missing},
        // the pnpoly space's own file holds times, but a compile-only file of another kernel matches nothing
        {"replay " + file + " --strategy forest --budget 5 --static " + other_kernel().string(), other_kernel().string()},
        {"replay " + file + " --strategy forest --budget 5 --prior " + other_kernel().string(), other_kernel().string()},
        // the same parameters, another kernel's name: its times say nothing of this space
        {"replay " + file + " --strategy forest --budget 5 --prior " + renamed_kernel().string(),
         "--prior: '" + renamed_kernel().string() + "' holds results of kernel 'not_pnpoly', not 'cn_pnpoly'"},
        {"replay " + file + " --strategy forest --budget 5 --static " + renamed_kernel().string(),
         "--static: '" + renamed_kernel().string() + "' holds results of kernel 'not_pnpoly'"},
        // measured times are not compiled facts: an import has no registers or predictions
        {"replay " + file + " --strategy forest --budget 5 --static " + file,
         "--static: '" + file + "' holds no compiled facts"},
        // nor has the cache itself: it says what makes them, not the import
        {"replay " + file + " --strategy forest --budget 5 --static " + cache_file("pnpoly").string(),
         "--static: '" + cache_file("pnpoly").string() + "' holds measured times, not compiled facts: a compile-only "
                                                          "run of the space makes them"},
    };
    for (const auto& [arguments, expected] : cases) {
        const auto r = run(arguments);
        EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.err;
        EXPECT_THAT(r.err, HasSubstr(expected)) << arguments;
        EXPECT_EQ(lines(r.err), 1u) << arguments << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments << "\n" << r.out;
    }
    EXPECT_FALSE(std::filesystem::exists(dir_->path() / "x.json"));
}

} // namespace
