// Sharding a space and merging the parts, through the program as users run it.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fstream>
#include <map>
#include <set>

using namespace autotune;
using json = nlohmann::json;
using ::testing::HasSubstr;

namespace {

class Sharding : public ::testing::Test {
protected:
    test::CommandResult autotune(const std::string& arguments)
    {
        return test::run_autotune(arguments, dir.path());
    }
    json results(const std::string& name) { return json::parse(test::read_file(dir.path() / "out" / "sm_90" / name)); }
    std::string out() const { return (dir.path() / "out").string(); }
    // The parts of out/sm_90 named `shard-I-of-N` parts of `kernel`, in the order given.
    std::vector<std::string> parts_of(const std::string& kernel, int count, const std::vector<int>& order) const
    {
        std::vector<std::string> parts;
        for (const int i : order)
            parts.push_back(fmt::format("{}/sm_90/{}.shard-{}-of-{}.json", out(), kernel, i, count));
        return parts;
    }
    // Merges `parts` into `name` and expects what `whole` holds, but for what differs
    // between any two runs.
    void expect_merged_as(const std::vector<std::string>& parts, const json& whole, const std::string& name)
    {
        const auto merged_path = dir.path() / name;
        const auto r = autotune(fmt::format("merge {} -o {}", fmt::join(parts, " "), merged_path.string()));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const json merged = json::parse(test::read_file(merged_path));
        EXPECT_TRUE(comparable(merged) == comparable(whole)) << json::diff(comparable(whole), comparable(merged)).dump(1);
    }

