// Importing Kernel Tuner caches: the mapping of times, failures and indices on a small
// hand-written cache (plain and gzipped), bad input named, and the real RTX 3090 caches.
#include "emit/kt_cache_import.hpp"
#include "strategy/replay.hpp"

#include "support/test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

// tune_params bx ∈ {32,64,128}, tile ∈ {1,2}, order ∈ {"a","b"}: 12 combinations, the last
// parameter fastest, so index = 4·pos(bx) + 2·pos(tile) + pos(order).
const char* const small_cache = R"({
"device_name": "NVIDIA GeForce RTX 3090",
"kernel_name": "small_kernel",
"problem_size": [1024, 512],
"tune_params_keys": ["bx", "tile", "order"],
"tune_params": {"bx": [32, 64, 128], "tile": [1, 2], "order": ["a", "b"]},
"objective": "time",
"cache": {
"128,2,b": {"bx": 128, "tile": 2, "order": "b", "time": "RuntimeFailedConfig", "compile_time": 0.1},
"32,1,a": {"bx": 32, "tile": 1, "order": "a", "time": 2.5, "times": [1.0, 2.0, 3.0, 4.0, 2.5]},
"64,2,b": {"bx": 64, "tile": 2, "order": "b", "time": 0.5},
"128,1,a": {"bx": 128, "tile": 1, "order": "a", "time": "CompilationFailedConfig"},
"32,2,a": {"bx": 32, "tile": 2, "order": "a", "time": "InvalidConfig"},
"64,1,b": {"time": 1.25, "times": [1.25]},
"32,1,b": {"bx": 32, "tile": 1, "order": "b", "time": "SomethingNewConfig"}
}
})";

