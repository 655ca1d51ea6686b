// KTT's T4 files read as they are: KTT 2.2 writes every configuration value as a string,
// its times with an empty unit in metadata.timeunit, the device as metadata.device and a
// failed configuration's duration as a number; its converted files name the objective
// "TotalDuration" with the unit beside each value. Nsight Compute's count of warp
// instructions (smsp__inst_executed.sum), where KTT recorded it, comes along. The records below are laid out as KTT's
// CoulombSum3d example files are (GitHub HiPerCoRe/KTT, Examples/CoulombSum3d), the values
// made up.
#include "emit/kt_cache_import.hpp"
#include "emit/measured_file.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace autotune;
using json = nlohmann::ordered_json;
using ::testing::HasSubstr;

namespace {

json ktt_record(const std::string& x, const std::string& z, double time, const std::string& invalidity)
{
    return {{"configuration", {{"WORK_GROUP_SIZE_X", x}, {"Z_ITERATIONS", z}, {"USE_SOA", "0"}}},
            {"correctness", invalidity == "correct" ? 1 : 0},
            {"invalidity", invalidity},
            {"measurements",
             {{{"name", "time"}, {"unit", ""}, {"value", time}},
              {{"name", "dram__sectors_read.sum"}, {"type", "Double"}, {"unit", ""}, {"value", 24.0}},
              {{"name", "smsp__inst_executed.sum"}, {"type", "Double"}, {"unit", ""}, {"value", time * 1000}}}},
            {"objectives", {"time"}},
            {"times", {{"compilation_time", 14958.3}, {"runtimes", {time}}}},
            {"timestamp", "2026-03-05 08:58:2 UTC"}};
}

json ktt_document()
{
    return {{"metadata",
             {{"autotuner", "KTT"},
              {"autotuner_version", "2.2.0"},
              {"compute_api", "CUDA"},
              {"device", "NVIDIA RTX 500 Ada Generation Laptop GPU"},
              {"timeunit", "microseconds"}}},
            {"results",
             {ktt_record("16", "1", 4164.159, "correct"), ktt_record("16", "2", 2065.599, "correct"),
              ktt_record("32", "1", 17.5, "runtime")}},
            {"schema_version", "1.0.0"}};
}

std::filesystem::path write(const test::TempDir& dir, const std::string& name, const json& document)
{
    const auto file = dir.path() / name;
    std::ofstream(file) << document.dump(2);
    return file;
}

// The measured configurations by their parameters as the file gives them.
std::map<std::string, MeasuredConfiguration> by_params(const MeasuredFile& file)
{
    std::map<std::string, MeasuredConfiguration> out;
    for (const auto& c : file.configurations)
        out[c.params.dump()] = c;
    return out;
}

TEST(KttT4, ValuesAreNumbersTimesAreInTheDocumentsUnitAndAFailedDurationIsAFailure)
{
    json document = ktt_document();
    json compile_failure = ktt_record("64", "1", 0, "compile");
    compile_failure.erase("measurements"); // a failure need not say how long it took
    document["results"].push_back(compile_failure);
    const test::TempDir dir;
    const MeasuredFile file = read_measured_file(write(dir, "coulomb.t4.json", document));
    EXPECT_EQ(file.format, "KTT's T4");
    EXPECT_EQ(file.device, "NVIDIA RTX 500 Ada Generation Laptop GPU");
    EXPECT_FALSE(file.kernel_tuner); // KTT's compiles add nothing the file does not say
    const auto configurations = by_params(file);
    ASSERT_EQ(configurations.size(), 4u);
    const json fast{{"WORK_GROUP_SIZE_X", 16}, {"Z_ITERATIONS", 2}, {"USE_SOA", 0}};
    ASSERT_TRUE(configurations.contains(fast.dump())) << "the string \"16\" is read as the number 16";
    const auto& measured = configurations.at(fast.dump());
    ASSERT_TRUE(measured.seconds.has_value());
    EXPECT_NEAR(*measured.seconds, 2065.599e-6, 1e-12); // microseconds, as metadata.timeunit says
    ASSERT_TRUE(measured.counted_instructions.has_value()) << "Nsight Compute's count, as KTT records it";
    EXPECT_DOUBLE_EQ(*measured.counted_instructions, 2065599.0);
    EXPECT_FALSE(measured.counted_dram_bytes) << "sectors read without sectors written are not the traffic";
    const json failed{{"WORK_GROUP_SIZE_X", 32}, {"Z_ITERATIONS", 1}, {"USE_SOA", 0}};
    ASSERT_TRUE(configurations.contains(failed.dump()));
    EXPECT_FALSE(configurations.at(failed.dump()).seconds.has_value()) << "17.5 is a failed run's duration";
    EXPECT_FALSE(configurations.at(failed.dump()).failure.empty());
    EXPECT_FALSE(configurations.at(failed.dump()).counted_instructions) << "a failed run's count is of no time";
    const json not_compiled{{"WORK_GROUP_SIZE_X", 64}, {"Z_ITERATIONS", 1}, {"USE_SOA", 0}};
    ASSERT_TRUE(configurations.contains(not_compiled.dump()));
    EXPECT_EQ(configurations.at(not_compiled.dump()).status, "compile_error");
}

// DRAM traffic as Nsight Compute counts it, where KTT recorded both sector counts: 32 bytes
// a sector, read and written.
TEST(KttT4, DramSectorsReadAndWrittenAreCountedBytes)
{
    json document = ktt_document();
    for (json& record : document["results"])
        record["measurements"].push_back({{"name", "dram__sectors_write.sum"}, {"type", "Double"}, {"unit", ""}, {"value", 8.0}});
    const test::TempDir dir;
    const auto configurations = by_params(read_measured_file(write(dir, "coulomb.t4.json", document)));
    const json fast{{"WORK_GROUP_SIZE_X", 16}, {"Z_ITERATIONS", 2}, {"USE_SOA", 0}};
    ASSERT_TRUE(configurations.at(fast.dump()).counted_dram_bytes.has_value());
    EXPECT_DOUBLE_EQ(*configurations.at(fast.dump()).counted_dram_bytes, 32 * (24.0 + 8.0));
    const json failed{{"WORK_GROUP_SIZE_X", 32}, {"Z_ITERATIONS", 1}, {"USE_SOA", 0}};
    EXPECT_FALSE(configurations.at(failed.dump()).counted_dram_bytes) << "a failed run's count is of no time";
}

TEST(KttT4, AConvertedFilesObjectiveAndItsUnitAreRead)
{
    json document{{"schema_version", "1.0.0"}, {"results", json::array()}};
    for (const auto& [x, microseconds] : {std::pair{16, 3037.408}, std::pair{32, 1500.0}}) {
        document["results"].push_back(
            {{"configuration", {{"WORK_GROUP_SIZE_X", x}}},
             {"objectives", {"TotalDuration"}},
             {"times", {{"runtimes", {microseconds}}}},
             {"invalidity", "correct"},
             {"correctness", 1},
             {"measurements",
              {{{"name", "dram__throughput.avg.pct_of_peak_sustained_elapsed"}, {"value", 6.5}, {"unit", ""}},
               {{"name", "TotalDuration"}, {"value", microseconds}, {"unit", "Microseconds"}}}}});
    }
    const test::TempDir dir;
    const auto path = write(dir, "coulomb_2080.json", document);
    const auto configurations = by_params(read_measured_file(path));
    ASSERT_EQ(configurations.size(), 2u);
    EXPECT_NEAR(*configurations.at(json{{"WORK_GROUP_SIZE_X", 16}}.dump()).seconds, 3037.408e-6, 1e-12);
    // The import (replay, --prior) reads it the same way: times in seconds, the faster the winner.
    const json imported = import_kt_cache(path);
    EXPECT_EQ(imported.at("problems").at(0).at("winner").at("params"), (json{{"WORK_GROUP_SIZE_X", 32}}));
}

TEST(KttT4, AnUnknownTimeUnitOrAMissingObjectiveIsNamed)
{
    const test::TempDir dir;
    json furlongs = ktt_document();
    furlongs["metadata"]["timeunit"] = "fortnights";
    EXPECT_THAT([&] { (void)read_measured_file(write(dir, "a.json", furlongs)); },
                testing::ThrowsMessage<std::invalid_argument>(
                    testing::AllOf(HasSubstr("a.json"), HasSubstr("results[0]"), HasSubstr("\"fortnights\""))));
    json no_objective = ktt_document();
    no_objective["results"][1]["objectives"] = {"energy"};
    EXPECT_THAT([&] { (void)read_measured_file(write(dir, "b.json", no_objective)); },
                testing::ThrowsMessage<std::invalid_argument>(
                    testing::AllOf(HasSubstr("b.json"), HasSubstr("results[1]"), HasSubstr("\"energy\""))));
}

// Found by the kt_cache fuzz target: an invalidity or a measurement's name that is not a
// string threw nlohmann's type_error out of the reader. Neither says anything: the record
// is read by its measurements, as one without them.
TEST(KttT4, AnInvalidityOrANameThatIsNotAStringSaysNothing)
{
    const test::TempDir dir;
    json document = ktt_document();
    document["results"][0]["invalidity"] = json::array({1, 2});
    document["results"][1]["measurements"].push_back({{"name", 7}, {"value", 1.0}});
    const MeasuredFile file = read_measured_file(write(dir, "odd.json", document));
    EXPECT_EQ(file.configurations.size(), document["results"].size());
    EXPECT_TRUE(file.configurations.front().seconds.has_value()) << "timed, and no string says it failed";
}

} // namespace