    // A results document without what differs between any two runs (compile timings, cache).
    // Each further problem of a [[problems]] run carries the same fields.
    static json comparable(json doc)
    {
        doc.erase("compile_seconds");
        doc.erase("created");
        for (auto& v : doc["variants"]) {
            v.erase("cache_hit");
            v.erase("compile_seconds");
        }
        if (doc.contains("problems"))
            for (auto& problem : doc["problems"])
                if (problem.contains("variants")) {
                    json record = problem;
                    record.erase("problems");
                    problem = comparable(std::move(record));
                }
        return doc;
    }
    test::TempDir dir;
};

TEST_F(Sharding, ThePartsPartitionTheSpaceAndMergeIntoTheUnshardedRun)
{
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --shard {}/3 --out {}", i, out())).exit_code, 0);
    ASSERT_EQ(autotune("copy --arch sm_90 --compile-only --out " + out()).exit_code, 0);
    std::set<std::size_t> seen;
    std::size_t total = 0;
    for (int i = 0; i < 3; ++i) {
        const json part = results(fmt::format("copy.shard-{}-of-3.json", i));
        EXPECT_EQ(part.at("shard").at("index"), i);
        for (const auto& v : part.at("variants")) {
            EXPECT_TRUE(seen.insert(v.at("index").get<std::size_t>()).second) << "in two parts: " << v.at("index");
            ++total;
        }
        EXPECT_NEAR(static_cast<double>(part.at("variants").size()), 36.0 / 3, 1.0); // balanced
    }
    const json whole = results("copy.json");
    EXPECT_EQ(total, whole.at("variants").size()); // complete

    expect_merged_as(parts_of("copy", 3, {2, 0, 1}), whole, "merged.json");
}

// A variant with a stack frame: how much of its local traffic L1 and L2 serve depends on
// the blocks' shared memory, dynamic included, and on the device's L2, which the results
// record in their ceilings. Merge ranks it as the unsharded run did.
TEST_F(Sharding, VariantsWithLocalMemoryMergeIntoTheUnshardedRanking)
{
    const std::string spec = (test::data_dir() / "local_memory" / "stack_shared.toml").string();
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(autotune(fmt::format("run {} --arch sm_90 --compile-only --shard {}/2 --out {}", spec, i, out())).exit_code,
                  0);
    ASSERT_EQ(autotune(fmt::format("run {} --arch sm_90 --compile-only --out {}", spec, out())).exit_code, 0);
    const json whole = results("stack_shared.json");
    // The space is what the test is for: stack frames, and blocks whose dynamic shared
    // memory leaves L1 less room for them.
    std::set<std::int64_t> dynamic_shared;
    for (const auto& v : whole.at("variants")) {
        EXPECT_GT(v.at("stack_frame").get<std::int64_t>(), 0);
        dynamic_shared.insert(v.at("dynamic_shared_bytes").get<std::int64_t>());
    }
    EXPECT_GE(dynamic_shared.size(), 3u);

    expect_merged_as(parts_of("stack_shared", 2, {1, 0}), whole, "merged.json");

    // The L2 comes from the parts' ceilings, whatever their source: ceilings measured on a
    // GPU name no device of the table, and the run ranked with the L2 its driver reported.
    const auto measured_source = [](json document) {
        for (auto& problem : document.at("problems")) {
            EXPECT_TRUE(problem.at("ceilings").contains("l2_bytes"));
            problem["ceilings"]["source"] = "measured: out/devices/a-gpu.json";
        }
        return document;
    };
    std::vector<std::string> parts;
    for (int i = 0; i < 2; ++i) {
        parts.push_back((dir.path() / fmt::format("measured-part{}.json", i)).string());
        std::ofstream(parts.back()) << measured_source(results(fmt::format("stack_shared.shard-{}-of-2.json", i))).dump();
    }
    expect_merged_as(parts, measured_source(whole), "remerged.json");
}

TEST_F(Sharding, MergeKeepsEveryPartsNvccBuildsAndTheFastestWinnerAsNvccBuildsIt)
{
    // Measured parts rebuild their own best variants with nvcc; written in by hand here.
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --shard {}/2 --out {}", i, out())).exit_code, 0);
    std::vector<std::string> paths;
    const double medians[] = {0.003, 0.002};
    for (int i = 0; i < 2; ++i) {
        json part = results(fmt::format("copy.shard-{}-of-2.json", i));
        part["device"] = {{"name", "NVIDIA H100 80GB HBM3"}}; // where the nvcc builds were measured
        const json& v = part.at("variants").at(0);
        part["problems"][0]["nvcc_builds"] = json::array(
            {{{"index", v.at("index")}, {"same_machine_code", true}, {"sass_sha256", "x"}, {"median_seconds", medians[i]},
              {"measured_again", false}, {"error", nullptr}}});
        part["problems"][0]["winner_as_built_by_nvcc"] = {{"index", v.at("index")}, {"params", v.at("params")},
                                                          {"median_seconds", medians[i]}};
        paths.push_back((dir.path() / fmt::format("part{}.json", i)).string());
        std::ofstream(paths.back()) << part.dump();
    }
    const auto merged_path = dir.path() / "merged.json";
    const auto r = autotune(fmt::format("merge {} {} -o {}", paths[0], paths[1], merged_path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json problem = json::parse(test::read_file(merged_path)).at("problems").at(0);
    ASSERT_EQ(problem.at("nvcc_builds").size(), 2u);
    EXPECT_EQ(problem.at("nvcc_builds").at(0).at("median_seconds"), 0.002); // fastest first
    EXPECT_EQ(problem.at("winner_as_built_by_nvcc").at("median_seconds"), 0.002);
    EXPECT_EQ(problem.at("winner_as_built_by_nvcc").at("index"),
              results("copy.shard-1-of-2.json").at("variants").at(0).at("index"));
}

TEST_F(Sharding, ARunOverSeveralProblemsShardsAndMergesProblemByProblem)
{
    const std::string variants = "--variants 2236800,2237088,2283840,3363600";
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(autotune(fmt::format("gemm --arch sm_90 --compile-only {} --shard {}/2 --out {}", variants, i, out()))
                      .exit_code,
                  0);
    ASSERT_EQ(autotune(fmt::format("gemm --arch sm_90 --compile-only {} --out {}", variants, out())).exit_code, 0);
    const json whole = results("gemm.json");
    ASSERT_EQ(whole.at("problems").size(), 4u);
    expect_merged_as(parts_of("gemm", 2, {1, 0}), whole, "merged.json");
}

TEST_F(Sharding, IncompleteOrRepeatedPartsAndBadShardsAreBadInput)
{
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --shard {}/2 --out {}", i, out())).exit_code, 0);
    const std::string part0 = out() + "/sm_90/copy.shard-0-of-2.json";
    const auto missing = autotune(fmt::format("merge {} -o {}/m.json", part0, out()));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_THAT(missing.err, HasSubstr("the parts hold 1 of the 2 shards"));
    const auto twice = autotune(fmt::format("merge {0} {0} -o {1}/m.json", part0, out()));
    EXPECT_EQ(twice.exit_code, 2);
    EXPECT_THAT(twice.err, HasSubstr("shard 0 is given twice"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "m.json"));
    for (const char* bad : {"3/3", "1/0", "a/b", "1-2"}) {
        const auto r = autotune(fmt::format("copy --arch sm_90 --compile-only --shard {} --out {}", bad, out()));
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_THAT(r.err, HasSubstr("--shard")) << bad;
    }
}

// Merge is the last look at a sharded run before its parts are deleted: a part that lost
// variants, a part of another run, or a record autotune never writes is refused, naming the
// part (its file) and what is missing, and nothing is written.
class ShardParts : public Sharding {
protected:
    void SetUp() override
    {
        for (int i = 0; i < 3; ++i)
            ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --shard {}/3 --out {}", i, out()))
                          .exit_code,
                      0);
    }
    json part(int i) { return results(fmt::format("copy.shard-{}-of-3.json", i)); }
    // The three parts, part `edited` replaced by `document`; returns the merge's outcome.
    test::CommandResult merge_with(int edited, const json& document)
    {
        std::string paths;
        for (int i = 0; i < 3; ++i) {
            const auto path = dir.path() / fmt::format("part{}.json", i);
            std::ofstream(path) << (i == edited ? document : part(i)).dump(2);
            paths += path.string() + " ";
        }
        return autotune(fmt::format("merge {}-o {}", paths, merged().string()));
    }
    std::string part_path(int i) const { return (dir.path() / fmt::format("part{}.json", i)).string(); }
    std::filesystem::path merged() const { return dir.path() / "merged.json"; }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }
    void expect_refused(const test::CommandResult& r, int blamed, const std::string& said)
    {
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_THAT(r.err, HasSubstr(part_path(blamed) + ": " + said));
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_FALSE(std::filesystem::exists(merged()));
    }
};

TEST_F(ShardParts, APartCutShortIsNamedWithTheIndicesItLacks)
{
    // Cut to its winner alone: a file that still reads as a results file of its own.
    json cut = part(1);
    std::vector<std::size_t> lost;
    json kept = json::array();
    for (const auto& v : cut.at("variants"))
        if (v.at("index") == cut.at("problems").at(0).at("winner").at("index"))
            kept.push_back(v);
        else
            lost.push_back(v.at("index").get<std::size_t>());
    ASSERT_EQ(kept.size(), 1u);
    const std::size_t share = cut.at("variants").size();
    cut["variants"] = kept;
    expect_refused(merge_with(1, cut), 1,
                   fmt::format("shard 1 of 3 lacks {} of its {} variants: {}", lost.size(), share, fmt::join(lost, ", ")));
    // Its count edited to match: the parts no longer take turns in index order.
    cut["space"]["valid"] = 1;
    const auto r = merge_with(1, cut);
    expect_refused(r, 1, "shard 1 of 3 lacks a variant between");
}

TEST_F(ShardParts, APartOfAnotherRunIsNamed)
{
    json other = part(2);
    other["arch"] = "sm_80";
    expect_refused(merge_with(2, other), 2, "arch is \"sm_80\", but \"sm_90\" in " + part_path(0));
    other = part(2);
    other["spec_sha256"] = std::string(64, '0');
    expect_refused(merge_with(2, other), 2, "spec_sha256 is");
    other = part(2);
    other["shard"]["count"] = 4;
    expect_refused(merge_with(2, other), 2, "shard.count is 4, but 3 in " + part_path(0));
    other = part(2);
    other["space"]["combinations"] = 99;
    expect_refused(merge_with(2, other), 2, "space.combinations is 99");
    // Parts compiled by another NVRTC or with other options ran other code.
    other = part(2);
    other["nvrtc_version"] = "11.8";
    expect_refused(merge_with(2, other), 2, "nvrtc_version is \"11.8\", but");
    other = part(2);
    other["compile_options_added"] = json::array({"-ftz=true"});
    expect_refused(merge_with(2, other), 2, "compile_options_added is [\"-ftz=true\"], but none in " + part_path(0));
}

TEST_F(ShardParts, AnErrorInOnePartIsBlamedOnThatPart)
{
    json edited = part(2);
    edited["variants"][4]["status"] = "fine";
    expect_refused(merge_with(2, edited), 2, "variants[4].status: 'fine' is not a status autotune writes");
    // A variant whose parameters the spec does not have: the part it came from is named.
    edited = part(2);
    json& compiled = *std::find_if(edited["variants"].begin(), edited["variants"].end(),
                                   [](const json& v) { return v.at("status") == "ok"; });
    compiled["params"]["BLOCK"] = 96;
    const auto r = merge_with(2, edited);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(part_path(2)));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr(part_path(0))));
}

