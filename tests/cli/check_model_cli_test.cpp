// autotune check-model as users run it: hand-made Kernel Tuner caches of the project's own
// kernels (copy; a register-hungry kernel at a block size it cannot launch with), scored
// with answers worked out by hand, the failure agreement on real compiled variants, the
// seeded sample, and bad input as exit 2 with one line naming it.
#include "arch/device_spec.hpp"
#include "emit/kt_cache_import.hpp"
#include "emit/measured_file.hpp"
#include "emit/problem_views.hpp"
#include "emit/t4_format.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"
#include "support/tune_setup.hpp"
#include "tune/model_check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <map>
#include <set>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

const std::vector<std::string> copy_names{"BLOCK", "VEC", "ITEMS", "MAX_THREADS", "MIN_BLOCKS", "MAXRREGCOUNT"};

// A Kernel Tuner cache: each configuration's values in `names` order and its time (ms) or
// failure string.
json kt_cache(const std::vector<std::string>& names, const std::vector<std::pair<std::vector<int>, json>>& entries)
{
    json tune_params = json::object();
    for (std::size_t k = 0; k < names.size(); ++k) {
        std::vector<int> values;
        for (const auto& [config, time] : entries)
            values.push_back(config[k]);
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        tune_params[names[k]] = values;
    }
    json cache = json::object();
    for (const auto& [config, time] : entries) {
        json entry = json::object();
        std::string key;
        for (std::size_t k = 0; k < names.size(); ++k) {
            entry[names[k]] = config[k];
            key += (key.empty() ? "" : ",") + std::to_string(config[k]);
        }
        entry["time"] = time;
        entry["times"] = time.is_number() ? json::array({time, time}) : json::array();
        cache[key] = entry;
    }
    return {{"device_name", "NVIDIA GeForce RTX 3090"}, {"kernel_name", "hand_made"}, {"problem_size", 1},
            {"tune_params_keys", names}, {"tune_params", tune_params}, {"objective", "time"}, {"cache", cache}};
}

class CheckModelCli : public ::testing::Test {
protected:
    test::CommandResult run(const std::string& arguments) { return test::run_autotune("check-model " + arguments, dir.path()); }
    std::filesystem::path write(const std::string& name, const json& document)
    {
        const auto path = dir.path() / name;
        std::ofstream(path) << document.dump(1);
        return path;
    }
    static std::string copy_spec() { return (test::source_dir() / "kernels" / "copy.toml").string(); }
    // heavy_blocks measured as it runs here: all but the 1024-thread WIDTH=96 block, which
    // failed to launch.
    static json heavy_cache_where_the_heavy_block_failed()
    {
        return kt_cache({"BLOCK", "WIDTH"},
                        {{{128, 8}, 1.0}, {{128, 96}, 3.0}, {{1024, 8}, 0.8}, {{1024, 96}, "RuntimeFailedConfig"}});
    }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }
    // points, measured and predicted failures, and their agreement, as the JSON says them.
    static std::vector<int> failure_counts(const json& out)
    {
        std::vector<int> counts;
        for (const char* key : {"points", "measured_failures", "predicted_failures", "failures_agree",
                                "failures_only_measured", "failures_only_predicted"})
            counts.push_back(out.at(key).get<int>());
        return counts;
    }

    test::TempDir dir;
};

// The copy cache: six configurations that ran, one the spec's rules forbid (recorded as a
// launch failure), one whose __launch_bounds__ min blocks can never be resident (pruned,
// though it ran), one Kernel Tuner failed to compile (nothing here predicts that), and one
// outside the spec's values (BLOCK=96).
std::vector<std::pair<std::vector<int>, json>> copy_entries(const std::vector<double>& six_times_ms)
{
    std::vector<std::pair<std::vector<int>, json>> entries;
    std::size_t k = 0;
    for (const int block : {128, 256, 512})
        for (const int vec : {1, 4})
            entries.push_back({{block, vec, 1, 0, 0, 0}, six_times_ms[k++]});
    entries.push_back({{1024, 1, 1, 64, 0, 0}, "RuntimeFailedConfig"});
    entries.push_back({{256, 1, 1, 1024, 16, 0}, 10.0});
    entries.push_back({{64, 4, 1, 0, 0, 0}, "CompilationFailedConfig"});
    entries.push_back({{96, 1, 1, 0, 0, 0}, 0.5});
    return entries;
}

} // namespace

