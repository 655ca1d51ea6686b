// autotune compare as the nightly job runs it: exit 1 on a regression and only then,
// results directories walked, the JSON and Markdown it writes, and bad input as exit 2
// with one line naming the input. The documents start from a real compile-only run and
// are made "measured" here (no GPU is needed).
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::ordered_json;

namespace {

class CompareCli : public ::testing::Test {
protected:
    // One real compile-only run of the copy kernel for the whole suite.
    static void SetUpTestSuite()
    {
        compiled_ = new test::TempDir;
        const auto r = test::run_autotune("copy --arch sm_90 --compile-only --out " + (compiled_->path() / "results").string(),
                                          compiled_->path());
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    static void TearDownTestSuite()
    {
        delete compiled_;
        compiled_ = nullptr;
    }

    test::CommandResult autotune(const std::string& arguments)
    {
        return test::run_command(fmt::format("{} {}", test::autotune_binary().string(), arguments));
    }

    static json compile_only() { return json::parse(test::read_file(compile_only_path())); }
    static std::filesystem::path compile_only_path() { return compiled_->path() / "results" / "sm_90" / "copy.json"; }

    // The compile-only document with its winner measured: `seconds` median, `noise`
    // median noise. `variant` (a position in variants) makes another variant the winner.
    static json measured(double seconds, double noise, std::size_t variant = 0)
    {
        json d = compile_only();
        d["measured"] = true;
        d["device"] = {{"name", "NVIDIA H100 80GB HBM3"}};
        json& v = d["variants"][variant];
        json& w = d["problems"][0]["winner"];
        w["index"] = v["index"];
        w["params"] = v["params"];
        w["basis"] = "measured";
        v["measurement"] = {{"time_seconds",
                             {{"count", 100}, {"median", seconds}, {"min", seconds}, {"max", seconds}, {"mean", seconds},
                              {"relative_spread", 2 * noise}, {"median_noise", noise}}},
                            {"sm_clock_mhz", 1980}};
        return d;
    }

    std::string write(const std::string& name, const json& document)
    {
        const auto path = dir.path() / name;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << document.dump(2);
        return path.string();
    }
    std::string write_text(const std::string& name, const std::string& text)
    {
        const auto path = dir.path() / name;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text;
        return path.string();
    }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    // Compares a base and a new measured document and returns the run.
    test::CommandResult compare(const json& base, const json& next, const std::string& options = "")
    {
        return autotune(fmt::format("compare {} {} {}", write("base/sm_90/copy.json", base),
                                    write("new/sm_90/copy.json", next), options));
    }

    test::TempDir dir;
    static inline test::TempDir* compiled_ = nullptr;
};

TEST_F(CompareCli, IdenticalFilesAreAllSameAndExitZero)
{
    const auto r = compare(measured(1e-3, 0.01), measured(1e-3, 0.01));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_THAT(r.out, HasSubstr("+0.0%"));
    EXPECT_THAT(r.out, HasSubstr("1 compared at a 5% threshold"));
    EXPECT_THAT(r.out, HasSubstr(": 1 same"));
    EXPECT_THAT(r.out, Not(HasSubstr("regression")));
}

TEST_F(CompareCli, AClearTwentyPercentSlowdownExitsOne)
{
    const auto r = compare(measured(1e-3, 0.01), measured(1.2e-3, 0.01));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_THAT(r.out, HasSubstr("1000 ±1.0%"));
    EXPECT_THAT(r.out, HasSubstr("1200 ±1.0%"));
    EXPECT_THAT(r.out, HasSubstr("+20.0%"));
    EXPECT_THAT(r.out, HasSubstr("slower"));
    EXPECT_THAT(r.out, HasSubstr("1 regression"));
}

TEST_F(CompareCli, TheThresholdDecidesWhatCountsAsASlowdown)
{
    // 8% slower with 1% noise: a regression at the default 5%, not at 10%.
    EXPECT_EQ(compare(measured(1e-3, 0.01), measured(1.08e-3, 0.01)).exit_code, 1);
    const auto r = compare(measured(1e-3, 0.01), measured(1.08e-3, 0.01), "--threshold 10");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("at a 10% threshold"));
    EXPECT_THAT(r.out, HasSubstr("same"));
}

TEST_F(CompareCli, AChangeInsideTheNoiseIsNeverARegression)
{
    // 3% with 5% noise: within the threshold, same.
    auto r = compare(measured(1e-3, 0.05), measured(1.03e-3, 0.05));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr(": 1 same"));
    EXPECT_THAT(r.out, HasSubstr("too noisy to resolve 5%"));
    // 10% with 8% noise: beyond the threshold but inside 3σ, ambiguous, reported, exit 0.
    r = compare(measured(1e-3, 0.08), measured(1.1e-3, 0.08));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("+10.0%"));
    EXPECT_THAT(r.out, HasSubstr(": 1 ambiguous"));
    EXPECT_THAT(r.out, Not(HasSubstr("regression")));
}