class KtCacheImport : public ::testing::Test {
protected:
    std::filesystem::path write(const std::string& name, const std::string& text)
    {
        const auto path = dir.path() / name;
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    std::filesystem::path gzip(const std::filesystem::path& plain)
    {
        const auto gz = plain.string() + ".gz";
        const std::string command = "gzip -c '" + plain.string() + "' > '" + gz + "'";
        EXPECT_EQ(std::system(command.c_str()), 0);
        return gz;
    }
    static const json& variant_at(const json& doc, std::int64_t index)
    {
        for (const auto& v : doc.at("variants"))
            if (v.at("index") == index)
                return v;
        throw std::runtime_error("no variant " + std::to_string(index));
    }
    void expect_error(const std::filesystem::path& path, const std::string& why)
    {
        try {
            (void)import_kt_cache(path);
            ADD_FAILURE() << "no error for " << path << " (" << why << ")";
        } catch (const KtCacheError& e) {
            EXPECT_THAT(e.what(), HasSubstr(path.string())) << why;
            EXPECT_THAT(e.what(), HasSubstr(why));
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }

    test::TempDir dir;
};

TEST_F(KtCacheImport, MapsTimesFailuresAndIndices)
{
    const json doc = import_kt_cache(write("small.json", small_cache));
    EXPECT_EQ(doc.at("kernel"), "small_kernel");
    EXPECT_EQ(doc.at("kernel_named_by_file"), false);
    EXPECT_EQ(doc.at("arch"), "sm_86");
    EXPECT_EQ(doc.at("device").at("name"), "NVIDIA GeForce RTX 3090");
    EXPECT_EQ(doc.at("measured"), true);
    EXPECT_TRUE(doc.at("spec").is_null());
    EXPECT_EQ(doc.at("problem").at("problem_size"), json::array({1024, 512}));

    // Variants in index order; InvalidConfig is no variant.
    std::vector<std::int64_t> indices;
    for (const auto& v : doc.at("variants"))
        indices.push_back(v.at("index").get<std::int64_t>());
    EXPECT_EQ(indices, (std::vector<std::int64_t>{0, 1, 5, 7, 8, 11}));

    const json& measured = variant_at(doc, 0);
    EXPECT_EQ(measured.at("params"), (json{{"bx", 32}, {"tile", 1}, {"order", "a"}}));
    EXPECT_EQ(measured.at("status"), "ok");
    const json& t = measured.at("measurement").at("time_seconds");
    EXPECT_EQ(t.at("count"), 5);
    EXPECT_DOUBLE_EQ(t.at("median").get<double>(), 0.0025); // the median of the samples, ms → s
    EXPECT_DOUBLE_EQ(t.at("min").get<double>(), 0.001);
    EXPECT_DOUBLE_EQ(t.at("max").get<double>(), 0.004);
    const auto samples = measured.at("measurement").at("samples_seconds").get<std::vector<double>>();
    ASSERT_EQ(samples.size(), 5u);
    EXPECT_DOUBLE_EQ(samples[1], 0.002);

    // Only "time": one sample.
    EXPECT_DOUBLE_EQ(variant_at(doc, 7).at("measurement").at("time_seconds").at("median").get<double>(), 0.0005);
    // Parameters from the key when the entry lacks them.
    EXPECT_EQ(variant_at(doc, 5).at("params"), (json{{"bx", 64}, {"tile", 1}, {"order", "b"}}));
    EXPECT_DOUBLE_EQ(variant_at(doc, 5).at("measurement").at("time_seconds").at("median").get<double>(), 0.00125);

    const json& compile = variant_at(doc, 8);
    EXPECT_EQ(compile.at("status"), "compile_error");
    EXPECT_EQ(compile.at("error"), "CompilationFailedConfig");
    EXPECT_TRUE(compile.at("measurement").is_null());
    EXPECT_EQ(variant_at(doc, 11).at("status"), "launch_error");
    EXPECT_EQ(variant_at(doc, 11).at("error"), "RuntimeFailedConfig");
    EXPECT_EQ(variant_at(doc, 1).at("status"), "launch_error");
    EXPECT_EQ(variant_at(doc, 1).at("error"), "SomethingNewConfig");

    // The space: 12 combinations, 6 valid, InvalidConfig and the uncached ones removed.
    const json& space = doc.at("space");
    EXPECT_EQ(space.at("combinations"), 12);
    EXPECT_EQ(space.at("valid"), 6);
    ASSERT_EQ(space.at("removed").size(), 2u);
    EXPECT_THAT(space.at("removed")[0].at("rule").get<std::string>(), HasSubstr("InvalidConfig"));
    EXPECT_EQ(space.at("removed")[0].at("removed"), 1);
    EXPECT_EQ(space.at("removed")[1].at("removed"), 5);

    // Kernel Tuner's objective, its `time`, is recorded beside the samples.
    EXPECT_DOUBLE_EQ(measured.at("measurement").at("objective_seconds").get<double>(), 0.0025);
    // The winner: the fastest by that objective.
    const json& winner = doc.at("problems").at(0).at("winner");
    EXPECT_EQ(winner.at("index"), 7);
    EXPECT_EQ(winner.at("params"), (json{{"bx", 64}, {"tile", 2}, {"order", "b"}}));
    EXPECT_EQ(winner.at("basis"), "measured");
}

// Kernel Tuner ranks by `time`, the mean of `times`; where a slow outlier makes the mean
// and the median disagree, the import and a replay follow Kernel Tuner, and the median is
// there when asked for.
TEST_F(KtCacheImport, TheWinnerAndAReplayGoByKernelTunersObjectiveNotTheMedian)
{
    const json doc = import_kt_cache(write("outlier.json", R"({
"device_name": "NVIDIA GeForce RTX 3090", "kernel_name": "k", "problem_size": [1],
"tune_params_keys": ["bx"], "tune_params": {"bx": [32, 64]}, "objective": "time",
"cache": {
"32": {"bx": 32, "time": 3.0, "times": [1.0, 1.0, 7.0]},
"64": {"bx": 64, "time": 2.0, "times": [2.0, 2.0, 2.0]}
}})"));
    EXPECT_EQ(doc.at("problems").at(0).at("winner").at("params").at("bx"), 64); // by the mean; the median says 32
    const ReplaySpace by_objective = replay_space(doc, "outlier.json");
    EXPECT_DOUBLE_EQ(*by_objective.medians[0], 0.003);
    EXPECT_DOUBLE_EQ(by_objective.optimum, 0.002);
    const ReplaySpace by_median = replay_space(doc, "outlier.json", MeasuredFigure::median);
    EXPECT_DOUBLE_EQ(*by_median.medians[0], 0.001);
    EXPECT_DOUBLE_EQ(by_median.optimum, 0.001);
}

TEST_F(KtCacheImport, GzippedAndPlainGiveTheSameDocument)
{
    const auto plain = write("cache.json", small_cache);
    const auto gz = gzip(plain);
    json a = import_kt_cache(plain), b = import_kt_cache(gz);
    a.erase("imported_from");
    b.erase("imported_from");
    EXPECT_EQ(a, b);
    // A cache gzipped in two members (appended runs) reads as their concatenation.
    const auto head = write("head.json", std::string(small_cache).substr(0, 200));
    const auto tail = write("tail.json", std::string(small_cache).substr(200));
    const auto two = dir.path() / "two.json.gz";
    ASSERT_EQ(std::system(("(gzip -c '" + head.string() + "'; gzip -c '" + tail.string() + "') > '" + two.string() + "'").c_str()), 0);
    json c = import_kt_cache(two);
    c.erase("imported_from");
    EXPECT_EQ(a, c);
}

// A cache without kernel_name is named after its file, and says so: two files of one kernel
// (pnpoly_3090.json, pnpoly_3060.json) must not be told apart by a name neither recorded.
TEST_F(KtCacheImport, AKernelNamedByItsFileSaysSo)
{
    json unnamed = json::parse(small_cache);
    unnamed.erase("kernel_name");
    const json doc = import_kt_cache(write("small_3090.json", unnamed.dump()));
    EXPECT_EQ(doc.at("kernel"), "small_3090.json");
    EXPECT_EQ(doc.at("kernel_named_by_file"), true);
}

TEST_F(KtCacheImport, IndicesFollowTheCartesianOrderNotTheFileOrder)
{
    // The same configurations, the cache written in another order: the same indices.
    std::string reordered = R"({"tune_params_keys": ["bx", "tile", "order"],
"tune_params": {"bx": [32, 64, 128], "tile": [1, 2], "order": ["a", "b"]},
"cache": {
"64,2,b": {"bx": 64, "tile": 2, "order": "b", "time": 0.5},
"32,1,a": {"bx": 32, "tile": 1, "order": "a", "time": 2.5}
}})";
    const json doc = import_kt_cache(write("reordered.json", reordered));
    ASSERT_EQ(doc.at("variants").size(), 2u);
    EXPECT_EQ(doc.at("variants")[0].at("index"), 0);
    EXPECT_EQ(doc.at("variants")[1].at("index"), 7);
    EXPECT_TRUE(doc.at("arch").is_null()); // no device named
    EXPECT_TRUE(doc.at("device").is_null());
    EXPECT_EQ(doc.at("kernel"), "reordered.json"); // no kernel_name: the file's name
}