TEST_F(CheckModelCli, ScoresAgainstTimesMadeUpInTheReverseOfTheModelsOrder)
{
    // The model's ranks of the six, from the same pipeline driven from C++.
    const auto path = write("copy.json", kt_cache(copy_names, copy_entries({1, 1, 1, 1, 1, 1})));
    const KernelSpec spec = load_spec(copy_spec());
    const Problem problem = resolve_problem(spec, {});
    const TuneSetup setup = test::predicting_setup(spec, "sm_80", dir.path() / "cache");
    const MeasuredJoin join = join_measured(spec, problem, read_measured_file(path), path.string());
    const std::vector<CheckedPoint> predicted = checked_points(join, predict_problem(setup, problem, join.variants));
    ASSERT_EQ(predicted.size(), 9u);
    // The model's best of the six measured slowest (6 ms), its worst fastest (1 ms). (The
    // points are in the cache's index order; the pruned one has a rank too, so the six's
    // ranks need not be 1..6.)
    std::vector<std::size_t> six; // their points, in copy_entries' order
    for (const int block : {128, 256, 512})
        for (const int vec : {1, 4})
            for (std::size_t p = 0; p < join.points.size(); ++p)
                if (join.points[p].params.at("BLOCK") == block && join.points[p].params.at("VEC") == vec &&
                    join.points[p].params.at("MIN_BLOCKS") == 0 && join.points[p].params.at("MAX_THREADS") == 0)
                    six.push_back(p);
    ASSERT_EQ(six.size(), 6u);
    std::vector<std::size_t> by_rank{0, 1, 2, 3, 4, 5};
    std::sort(by_rank.begin(), by_rank.end(),
              [&](auto a, auto b) { return predicted[six[a]].predicted_rank < predicted[six[b]].predicted_rank; });
    std::vector<double> times(6);
    for (std::size_t k = 0; k < 6; ++k)
        times[by_rank[k]] = static_cast<double>(6 - k);
    write("copy.json", kt_cache(copy_names, copy_entries(times)));

    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", copy_spec(), path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out.at("outside_space"), 1);
    EXPECT_EQ(failure_counts(out), (std::vector<int>{9, 2, 2, 1, 1, 1}));
    // 7 ran: the six at 1..6 ms in the reverse of the model's order, the pruned one at 10 ms
    // (last in the model's order); 1% and 5% of 7 are 1 pick.
    EXPECT_DOUBLE_EQ(out.at("spearman").get<double>(), -1.0);
    EXPECT_DOUBLE_EQ(out.at("top1_fraction").get<double>(), 1.0 / 6);
    EXPECT_DOUBLE_EQ(out.at("best_in_top_1pct").get<double>(), 1.0 / 6);
    EXPECT_DOUBLE_EQ(out.at("best_in_top_5pct").get<double>(), 1.0 / 6);
    const json& random = out.at("baselines").at("random");
    const double mean = (1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6 + 1.0 / 10) / 7;
    EXPECT_NEAR(random.at("top1_fraction").get<double>(), mean, 1e-12);
    EXPECT_NEAR(random.at("best_in_top_5pct").get<double>(), mean, 1e-12);
    EXPECT_EQ(random.at("spearman"), 0.0);
    EXPECT_TRUE(out.at("baselines").at("occupancy_first").contains("top1_fraction"));
    // Over the 6 that ran and are predicted to (not the pruned one).
    const json& scale = out.at("measured_over_predicted");
    EXPECT_EQ(scale.at("points"), 6);
    EXPECT_LE(scale.at("lower_quartile").get<double>(), scale.at("median").get<double>());
    EXPECT_LE(scale.at("median").get<double>(), scale.at("upper_quartile").get<double>());
    ASSERT_EQ(out.at("misses").size(), 1u);
    const json& miss = out.at("misses")[0];
    EXPECT_EQ(miss.at("params").at("MIN_BLOCKS"), 16);
    EXPECT_TRUE(miss.at("registers").is_number_integer());
    EXPECT_THAT(miss.at("predicted_failure").get<std::string>(), HasSubstr("can never be resident"));

    const auto text = run(fmt::format("{} --measured {} --arch sm_80", copy_spec(), path.string()));
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("occupancy-first"));
    EXPECT_THAT(text.out, HasSubstr("top1_fraction         0.167"));
    EXPECT_THAT(text.out, HasSubstr("measured / predicted time: median "));
    EXPECT_THAT(text.out, HasSubstr(" (6 points)\n"));
    EXPECT_THAT(text.out, HasSubstr("1 agree, 1 only measured, 1 only predicted"));
    EXPECT_THAT(text.out, HasSubstr("ran, though predicted to fail:\n  BLOCK=256,VEC=1,ITEMS=1,MAX_THREADS=1024,MIN_BLOCKS=16"));
    EXPECT_THAT(text.out, HasSubstr("registers "));
    // Neither disagreement is a register count: the prediction is a launch bound's, the
    // measured failure a compile's.
    EXPECT_THAT(miss.at("explanation").get<std::string>(), HasSubstr("it ran there; no register count explains"));
    ASSERT_EQ(out.at("unpredicted_failures").size(), 1u);
    EXPECT_EQ(out.at("unpredicted_failures")[0].at("measured_failure"), "CompilationFailedConfig");
    EXPECT_THAT(out.at("unpredicted_failures")[0].at("explanation").get<std::string>(),
                HasSubstr("it failed to compile there (CompilationFailedConfig); it compiles here"));
    EXPECT_THAT(text.out, HasSubstr("failed, though predicted to run:\n  BLOCK=64,VEC=4"));
}

