// run_process: output and exit codes as before, and the limits: a program past its timeout
// is killed together with the processes it started (nvcc's cicc and ptxas), promptly; the
// memory limit reaches the program and its children.
#include "util/process.hpp"

#include <chrono>
#include <gtest/gtest.h>

using namespace autotune;
using namespace std::chrono_literals;

TEST(Process, CapturesOutputAndExitCode)
{
    const ProcessResult r = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.output, "out\nerr\n");
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.signal, 0);
}

TEST(Process, AProgramThatCannotStartSaysWhy)
{
    const ProcessResult r = run_process({"/nonexistent/program"});
    EXPECT_EQ(r.exit_code, -1);
    EXPECT_NE(r.output.find("/nonexistent/program"), std::string::npos) << r.output;
}

TEST(Process, ATimeoutKillsTheProgramAndItsChildren)
{
    // The child keeps the output pipe open: only killing the whole group ends the wait.
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r =
        run_process({"/bin/sh", "-c", "sleep 300 & echo started; wait"}, {}, ProcessLimits{500ms, 0});
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(r.timed_out);
    EXPECT_EQ(r.signal, 9);
    EXPECT_EQ(r.output, "started\n");
    EXPECT_LT(took, 10s);
}

TEST(Process, AProgramWithinItsTimeoutIsNotTimedOut)
{
    const ProcessResult r = run_process({"/bin/sh", "-c", "exit 0"}, {}, ProcessLimits{30s, 0});
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0);
}

TEST(Process, TheMemoryLimitReachesTheProgramAndItsChildren)
{
    // ulimit -v reports RLIMIT_AS in KiB; the inner shell is a child of the outer one.
    const ProcessResult r =
        run_process({"/bin/sh", "-c", "ulimit -v; /bin/sh -c 'ulimit -v'"}, {}, ProcessLimits{std::nullopt, 256u << 20});
    EXPECT_EQ(r.output, "262144\n262144\n");
}