TEST_F(Sharding, AnUnknownStrategyOrBudgetIsBadInput)
{
    const auto strategy = autotune("copy --arch sm_90 --strategy genetic --out " + out());
    EXPECT_EQ(strategy.exit_code, 2);
    EXPECT_THAT(strategy.err, HasSubstr("--strategy 'genetic' is not one of: exhaustive"));
    const auto budget = autotune("copy --arch sm_90 --budget 10x --out " + out());
    EXPECT_EQ(budget.exit_code, 2);
    EXPECT_THAT(budget.err, HasSubstr("--budget '10x'"));
}

TEST_F(Sharding, ResultsSayWhatWasPrunedAndWhy)
{
    const auto r = autotune("copy --arch sm_90 --compile-only --json --out " + out());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    std::size_t duplicates = 0;
    for (const auto& v : doc.at("variants"))
        if (!v.at("duplicate_of").is_null()) {
            ++duplicates;
            EXPECT_LT(v.at("duplicate_of").get<std::size_t>(), v.at("index").get<std::size_t>());
        }
    EXPECT_GT(duplicates, 0u);
    bool counted = false;
    for (const auto& rule : doc.at("pruning"))
        if (rule.at("rule").get<std::string>().rfind("same machine code", 0) == 0) {
            EXPECT_EQ(rule.at("removed"), duplicates);
            counted = true;
        }
    EXPECT_TRUE(counted);
}

} // namespace