TEST_F(CheckModelCli, ABlockTheRegistersCannotLaunchIsAPredictedFailureThatAgrees)
{
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto path = write("heavy.json", heavy_cache_where_the_heavy_block_failed());
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", spec, path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(failure_counts(out), (std::vector<int>{4, 1, 1, 1, 0, 0}));
}

TEST_F(CheckModelCli, ALaunchThatDisagreesIsExplainedByTheRegistersItBounds)
{
    // The other way round from the test above: the heavy 1024-thread block ran there, and
    // two light ones failed to launch. 1024 threads fit an sm_80 SM with at most 64
    // registers a thread (8 warps on each of the 4 partitions' 16,384 registers); a block of
    // 128 fits at any count.
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto path = write("heavy.json", kt_cache({"BLOCK", "WIDTH"}, {{{128, 8}, "RuntimeFailedConfig"},
                                                                       {{128, 96}, 3.0},
                                                                       {{1024, 8}, "RuntimeFailedConfig"},
                                                                       {{1024, 96}, 2.0}}));
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", spec, path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(failure_counts(out), (std::vector<int>{4, 2, 1, 0, 2, 1}));
    // The 1024-thread disagreements are register counts; the 128-thread failure is not.
    EXPECT_EQ(out.at("failures_by_registers"), 2);
    ASSERT_EQ(out.at("misses").size(), 1u);
    EXPECT_THAT(out.at("misses")[0].at("explanation").get<std::string>(),
                HasSubstr("it ran there, so the binary measured used at most 64 registers a thread (a block of 1024 "
                          "threads on sm_80 fits with no more); this compile gives "));
    ASSERT_EQ(out.at("unpredicted_failures").size(), 2u);
    for (const json& failure : out.at("unpredicted_failures")) {
        const std::string why = failure.at("explanation").get<std::string>();
        if (failure.at("params").at("BLOCK") == 1024)
            EXPECT_THAT(why, HasSubstr("it failed to launch there, as a block of 1024 threads on sm_80 does from 65 "
                                       "registers a thread: the binary measured used more than 64"));
        else
            EXPECT_THAT(why, HasSubstr("though no register count stops a block of 128 threads on sm_80: not a limit "
                                       "the model knows"));
    }
}

TEST_F(CheckModelCli, ACompileOptionCompilesWhatWasMeasured)
{
    // Measured: the heavy 1024-thread block failed to launch. Capped at 32 registers by an
    // option the spec does not name, this compile launches it: the failure is no longer
    // predicted, and the output says what it compiled with.
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto path = write("heavy.json", heavy_cache_where_the_heavy_block_failed());
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --compile-option=-maxrregcount=32 --json", spec,
                                   path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(failure_counts(out), (std::vector<int>{4, 1, 0, 0, 1, 0}));
    EXPECT_EQ(out.at("failures_by_registers"), 1);
    // Kernel Tuner measured it: -ftz=true follows, as its CuPy backend compiles.
    EXPECT_EQ(out.at("compile_options"), json::array({"-maxrregcount=32", "-ftz=true"}));

    const auto text = run(fmt::format("{} --measured {} --arch sm_80 --compile-option=-maxrregcount=32", spec,
                                      path.string()));
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("-maxrregcount=32 -ftz=true (-ftz=true as Kernel Tuner's CuPy backend compiles; "
                                    "--compile-option=-ftz=false compiles without)\n"));
    EXPECT_THAT(text.out, HasSubstr("1 of the 1 disagreements are register counts: the binaries measured were "
                                    "compiled otherwise (another toolkit: --nvrtc, or options the spec does not "
                                    "name)\n"));
    // Compiled without it, the register line names what CuPy adds.
    const auto exact = run(fmt::format("{} --measured {} --arch sm_80 --compile-option=-maxrregcount=32 "
                                       "--compile-option=-ftz=false", spec, path.string()));
    ASSERT_EQ(exact.exit_code, 0) << exact.err;
    EXPECT_THAT(exact.out, HasSubstr("-maxrregcount=32 -ftz=false\n"));
    EXPECT_THAT(exact.out, HasSubstr("Kernel Tuner's CuPy backend adds -ftz=true to every compile"));
}