TEST_F(CompareCli, AFasterWinnerFromAnotherVariantIsReportedAsSuch)
{
    const json base = measured(1e-3, 0.01, 0);
    const json next = measured(0.6e-3, 0.01, 3);
    const auto base_index = base["problems"][0]["winner"]["index"].get<int>();
    const auto new_index = next["problems"][0]["winner"]["index"].get<int>();
    ASSERT_NE(base_index, new_index);
    auto r = compare(base, next);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("faster"));
    EXPECT_THAT(r.out, HasSubstr("-40.0%"));
    EXPECT_THAT(r.out, HasSubstr(fmt::format("#{} → #{}", base_index, new_index)));

    r = compare(base, next, "--json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json e = json::parse(r.out).at("entries").at(0);
    EXPECT_EQ(e.at("verdict"), "faster");
    EXPECT_EQ(e.at("winner_changed"), true);
    EXPECT_EQ(e.at("base_winner").at("index"), base_index);
    EXPECT_EQ(e.at("new_winner").at("index"), new_index);
    EXPECT_EQ(e.at("new_winner").at("params"), next["problems"][0]["winner"]["params"]);
}

TEST_F(CompareCli, CompileOnlyResultsAreNotMeasuredAndNeverARegression)
{
    auto r = autotune(fmt::format("compare {} {}", compile_only_path().string(), compile_only_path().string()));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("not measured"));
    EXPECT_THAT(r.out, HasSubstr("predicted"));
    // A measured base against a predicted-only new run: nothing to compare in time, but
    // the choice is; here the model chose another variant than the measured winner.
    const json base = measured(1e-3, 0.01, 5);
    r = compare(base, compile_only(), "--json");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const json e = json::parse(r.out).at("entries").at(0);
    EXPECT_EQ(e.at("verdict"), "not measured");
    EXPECT_TRUE(e.at("new_seconds").is_null());
    EXPECT_TRUE(e.at("change").is_null());
    EXPECT_DOUBLE_EQ(e.at("base_seconds").get<double>(), 1e-3);
    EXPECT_EQ(e.at("new_winner").at("basis"), "predicted");
    EXPECT_EQ(e.at("winner_changed"), base["problems"][0]["winner"]["params"] != compile_only()["problems"][0]["winner"]["params"]);
}

TEST_F(CompareCli, DirectoriesAreWalkedForResultsFilesOnly)
{
    json sm80 = measured(2e-3, 0.01);
    sm80["arch"] = "sm_80";
    json other_kernel = measured(1e-3, 0.01);
    other_kernel["kernel"] = "copy2";
    // Base: nightly/<date>/results/{sm_90,sm_80}/copy.json, a device file and a journal.
    write("base/nightly/2024-05-01/results/sm_90/copy.json", measured(1e-3, 0.01));
    write("base/nightly/2024-05-01/results/sm_80/copy.json", sm80);
    write("base/nightly/2024-05-01/results/devices/h100-sxm.json", json{{"name", "h100"}, {"bandwidth_gbs", 3000}});
    write_text("base/nightly/2024-05-01/results/sm_90/copy.journal.jsonl", "{\"variant\": 1}\n{torn");
    write_text("base/notes.json", "not json at all");
    // New: sm_90 copy a bit slower but inside the threshold, sm_80 gone, another kernel.
    write("new/results/sm_90/copy.json", measured(1.02e-3, 0.01));
    write("new/results/sm_90/copy2.json", other_kernel);
    const auto r = autotune(fmt::format("compare {} {} --json", (dir.path() / "base").string(), (dir.path() / "new").string()));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j.at("regressions"), 0);
    const json& entries = j.at("entries");
    ASSERT_EQ(entries.size(), 3u) << r.out;
    EXPECT_EQ(entries[0].at("kernel"), "copy");
    EXPECT_EQ(entries[0].at("arch"), "sm_80");
    EXPECT_EQ(entries[0].at("verdict"), "removed");
    EXPECT_THAT(entries[0].at("base_file").get<std::string>(), HasSubstr("results/sm_80/copy.json"));
    EXPECT_EQ(entries[1].at("arch"), "sm_90");
    EXPECT_EQ(entries[1].at("verdict"), "same");
    EXPECT_EQ(entries[2].at("kernel"), "copy2");
    EXPECT_EQ(entries[2].at("verdict"), "new");

    // A results directory against a results file works the same.
    const auto f = autotune(fmt::format("compare {} {}", (dir.path() / "base").string(),
                                        (dir.path() / "new" / "results" / "sm_90" / "copy.json").string()));
    EXPECT_EQ(f.exit_code, 0) << f.err;
    EXPECT_THAT(f.out, HasSubstr("1 same, 1 removed"));
}

