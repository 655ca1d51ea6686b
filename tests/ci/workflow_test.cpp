// The GitHub workflows, checked where there is no GPU and no GitHub (tests/ci/check_workflow.py):
// the nightly tunes every built-in kernel (its steps run here, compile-only), writes its summary
// before a regression fails it, and one job after the matrix opens or updates one pull request;
// ci.yml runs .ci/run on pushes and pull requests, cancelling superseded runs.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

TEST(Workflows, NightlyAndCiHaveTheirStructureAndTheNightlyStepsRunCompileOnly)
{
    const auto r = test::run_command(fmt::format("python3 {}/tests/ci/check_workflow.py {} {}", test::source_dir().string(),
                                                 test::source_dir().string(), test::autotune_binary().string()));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

} // namespace