// Kernel Tuner's files record no compile options, and its CuPy backend compiled every
// kernel with -ftz=true (CuPy appends it): a file Kernel Tuner measured (a cache, its T4,
// a cache imported) is compiled so, unless an -ftz option is given; autotune's own
// measurements (a results file, its T4 export) are compiled with the spec's options alone.
TEST_F(CheckModelCli, AFileKernelTunerMeasuredIsCompiledAsItsCuPyBackendCompiledIt)
{
    const auto cache_path = write("copy.json", kt_cache(copy_names, copy_entries({6, 5, 4, 3, 2, 1})));
    const json imported = import_kt_cache(cache_path);
    json ours = json::parse(test::read_file(test::source_dir() / "results" / "sm_90" / "copy.json"));
    ours["measured"] = true;
    ours["device"] = {{"name", "NVIDIA H100 80GB HBM3"}};
    for (auto& v : ours["variants"])
        if (v.at("status") == "ok")
            v["measurement"] = {{"time_seconds", {{"median", 2e-5}, {"relative_spread", 0.01}}},
                                {"objective_seconds", 2e-5}, {"verified", true}, {"sm_clock_mhz", 1755.0}};
    const auto assumed = [&](const std::filesystem::path& measured, const std::string& options) {
        const auto r = run(fmt::format("{} --measured {} --arch sm_90 --json {}", copy_spec(), measured.string(), options));
        EXPECT_EQ(r.exit_code, 0) << measured << "\n" << r.err;
        return r.exit_code == 0 ? json::parse(r.out).at("compile_options_assumed") : json();
    };
    const json flushing = json::array({"-ftz=true"}), none = json::array();
    EXPECT_EQ(assumed(cache_path, ""), flushing);
    EXPECT_EQ(assumed(cache_path, "--compile-option=-ftz=false"), none);
    EXPECT_EQ(assumed(write("imported.json", imported), ""), flushing);
    EXPECT_EQ(assumed(write("kt.t4.json", t4_document(imported, "imported.json")), ""), flushing);
    EXPECT_EQ(assumed(write("ours.json", ours), ""), none);
    EXPECT_EQ(assumed(write("ours.t4.json", t4_document(ours, "ours.json")), ""), none);
}

TEST_F(CheckModelCli, PointsFileSaysWhatTheModelPredictedBesideWhatWasMeasured)
{
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto path = write("heavy.json", kt_cache({"BLOCK", "WIDTH"}, {{{128, 8}, 1.0},
                                                                       {{1024, 8}, 0.8},
                                                                       {{1024, 96}, "RuntimeFailedConfig"}}));
    const auto points_path = dir.path() / "points.json";
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json --points {}", spec, path.string(),
                                   points_path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(points_path);
    ASSERT_TRUE(in) << "no points file";
    const json rows = json::parse(in);
    ASSERT_EQ(rows.size(), 3u);
    std::set<std::size_t> ranks;
    for (const json& row : rows) {
        const bool failed = row.at("params").at("WIDTH") == 96;
        EXPECT_EQ(row.at("measured_seconds").is_null(), failed);
        EXPECT_EQ(row.at("predicted_failure").is_null(), !failed) << row.dump();
        if (failed)
            continue;
        EXPECT_DOUBLE_EQ(row.at("measured_seconds").get<double>(),
                         row.at("params").at("BLOCK") == 128 ? 1.0e-3 : 0.8e-3);
        ranks.insert(row.at("predicted_rank").get<std::size_t>());
        const json& time = row.at("predicted_time");
        ASSERT_TRUE(time.is_object()) << row.dump();
        EXPECT_GT(time.at("seconds").get<double>(), 0);
        // The prediction is its largest term, and that term is the one it names.
        double largest = 0;
        for (const auto& [name, seconds] : time.at("terms").items())
            largest = std::max(largest, seconds.get<double>());
        EXPECT_DOUBLE_EQ(time.at("terms").at(time.at("bound").get<std::string>()).get<double>(), largest);
    }
    EXPECT_EQ(ranks, (std::set<std::size_t>{1, 2}));
    // measured / predicted by each parameter's value: BLOCK's two values, one point each,
    // as the points file has them; WIDTH ran at one value only and is left out.
    const json out = json::parse(r.out);
    const json& by = out.at("measured_over_predicted_by_parameter");
    EXPECT_FALSE(by.contains("WIDTH")) << by.dump();
    ASSERT_TRUE(by.contains("BLOCK")) << by.dump();
    for (const json& row : rows) {
        if (row.at("measured_seconds").is_null())
            continue;
        const json& scale = by.at("BLOCK").at(row.at("params").at("BLOCK").dump());
        EXPECT_EQ(scale.at("points").get<std::size_t>(), 1u);
        EXPECT_DOUBLE_EQ(scale.at("median").get<double>(), row.at("measured_seconds").get<double>() /
                                                               row.at("predicted_time").at("seconds").get<double>());
    }
}