TEST_F(CompareCli, TheMarkdownSummaryIsWrittenNextToTheJson)
{
    const auto md = dir.path() / "ci" / "compare.md";
    const auto r = compare(measured(1e-3, 0.01), measured(1.2e-3, 0.01), "--json --markdown " + md.string());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json j = json::parse(r.out); // stdout is the JSON alone
    EXPECT_EQ(j.at("regressions"), 1);
    EXPECT_EQ(j.at("entries").at(0).at("verdict"), "slower");
    const std::string text = test::read_file(md);
    EXPECT_THAT(text, HasSubstr("**1 regression**"));
    EXPECT_THAT(text, HasSubstr("| copy | sm_90 |"));
    EXPECT_THAT(text, HasSubstr("**slower**"));
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(md.parent_path()))
        files += entry.is_regular_file();
    EXPECT_EQ(files, 1u); // no temporary left beside it
}

TEST_F(CompareCli, BadInputExitsTwoWithOneLineNamingItAndWritesNothing)
{
    const std::string good = write("good/sm_90/copy.json", measured(1e-3, 0.01));
    const std::string missing = (dir.path() / "missing.json").string();
    const std::string not_json = write_text("broken/sm_90/copy.json", "{\"kernel\": \"copy\",");
    const std::string device = write("devices/h100.json", json{{"name", "h100"}, {"bandwidth_gbs", 3000}});
    const std::string older = write("old.json", json{{"kernel", "copy"}, {"arch", "sm_90"}, {"variants", json::array()}});
    std::filesystem::create_directories(dir.path() / "empty" / "devices");
    const std::string empty = (dir.path() / "empty").string();
    write("twice/a/sm_90/copy.json", measured(1e-3, 0.01));
    write("twice/b/sm_90/copy.json", measured(1e-3, 0.01));
    const std::string twice = (dir.path() / "twice").string();
    const auto md = dir.path() / "out.md";
    const std::vector<std::pair<std::string, std::string>> cases{
        {fmt::format("{} {}", missing, good), fmt::format("BASE '{}' not found", missing)},
        {fmt::format("{} {}", good, missing), fmt::format("NEW '{}' not found", missing)},
        {fmt::format("{} {}", good, not_json), fmt::format("'{}' is not valid JSON", not_json)},
        {fmt::format("{} {}", (dir.path() / "broken").string(), good), fmt::format("'{}' is not valid JSON", not_json)},
        {fmt::format("{} {}", device, good), fmt::format("{}: not an autotune results file", device)},
        {fmt::format("{} {}", good, older), fmt::format("{}: not an autotune results file", older)},
        {fmt::format("{} {}", empty, good), fmt::format("no results files (<arch>/<kernel>.json) under BASE directory '{}'", empty)},
        {fmt::format("{} {}", good, twice), "both hold copy on sm_90"},
        {fmt::format("{} {} --threshold 0", good, good), "--threshold 0 is out of range (accepted: more than 0)"},
        {fmt::format("{} {} --threshold=-5", good, good), "--threshold -5 is out of range (accepted: more than 0)"},
        {fmt::format("{} {} --threshold abc", good, good), "'abc'"},
        {good, "needs BASE and NEW"},
        {fmt::format("{} {} {}", good, good, good), "too many positional options"},
        {fmt::format("{} {} --frobnicate", good, good), "frobnicate"},
    };
    for (const auto& [arguments, expected] : cases) {
        const auto r = autotune("compare " + arguments + " --markdown " + md.string());
        EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.err;
        EXPECT_THAT(r.err, HasSubstr(expected)) << arguments;
        EXPECT_EQ(lines(r.err), 1u) << arguments << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments << "\n" << r.out;
        EXPECT_FALSE(std::filesystem::exists(md)) << arguments;
    }
}

// Two sides that share no kernel, arch and problem compared nothing: bad input naming both,
// not a pass.
TEST_F(CompareCli, SidesWithNothingInCommonAreBadInputNamingBoth)
{
    json other_kernel = measured(1e-3, 0.01);
    other_kernel["kernel"] = "triad";
    json other_arch = measured(1e-3, 0.01);
    other_arch["arch"] = "sm_80";
    json other_problem = measured(1e-3, 0.01);
    other_problem["problems"][0]["variables"]["N"] = 12345;
    const std::string base = write("base/sm_90/copy.json", measured(1e-3, 0.01));
    const std::vector<std::pair<json, std::string>> cases{{other_kernel, "triad on sm_90"}, {other_arch, "copy on sm_80"},
                                                          {other_problem, "copy on sm_90 (N=12345)"}};
    for (const auto& [next, held] : cases) {
        const std::string file = write("new/sm_90/other.json", next);
        const auto r = autotune(fmt::format("compare {} {} --markdown {}", base, file, (dir.path() / "out.md").string()));
        EXPECT_EQ(r.exit_code, 2) << held << "\n" << r.out << r.err;
        EXPECT_THAT(r.err, HasSubstr(fmt::format("nothing to compare: BASE {} holds copy on sm_90", base))) << held;
        EXPECT_THAT(r.err, HasSubstr(fmt::format("NEW {} holds {}", file, held))) << held;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "out.md"));
    }
}

TEST_F(CompareCli, IsListedInTheUsageAndHasHelp)
{
    auto r = autotune("--help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("autotune compare BASE NEW"));
    r = autotune("compare --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("--threshold"));
    EXPECT_THAT(r.out, HasSubstr("--markdown"));
}

} // namespace