namespace {

TEST_F(Sharding, TheSlurmArrayScriptTunesItsShardAndTheArrayMerges)
{
    const std::string script = (test::source_dir() / "scripts" / "slurm-tune.sbatch").string();
    for (int task = 0; task < 2; ++task) {
        // As Slurm runs a task of the array, in a checkout whose build/autotune is this one.
        const auto r = test::run_command(fmt::format(
            "cd {0} && mkdir -p build && ln -sf {1} build/autotune && SLURM_SUBMIT_DIR={0} SLURM_ARRAY_TASK_ID={2} "
            "SLURM_ARRAY_TASK_COUNT=2 KERNEL=copy ARCH=sm_80 OUT={0}/out AUTOTUNE_CACHE_DIR={0}/cache "
            "AUTOTUNE_ARGS=--compile-only bash {3}",
            dir.path().string(), test::autotune_binary().string(), task, script));
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const auto merged = autotune(fmt::format("merge {0}/sm_80/copy.shard-0-of-2.json {0}/sm_80/copy.shard-1-of-2.json -o {0}/m.json", out()));
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    EXPECT_EQ(json::parse(test::read_file(dir.path() / "out" / "m.json")).at("variants").size(), 36u);
    const auto outside = test::run_command("bash " + script);
    EXPECT_NE(outside.exit_code, 0);
    EXPECT_THAT(outside.err, HasSubstr("job array"));
}

TEST_F(Sharding, LaunchBoundSearchSweepsThePolicyAroundTheBestAndMarksTheFrontier)
{
    const auto r = autotune("gemm --arch sm_90 --compile-only --launch-bounds --json --variants 3363840 "
                            "--problem M=4096,N=4096,K=4096 --out " + out());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    const json& searches = doc.at("launch_bound_search");
    ASSERT_EQ(searches.size(), 1u); // one per configuration (one was tuned)
    std::map<std::size_t, json> by_index;
    for (const auto& v : doc.at("variants"))
        by_index[v.at("index").get<std::size_t>()] = v;
    for (const auto& search : searches) {
        const json& base = by_index.at(search.at("base").get<std::size_t>());
        EXPECT_GT(search.at("sweep").size(), 10u);
        for (const auto& index : search.at("sweep")) {
            const json& v = by_index.at(index.get<std::size_t>());
            // Only the register policy differs from the base.
            for (const char* fixed : {"BM", "BN", "BK", "TM", "TN", "VEC"})
                EXPECT_EQ(v.at("params").at(fixed), base.at("params").at(fixed));
        }
        ASSERT_FALSE(search.at("frontier").empty());
        // No frontier point is beaten on both registers and the model's figure by another.
        for (const auto& f : search.at("frontier")) {
            const json& p = by_index.at(f.get<std::size_t>());
            for (const auto& index : search.at("sweep")) {
                const json& q = by_index.at(index.get<std::size_t>());
                if (q.at("predicted_fraction").is_null() || q.at("index") == p.at("index"))
                    continue;
                EXPECT_FALSE(q.at("registers").get<int>() < p.at("registers").get<int>() &&
                             q.at("predicted_fraction").get<double>() > p.at("predicted_fraction").get<double>())
                    << q.at("index") << " beats frontier point " << p.at("index");
            }
        }
    }
}

} // namespace
