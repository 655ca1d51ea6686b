// The tuned header of the built-in kernels is committed (results/autotune_tuned.hpp); it
// must be what `autotune header` makes of every committed results file, byte for byte. The
// inputs come from results/ itself, not from the header: a header made of a few kernels
// (as the nightly once regenerated it) fails here.
#include "support/test_support.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>

using namespace autotune;
namespace fs = std::filesystem;

namespace {

// The committed architectures: results/sm_*/ (sm_90, sm_90a, sm_100f), sorted.
std::vector<std::string> committed_archs()
{
    static const std::regex arch_dir("sm_[0-9]+[a-z]?");
    std::vector<std::string> archs;
    for (const auto& dir : fs::directory_iterator(test::source_dir() / "results"))
        if (dir.is_directory() && std::regex_match(dir.path().filename().string(), arch_dir))
            archs.push_back(dir.path().filename().string());
    std::sort(archs.begin(), archs.end());
    return archs;
}

// Every results/sm_*/<kernel>.json, relative to the checkout, in byte order: the order the
// nightly's `printf '%s\n' results/sm_*/*.json | LC_ALL=C sort` gives.
std::vector<std::string> committed_results_files()
{
    std::vector<std::string> files;
    for (const auto& arch : committed_archs())
        for (const auto& file : fs::directory_iterator(test::source_dir() / "results" / arch))
            if (file.is_regular_file() && file.path().extension() == ".json")
                files.push_back(fmt::format("results/{}/{}", arch, file.path().filename().string()));
    std::sort(files.begin(), files.end());
    return files;
}

// The inputs the header says it was made of, on its second line:
//   "//   autotune header results/sm_80/copy.json ... -o <this file>"
std::string inputs_named_in(const std::string& header)
{
    const std::string marker = "//   autotune header ";
    const auto at = header.find(marker);
    const auto end = header.find(" -o <this file>", at);
    if (at == std::string::npos || end == std::string::npos)
        return "";
    return header.substr(at + marker.size(), end - at - marker.size());
}

std::vector<std::string> builtin_kernels()
{
    const auto r = test::run_command(test::autotune_binary().string() + " list --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> names;
    for (const auto& kernel : nlohmann::json::parse(r.out))
        names.push_back(kernel.at("name").get<std::string>());
    return names;
}

TEST(CommittedHeader, EveryArchitectureHasResultsForEveryBuiltInKernel)
{
    const auto files = committed_results_files();
    const auto archs = committed_archs();
    ASSERT_FALSE(archs.empty()) << "no results/sm_*/ committed";
    const auto kernels = builtin_kernels();
    ASSERT_FALSE(kernels.empty());
    for (const auto& arch : archs)
        for (const auto& kernel : kernels)
            EXPECT_NE(std::find(files.begin(), files.end(), fmt::format("results/{}/{}.json", arch, kernel)), files.end())
                << "results/" << arch << "/" << kernel << ".json is not committed";
}

TEST(CommittedHeader, ListsEveryCommittedResultsFile)
{
    const std::string committed = test::read_file(test::source_dir() / "results" / "autotune_tuned.hpp");
    const std::string inputs = inputs_named_in(committed);
    ASSERT_FALSE(inputs.empty()) << "results/autotune_tuned.hpp does not say how it was made";
    EXPECT_EQ(inputs, fmt::format("{}", fmt::join(committed_results_files(), " ")))
        << "results/autotune_tuned.hpp is not made of every results/sm_*/*.json: regenerate it with\n"
           "  build/autotune header $(printf '%s\\n' results/sm_*/*.json | LC_ALL=C sort) -o results/autotune_tuned.hpp";
}

TEST(CommittedHeader, IsWhatTheCommittedResultsGenerate)
{
    const std::string committed = test::read_file(test::source_dir() / "results" / "autotune_tuned.hpp");
    const auto files = committed_results_files();
    ASSERT_FALSE(files.empty());

    test::TempDir dir;
    const auto r = test::run_command(fmt::format("cd {} && {} header {} -o {}", test::source_dir().string(),
                                                 test::autotune_binary().string(), fmt::join(files, " "),
                                                 (dir.path() / "tuned.hpp").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::read_file(dir.path() / "tuned.hpp"), committed)
        << "results/autotune_tuned.hpp is stale: regenerate it with\n"
           "  build/autotune header $(printf '%s\\n' results/sm_*/*.json | LC_ALL=C sort) -o results/autotune_tuned.hpp";
    EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
}

} // namespace