TEST_F(CheckModelCli, PointsOfAKernelWithABarrierSayWhatBoundsEachOfItsPhases)
{
    // The fill waits on global memory, the loop after the barrier on the tile: two phases.
    const auto spec = (test::data_dir() / "check_model" / "staged_blocks.toml").string();
    const auto path = write("staged.json", kt_cache({"BLOCK"}, {{{64}, 1.0}, {{256}, 0.9}}));
    const auto points_path = dir.path() / "points.json";
    const auto r = run(fmt::format("{} --measured {} --arch sm_86 --json --points {}", spec, path.string(),
                                   points_path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Grouped by what bounds each phase, not by "phases": the points' bounds, one group each.
    std::map<std::string, std::size_t> grouped;
    const json out = json::parse(r.out); // named: items() of a temporary would dangle
    for (const auto& [bound, scale] : out.at("measured_over_predicted_by_bound").items())
        grouped[bound] = scale.at("points").get<std::size_t>();
    std::ifstream in(points_path);
    const json rows = json::parse(in);
    ASSERT_EQ(rows.size(), 2u);
    std::map<std::string, std::size_t> expected;
    for (const json& row : rows) {
        const json& time = row.at("predicted_time");
        if (time.is_object() && time.contains("phase_bounds"))
            ++expected[fmt::format("phases ({})", fmt::join(time.at("phase_bounds").get<std::vector<std::string>>(), ", "))];
    }
    EXPECT_EQ(grouped, expected);
    // And by resident warps per scheduler, from each point's resident warps (4 schedulers).
    std::map<std::string, std::size_t> by_warps, expected_by_warps;
    for (const auto& [group, scale] : out.at("measured_over_predicted_by_warps_per_scheduler").items())
        by_warps[group] = scale.at("points").get<std::size_t>();
    for (const json& row : rows) {
        const int per_scheduler = (row.at("resident_warps").get<int>() + 3) / 4;
        ++expected_by_warps[per_scheduler <= 2 ? "1-2" : per_scheduler <= 4 ? "3-4" : per_scheduler <= 8 ? "5-8" : "9+"];
    }
    EXPECT_EQ(by_warps, expected_by_warps);
    for (const json& row : rows) {
        const json& time = row.at("predicted_time");
        ASSERT_TRUE(time.is_object()) << row.dump();
        ASSERT_TRUE(time.contains("phase_bounds")) << time.dump();
        EXPECT_EQ(time.at("phase_bounds").size(), 2u) << time.dump();
        // The phases' bounds added can be no less than any one term of the whole run.
        const double phases = time.at("terms").at("phases").get<double>();
        for (const auto& [name, seconds] : time.at("terms").items())
            if (name != "dram")
                EXPECT_LE(seconds.get<double>(), phases) << name;
        EXPECT_GE(time.at("seconds").get<double>(), phases);
    }
}

// Without --device the prediction is for the device the file names, where the table has it
// and it is of --arch; else the arch's default.
TEST_F(CheckModelCli, WithoutDeviceThePredictionIsForTheMeasuredDevice)
{
    json cache = kt_cache(copy_names, copy_entries({1, 2, 3, 4, 5, 6}));
    std::string err;
    const auto device_for = [&](const std::string& reported, const std::string& extra = "") {
        cache["device_name"] = reported;
        const auto path = write("copy.json", cache);
        const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json -q {}", copy_spec(), path.string(), extra));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        err = r.err;
        const json out = json::parse(r.out);
        return out.at("device").get<std::string>() + " from " + out.at("device_source").get<std::string>();
    };
    EXPECT_EQ(device_for("NVIDIA A100-PCIE-40GB"), "a100-pcie-40gb from measured file");
    EXPECT_EQ(err, "");
    // sm_86: not the device of --arch; said in one line.
    EXPECT_EQ(device_for("NVIDIA GeForce RTX 3090"), "a100-sxm-80gb from arch default");
    EXPECT_THAT(err, HasSubstr("the measured file's device NVIDIA GeForce RTX 3090 is rtx-3090, sm_86, not sm_80; the "
                               "prediction is for a100-sxm-80gb, sm_80's default"));
    EXPECT_EQ(lines(err), 1u) << err;
    EXPECT_EQ(device_for("NVIDIA A30"), "a100-sxm-80gb from arch default");
    EXPECT_THAT(err, HasSubstr("the device table has no 'NVIDIA A30', the measured file's device; the prediction is for "
                               "a100-sxm-80gb"));
    EXPECT_EQ(device_for("NVIDIA A100-PCIE-40GB", "--device a100-sxm-80gb"), "a100-sxm-80gb from --device");
    EXPECT_EQ(err, "");
}

// --clock: the GPU held another clock than the table's boost while it was measured (a
// profiler locks the base clock). The SMs' terms take the clock's ratio; DRAM's bytes do not.
TEST_F(CheckModelCli, AClockPredictsTheSmsWorkAtThatClockAndTheMemoryAsBefore)
{
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    const auto path = write("heavy.json", kt_cache({"BLOCK", "WIDTH"}, {{{128, 8}, 1.0}, {{1024, 8}, 0.8}}));
    const auto predicted_at = [&](const std::string& clock, json& out) {
        const auto points_path = dir.path() / "points.json";
        const auto r = run(fmt::format("{} --measured {} --arch sm_80 --device a100-sxm-80gb --json --points {} {}", spec,
                                       path.string(), points_path.string(), clock));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        out = r.exit_code == 0 ? json::parse(r.out) : json::object();
        std::ifstream in(points_path);
        return r.exit_code == 0 ? json::parse(in) : json::array();
    };
    json boost, half;
    const json at_boost = predicted_at("", boost), at_half = predicted_at("--clock 705", half);
    EXPECT_EQ(boost.value("clock_mhz", 0.0), 1410.0); // the device's boost
    EXPECT_EQ(half.value("clock_mhz", 0.0), 705.0);
    ASSERT_EQ(at_boost.size(), 2u);
    ASSERT_EQ(at_half.size(), 2u);
    for (std::size_t p = 0; p < at_boost.size(); ++p) {
        ASSERT_EQ(at_boost[p].at("params"), at_half[p].at("params"));
        const json& fast = at_boost[p].at("predicted_time").at("terms");
        const json& slow = at_half[p].at("predicted_time").at("terms");
        for (const auto& [name, seconds] : fast.items()) {
            const double expected = name == "dram" ? seconds.get<double>() : 2 * seconds.get<double>();
            EXPECT_NEAR(slow.at(name).get<double>(), expected, 1e-9 * expected) << name;
        }
    }
    // Half the clock: the SMs' time doubles; measured / predicted cannot rise.
    EXPECT_LE(half.at("measured_over_predicted").at("median").get<double>(),
              boost.at("measured_over_predicted").at("median").get<double>());
}

// Kernel Tuner's NVML observer records the clock each configuration ran at (core_freq; an
// energy-tuning space sets it, nvml_gr_clock): each is predicted at its own, the JSON's
// clock_mhz is their median.
TEST_F(CheckModelCli, EachConfigurationIsPredictedAtTheClockItRanAt)
{
    const auto spec = (test::data_dir() / "check_model" / "heavy_blocks.toml").string();
    json cache = kt_cache({"BLOCK", "WIDTH"}, {{{128, 8}, 1.0}, {{1024, 8}, 0.8}});
    const auto plain = write("plain.json", cache);
    cache["cache"]["128,8"]["core_freq"] = 705.0;   // held at half the A100's boost
    cache["cache"]["1024,8"]["core_freq"] = 1410.0; // at its boost
    const auto clocked = write("clocked.json", cache);
    const auto predicted = [&](const std::filesystem::path& file, json& out) {
        const auto points_path = dir.path() / "points.json";
        const auto r = run(fmt::format("{} --measured {} --arch sm_80 --device a100-sxm-80gb --json --points {}", spec,
                                       file.string(), points_path.string()));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        out = r.exit_code == 0 ? json::parse(r.out) : json::object();
        std::ifstream in(points_path);
        return r.exit_code == 0 ? json::parse(in) : json::array();
    };
    json at_boost, at_own;
    const json boost_points = predicted(plain, at_boost), own_points = predicted(clocked, at_own);
    EXPECT_FALSE(at_boost.value("clock_per_configuration", true));
    EXPECT_TRUE(at_own.value("clock_per_configuration", false));
    EXPECT_EQ(at_own.value("clock_mhz", 0.0), (705.0 + 1410.0) / 2);
    EXPECT_EQ(at_own.value("clock_source", std::string()), "measured file");
    ASSERT_EQ(boost_points.size(), 2u);
    ASSERT_EQ(own_points.size(), 2u);
    for (std::size_t p = 0; p < 2; ++p) {
        ASSERT_EQ(boost_points[p].at("params"), own_points[p].at("params"));
        const bool halved = boost_points[p].at("params").at("BLOCK") == 128;
        const json& fast = boost_points[p].at("predicted_time").at("terms");
        const json& own = own_points[p].at("predicted_time").at("terms");
        for (const auto& [name, seconds] : fast.items()) {
            const double expected = halved && name != "dram" ? 2 * seconds.get<double>() : seconds.get<double>();
            EXPECT_NEAR(own.at(name).get<double>(), expected, 1e-9 * expected) << name << " BLOCK " << (halved ? 128 : 1024);
        }
    }
}

// autotune's own results record the clock each measurement held: without --clock the
// prediction is at their median, with it at the one given.
TEST_F(CheckModelCli, AResultsFilesRecordedClockIsTheOneThePredictionIsAt)
{
    json ours = json::parse(test::read_file(test::source_dir() / "results" / "sm_90" / "copy.json"));
    ours["measured"] = true;
    ours["device"] = {{"name", "NVIDIA H100 80GB HBM3"}};
    std::size_t k = 0;
    for (auto& v : ours["variants"])
        if (v.at("status") == "ok") {
            const double clock = k == 0 ? 990.0 : k == 1 ? 1980.0 : 1755.0; // one low, one high, the rest 1755
            v["measurement"] = {{"time_seconds", {{"median", 2e-5 * (1 + 0.1 * static_cast<double>(k++))}, {"relative_spread", 0.01}}},
                                {"verified", true}, {"sm_clock_mhz", clock}};
        }
    ASSERT_GE(k, 3u);
    const auto path = write("ours.json", ours);
    const auto clock_of = [&](const std::string& options) {
        const auto r = run(fmt::format("{} --measured {} --arch sm_90 --json {}", copy_spec(), path.string(), options));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        const json out = r.exit_code == 0 ? json::parse(r.out) : json::object();
        return std::pair{out.value("clock_mhz", 0.0), out.value("clock_source", std::string())};
    };
    EXPECT_EQ(clock_of(""), std::pair(1755.0, std::string("measured file")));
    EXPECT_EQ(clock_of("--clock 1200"), std::pair(1200.0, std::string("--clock")));
    // A Kernel Tuner cache records no clock: the device's boost.
    const auto cache = write("copy.json", kt_cache(copy_names, copy_entries({1, 2, 3, 4, 5, 6})));
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", copy_spec(), cache.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out).value("clock_source", std::string()), "device boost");
}

// A results file of several problems (a run that tuned several sizes) is checked one problem
// at a time: --problem names it, as for the spec.
TEST_F(CheckModelCli, AResultsFileOfSeveralProblemsIsReadForTheProblemNamed)
{
    json large = json::parse(test::read_file(test::source_dir() / "results" / "sm_90" / "copy.json"));
    large["measured"] = true;
    std::size_t ok = 0;
    for (auto& v : large["variants"])
        if (v.at("status") == "ok")
            v["measurement"] = {{"time_seconds", {{"median", 1e-3 * static_cast<double>(++ok)}, {"relative_spread", 0.01}}},
                                {"verified", true}, {"sm_clock_mhz", 1755.0}};
    ASSERT_GT(ok, 3u);
    json small = large; // the same variants at N = 2^20, of which only three were measured
    small["problem"] = {{"N", 1048576}};
    std::size_t measured = 0;
    for (auto& v : small["variants"])
        if (v.at("status") == "ok" && ++measured > 3)
            v["measurement"] = nullptr;
    const auto path = write("two.json", combine_problem_views({large, small}));
    const auto points = [&](const std::string& problem) {
        const auto r = run(fmt::format("{} --measured {} --arch sm_90 --json --problem {}", copy_spec(), path.string(), problem));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r.exit_code == 0 ? json::parse(r.out).at("points").get<std::size_t>() : 0;
    };
    EXPECT_EQ(points("N=1048576"), 3u);
    EXPECT_EQ(points("N=268435456"), ok);
    const auto r = run(fmt::format("{} --measured {} --arch sm_90", copy_spec(), path.string()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr("holds 2 problems; name one with --problem (N=268435456 | N=1048576)"));
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    const auto malformed = run(fmt::format("{} --measured {} --arch sm_90 --problem N=", copy_spec(), path.string()));
    EXPECT_EQ(malformed.exit_code, 2);
    EXPECT_THAT(malformed.err, HasSubstr("--problem 'N=': 'N=' is not NAME=VALUE"));
    EXPECT_EQ(lines(malformed.err), 1u) << malformed.err;
}

// A T4 document (Kernel Tuner's, or export t4's) is measured as the cache it came from: the
// same points and scores, and the device its metadata names.
TEST_F(CheckModelCli, AT4DocumentIsMeasuredAsTheCacheItHolds)
{
    json cache = kt_cache(copy_names, copy_entries({6, 5, 4, 3, 2, 1}));
    cache["device_name"] = "NVIDIA A100-PCIE-40GB";
    const auto cache_path = write("copy.json", cache);
    const auto t4_path = write("copy.t4.json", t4_document(import_kt_cache(cache_path), cache_path.string()));
    const auto score = [&](const std::filesystem::path& measured) {
        const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", copy_spec(), measured.string()));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r.exit_code == 0 ? json::parse(r.out) : json::object();
    };
    const json from_cache = score(cache_path), from_t4 = score(t4_path);
    ASSERT_FALSE(from_t4.empty());
    EXPECT_EQ(from_t4.at("measured_format"), "T4");
    EXPECT_EQ(from_t4.at("device"), "a100-pcie-40gb");
    for (const char* key : {"points", "measured_failures", "spearman", "top1_fraction", "best_in_top_5pct"})
        EXPECT_EQ(from_t4.at(key), from_cache.at(key)) << key;
}

// A T4 document with Nsight Compute's counters (as KTT writes them) has its DRAM sectors set
// beside the bytes the model's dram term charges: here three times each configuration's,
// so the ratio's median is 3; a file without the counters gives null, and no text line.
TEST_F(CheckModelCli, DramBytesCountedAreSetBesideTheBytesTheModelCharges)
{
    json cache = kt_cache(copy_names, copy_entries({6, 5, 4, 3, 2, 1}));
    cache["device_name"] = "NVIDIA A100-PCIE-40GB";
    const auto cache_path = write("copy.json", cache);
    // The model's bytes of each configuration, from the same pipeline driven from C++.
    const KernelSpec spec = load_spec(copy_spec());
    const Problem problem = resolve_problem(spec, {});
    TuneSetup setup = test::predicting_setup(spec, "sm_80", dir.path() / "cache");
    setup.roofline_device = &find_device_spec("a100-pcie-40gb");
    const MeasuredJoin join = join_measured(spec, problem, read_measured_file(cache_path), cache_path.string());
    const std::vector<CheckedPoint> predicted = checked_points(join, predict_problem(setup, problem, join.variants));
    std::map<std::string, double> bytes; // by parameters as the T4 records them
    std::size_t charged = 0;
    for (std::size_t p = 0; p < predicted.size(); ++p)
        if (predicted[p].measured && predicted[p].predicted_dram_bytes && *predicted[p].predicted_dram_bytes > 0) {
            bytes[join.points[p].params.dump()] = *predicted[p].predicted_dram_bytes;
            charged += predicted[p].predicted_failure.empty() ? 1 : 0; // a predicted failure's count is not scored
        }
    ASSERT_GT(charged, 2u);
    json t4 = t4_document(import_kt_cache(cache_path), cache_path.string());
    for (json& record : t4.at("results")) {
        const auto it = bytes.find(record.at("configuration").dump());
        if (it == bytes.end())
            continue;
        const double sectors = 3 * it->second / 32;
        record["measurements"].push_back({{"name", "dram__sectors_read.sum"}, {"unit", ""}, {"value", sectors / 3}});
        record["measurements"].push_back({{"name", "dram__sectors_write.sum"}, {"unit", ""}, {"value", 2 * sectors / 3}});
    }
    const auto t4_path = write("copy.t4.json", t4);
    const auto r = run(fmt::format("{} --measured {} --arch sm_80 --json", copy_spec(), t4_path.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    const json& scale = out.at("dram_bytes_counted_over_predicted");
    ASSERT_TRUE(scale.is_object()) << r.out;
    EXPECT_EQ(scale.at("points"), charged);
    EXPECT_NEAR(scale.at("median").get<double>(), 3.0, 1e-9);
    EXPECT_NEAR(scale.at("lower_quartile").get<double>(), 3.0, 1e-9);
    const auto text = run(fmt::format("{} --measured {} --arch sm_80", copy_spec(), t4_path.string()));
    EXPECT_THAT(text.out, HasSubstr(fmt::format("counted / predicted DRAM bytes: median 3.00, quartiles 3.00-3.00 ({} points",
                                                charged)));
    const auto plain = run(fmt::format("{} --measured {} --arch sm_80 --json", copy_spec(), cache_path.string()));
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_TRUE(json::parse(plain.out).at("dram_bytes_counted_over_predicted").is_null());
}

TEST_F(CheckModelCli, ASeededSampleIsTheSameEveryRun)
{
    const auto path = write("copy.json", kt_cache(copy_names, copy_entries({1, 2, 3, 4, 5, 6})));
    const auto args = fmt::format("{} --measured {} --arch sm_80 --sample 4 --seed 9 --json", copy_spec(), path.string());
    const auto first = run(args), second = run(args);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    const json a = json::parse(first.out);
    EXPECT_EQ(a.at("points").get<int>() + a.at("outside_space").get<int>(), 4);
    EXPECT_EQ(first.out, second.out);
}

TEST_F(CheckModelCli, BadInputIsOneLineAndExitTwo)
{
    const auto good = write("copy.json", kt_cache(copy_names, copy_entries({1, 2, 3, 4, 5, 6})));
    const auto other = write("pnpoly.json", kt_cache({"block_size_x", "tile_size", "between_method", "use_method"},
                                                     {{{256, 1, 0, 0}, 1.0}}));
    json hot = kt_cache(copy_names, copy_entries({1, 2, 3, 4, 5, 6}));
    hot["cache"].begin().value()["core_freq"] = 1e6; // no GPU's clock
    const auto hot_path = write("hot.json", hot);
    const std::vector<std::pair<std::string, std::string>> cases{
        {fmt::format("{} --measured {} --arch sm_80", copy_spec(), (dir.path() / "absent.json").string()), "not found"},
        {fmt::format("{} --measured {} --arch sm_80", copy_spec(), other.string()), "has a parameter BLOCK that"},
        {fmt::format("{} --measured {} --arch sm_80 --sample 0", copy_spec(), good.string()), "--sample 0"},
        {fmt::format("{} --measured {} --arch sm_80 --device no-such-gpu", copy_spec(), good.string()),
         "unknown device 'no-such-gpu'"},
        {fmt::format("{} --arch sm_80", copy_spec()), "needs --measured"},
        {fmt::format("{} --measured {} --arch sm_80 --compile-option=ftz=true", copy_spec(), good.string()),
         "--compile-option 'ftz=true': a compiler option starts with '-'"},
        {fmt::format("{} --measured {} --arch sm_80 --clock 0", copy_spec(), good.string()), "--clock 0"},
        {fmt::format("{} --measured {} --arch sm_87 --clock 900", copy_spec(), good.string()),
         "--clock 900: the device table has no device of sm_87"},
        {fmt::format("{} --measured {} --arch sm_80", copy_spec(), hot_path.string()),
         "records a clock of 1000000.0 MHz in core_freq"},
    };
    for (const auto& [arguments, expected] : cases) {
        const auto r = run(arguments);
        EXPECT_EQ(r.exit_code, 2) << arguments;
        EXPECT_THAT(r.err, HasSubstr(expected)) << arguments;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}