TEST_F(KtCacheImport, AnInterruptedCacheIsClosedAndRead)
{
    std::string text = small_cache;
    text = text.substr(0, text.rfind("\"32,1,b\"")); // ends after "...1.25]},\n"
    const json doc = import_kt_cache(write("interrupted.json", text));
    EXPECT_EQ(doc.at("variants").size(), 5u);
}

TEST_F(KtCacheImport, OnlyFailuresIsNotMeasured)
{
    const json doc = import_kt_cache(write("failed.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1, 2]},
"cache": {"1": {"x": 1, "time": "CompilationFailedConfig"}, "2": {"x": 2, "time": "RuntimeFailedConfig"}}})"));
    EXPECT_EQ(doc.at("measured"), false);
    EXPECT_TRUE(doc.at("problems").at(0).at("winner").is_null());
}

TEST_F(KtCacheImport, BadInputIsOneLineNamingTheFile)
{
    expect_error(dir.path() / "missing.json", "not found");
    expect_error(dir.path(), "not found"); // a directory
    expect_error(write("text.json", "hello, world"), "not valid JSON");
    expect_error(write("array.json", "[1, 2]"), "not a JSON object");
    expect_error(write("nocache.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1]}})"), "no \"cache\"");
    expect_error(write("nokeys.json", R"({"tune_params": {"x": [1]}, "cache": {}})"), "no \"tune_params_keys\"");
    expect_error(write("novalues.json", R"({"tune_params_keys": ["x", "y"], "tune_params": {"x": [1]}, "cache": {}})"),
                 "no values for \"y\"");
    expect_error(write("notime.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1]}, "cache": {"1": {"x": 1}}})"),
                 "has no \"time\"");
    expect_error(write("stray.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1]}, "cache": {"7": {"x": 7, "time": 1}}})"),
                 "not among tune_params");
    expect_error(write("twice.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1, 2]},
"cache": {"1": {"x": 1, "time": 1}, "one": {"x": 1, "time": 2}}})"),
                 "two cache entries");
    expect_error(write("negative.json", R"({"tune_params_keys": ["x"], "tune_params": {"x": [1]}, "cache": {"1": {"x": 1, "time": -3}}})"),
                 "no valid time");
    // T4 documents: one without results, one whose record names no configuration.
    expect_error(write("empty.t4.json", R"({"schema_version": "1.0.0", "results": []})"), "a T4 document without results");
    expect_error(write("bare.t4.json", R"({"schema_version": "1.0.0", "results": [{"times": {}}]})"),
                 "results[0] has no configuration");
    std::string corrupt = "\x1f\x8b\x08";
    corrupt += std::string(40, 'z');
    expect_error(write("corrupt.json.gz", corrupt), "not a readable gzip file");
    const auto gz = gzip(write("cut.json", small_cache));
    const std::string whole = test::read_file(gz);
    expect_error(write("cut.json.gz", whole.substr(0, whole.size() / 2)), "not a readable gzip file");
}

