// The tuned header of the built-in kernels is committed (results/autotune_tuned.hpp); it
// must be what `autotune header` makes of the committed results, byte for byte.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

TEST(CommittedHeader, IsWhatTheCommittedResultsGenerate)
{
    test::TempDir dir;
    const auto r = test::run_command(fmt::format(
        "cd {} && {} header results/sm_80/copy.json results/sm_80/gemm.json results/sm_90/copy.json "
        "results/sm_90/gemm.json -o {}",
        test::source_dir().string(), test::autotune_binary().string(), (dir.path() / "tuned.hpp").string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::read_file(dir.path() / "tuned.hpp"), test::read_file(test::source_dir() / "results" / "autotune_tuned.hpp"))
        << "results/autotune_tuned.hpp is stale: regenerate it with the command in its first lines";
    EXPECT_EQ(r.out.find("mismatch"), std::string::npos) << r.out;
}

} // namespace
