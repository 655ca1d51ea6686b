// The nightly GPU workflow, checked where there is no GPU: its structure, and every
// autotune command it runs, in --compile-only mode (tests/ci/check_workflow.py).
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace autotune;

namespace {

TEST(NightlyWorkflow, HasItsStructureAndItsCommandsRunCompileOnly)
{
    const auto r = test::run_command(fmt::format("python3 {}/tests/ci/check_workflow.py {} {}", test::source_dir().string(),
                                                 test::source_dir().string(), test::autotune_binary().string()));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

} // namespace
