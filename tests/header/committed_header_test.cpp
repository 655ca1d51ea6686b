// The tuned header of the built-in kernels is committed (results/autotune_tuned.hpp); it
// must be what `autotune header` makes of the committed results, byte for byte.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

TEST(CommittedHeader, IsWhatTheCommittedResultsGenerate)
{
    // The header names the command that made it on its second line:
    //   "//   autotune header results/sm_80/copy.json ... -o <this file>"
    const std::string committed = test::read_file(test::source_dir() / "results" / "autotune_tuned.hpp");
    const std::string marker = "//   autotune header ";
    const auto at = committed.find(marker);
    ASSERT_NE(at, std::string::npos) << "results/autotune_tuned.hpp does not say how it was made";
    const auto end = committed.find(" -o <this file>", at);
    ASSERT_NE(end, std::string::npos);
    const std::string inputs = committed.substr(at + marker.size(), end - at - marker.size());
    EXPECT_NE(inputs.find("results/sm_90/gemm.json"), std::string::npos) << inputs;

    test::TempDir dir;
    const auto r = test::run_command(fmt::format("cd {} && {} header {} -o {}", test::source_dir().string(),
                                                 test::autotune_binary().string(), inputs,
                                                 (dir.path() / "tuned.hpp").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::read_file(dir.path() / "tuned.hpp"), committed)
        << "results/autotune_tuned.hpp is stale: regenerate it with the command in its first lines";
    EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
}

} // namespace
