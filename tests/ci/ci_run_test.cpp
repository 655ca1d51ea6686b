// .ci/run itself: it runs the README's two commands and fails when either fails. Each test
// copies it into a scratch git checkout whose scripts/setup, build/autotune and ctest are
// stand-ins that succeed or fail on request, so no build or test runs here.
#include "support/test_support.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

void write_script(const std::filesystem::path& path, const std::string& body)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "#!/usr/bin/env bash\n" << body << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
}

// A checkout with .ci/run and stand-ins; each stand-in exits with the status named in the
// environment (SETUP_STATUS, MAIN_JOB_STATUS, CTEST_STATUS; default 0).
test::CommandResult run_ci(const std::string& statuses)
{
    test::TempDir scratch;
    const std::filesystem::path& dir = scratch.path();
    std::filesystem::create_directories(dir / ".ci");
    std::filesystem::copy_file(test::source_dir() / ".ci" / "run", dir / ".ci" / "run");
    write_script(dir / "scripts" / "setup", "exit ${SETUP_STATUS:-0}");
    write_script(dir / "build" / "autotune", "exit ${MAIN_JOB_STATUS:-0}");
    write_script(dir / "bin" / "ctest", "exit ${CTEST_STATUS:-0}");
    std::ofstream(dir / ".gitignore") << "*\n";
    return test::run_command(fmt::format(
        "cd {0} && git init -q . && git -c user.name=t -c user.email=t@t add -f .gitignore && "
        "git -c user.name=t -c user.email=t@t commit -qm init && {1} PATH={0}/bin:$PATH .ci/run",
        dir.string(), statuses));
}

TEST(CiRun, PassesWhenBothCommandsSucceedAndTheCheckoutIsUnchanged)
{
    const auto r = run_ci("");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("the checkout is unchanged"));
}

TEST(CiRun, AFailedSetupMainJobOrTestRunFailsIt)
{
    // A failure before the last command of an && list does not stop a `set -e` script: the
    // failed build once let CI pass.
    for (const std::string statuses : {"SETUP_STATUS=3", "MAIN_JOB_STATUS=4", "CTEST_STATUS=8"}) {
        const auto r = run_ci(statuses);
        EXPECT_NE(r.exit_code, 0) << statuses << "\n" << r.out << r.err;
        EXPECT_THAT(r.err, HasSubstr("failed (exit")) << statuses;
        EXPECT_THAT(r.out, ::testing::Not(HasSubstr("the checkout is unchanged"))) << statuses;
    }
}

} // namespace