TEST(ArchOfDeviceName, NamesTheArchitectureOfKnownDevices)
{
    EXPECT_EQ(arch_of_device_name("NVIDIA GeForce RTX 3090"), std::optional<std::string>("sm_86"));
    EXPECT_EQ(arch_of_device_name("NVIDIA A100-SXM4-80GB"), std::optional<std::string>("sm_80"));
    EXPECT_EQ(arch_of_device_name("NVIDIA A10"), std::optional<std::string>("sm_86")); // not A100
    EXPECT_EQ(arch_of_device_name("NVIDIA H100 80GB HBM3"), std::optional<std::string>("sm_90"));
    EXPECT_EQ(arch_of_device_name("NVIDIA GeForce RTX 4090"), std::optional<std::string>("sm_89"));
    EXPECT_EQ(arch_of_device_name("NVIDIA RTX A4000"), std::optional<std::string>("sm_86")); // the device table's
    EXPECT_EQ(arch_of_device_name("TITAN RTX"), std::optional<std::string>("sm_75"));
    EXPECT_EQ(arch_of_device_name("NVIDIA GeForce RTX 30900"), std::nullopt);
    EXPECT_EQ(arch_of_device_name("Radeon RX 7900"), std::nullopt);
    EXPECT_EQ(arch_of_device_name(""), std::nullopt);
}

TEST(KtCacheImportReal, TheGemmCacheImportsAllItsConfigurations)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("gemm");
    const json doc = import_kt_cache(test::kernel_tuner_cache("gemm"));
    EXPECT_EQ(doc.at("kernel"), "Xgemm");
    EXPECT_EQ(doc.at("arch"), "sm_86");
    const json& variants = doc.at("variants");
    ASSERT_EQ(variants.size(), 17956u);
    EXPECT_EQ(doc.at("space").at("combinations"), 82944); // 4·4·3⁴·4·4·2·2
    EXPECT_EQ(doc.at("space").at("valid"), 17956);
    std::int64_t previous = -1;
    double fastest = 1e9;
    std::size_t ok = 0;
    for (const auto& v : variants) {
        const auto index = v.at("index").get<std::int64_t>();
        EXPECT_GT(index, previous);
        EXPECT_LT(index, 82944);
        previous = index;
        if (v.at("status") == "ok") {
            ++ok;
            const json& t = v.at("measurement").at("time_seconds");
            EXPECT_EQ(t.at("count"), 32);
            fastest = std::min(fastest, v.at("measurement").at("objective_seconds").get<double>());
        }
    }
    EXPECT_EQ(ok, 17956u);
    // Kernel Tuner's fastest mean is 5.66 ms.
    EXPECT_GT(fastest, 0.005);
    EXPECT_LT(fastest, 0.0062);
    const json& winner = doc.at("problems").at(0).at("winner");
    for (const auto& v : variants)
        if (v.at("index") == winner.at("index")) {
            EXPECT_DOUBLE_EQ(v.at("measurement").at("objective_seconds").get<double>(), fastest);
            EXPECT_EQ(v.at("params"), winner.at("params"));
        }
    // The first configuration of the cartesian order is index 0 when it is cached.
    EXPECT_EQ(variants[0].at("params").at("MWG"), 16);
}

TEST(KtCacheImportReal, TheConvolutionCacheKeepsItsFailures)
{
    AUTOTUNE_SKIP_WITHOUT_KERNEL_TUNER_CACHE("convolution");
    const json doc = import_kt_cache(test::kernel_tuner_cache("convolution"));
    std::size_t ok = 0, compile = 0, launch = 0;
    for (const auto& v : doc.at("variants")) {
        const auto status = v.at("status").get<std::string>();
        ok += status == "ok";
        compile += status == "compile_error";
        launch += status == "launch_error";
    }
    EXPECT_EQ(ok, 5220u);
    EXPECT_EQ(compile, 1426u);
    EXPECT_EQ(launch, 122u);
    EXPECT_EQ(doc.at("space").at("combinations"), 16896);
}

} // namespace
