// WorkerSupervisor against a fake worker (tests/measure/fake_worker): replies round-trip
// and keep the worker's state; every way a worker dies or misbehaves is reported with the
// right kind and detail, leaves no process or descriptor behind, and the next request gets
// a fresh worker; a chatty or a SIGPIPE-raising worker cannot block or kill the caller; and
// a run with crashing variants keeps its earlier results in the journal.
#include "measure/measurement_journal.hpp"
#include "util/worker_supervisor.hpp"
#include "support/test_support.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <ostream>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace autotune;
using namespace std::chrono_literals;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Kind = WorkerFailure::Kind;
using Result = std::variant<json, WorkerFailure>;

namespace {

// Long enough for a loaded machine; the tests that are about time use their own.
constexpr auto generous = 10s;

std::vector<std::string> fake_worker() { return {AUTOTUNE_FAKE_WORKER}; }

std::string describe(const Result& result)
{
    if (const auto* failure = std::get_if<WorkerFailure>(&result))
        return "failure " + std::to_string(static_cast<int>(failure->kind)) + ": " + failure->detail +
               "\nstderr: " + failure->stderr_tail;
    return "reply " + std::get<json>(result).dump();
}

// The reply, or an empty object after recording a test failure.
json reply_of(const Result& result)
{
    if (!std::holds_alternative<json>(result)) {
        ADD_FAILURE() << "expected a reply, got " << describe(result);
        return json::object();
    }
    return std::get<json>(result);
}

WorkerFailure failure_of(const Result& result)
{
    if (!std::holds_alternative<WorkerFailure>(result)) {
        ADD_FAILURE() << "expected a failure, got " << describe(result);
        return {};
    }
    return std::get<WorkerFailure>(result);
}

int echo_pid(WorkerSupervisor& supervisor)
{
    return reply_of(supervisor.request({{"action", "echo"}}, generous)).value("pid", -1);
}

// True once the process is not only dead but reaped: a zombie still answers kill(pid, 0).
bool process_gone(int pid) { return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH; }

std::size_t open_descriptor_count()
{
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++count;
    return count;
}

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(WorkerSupervisorTest, EchoRoundTrip)
{
    WorkerSupervisor supervisor(fake_worker());
    EXPECT_EQ(supervisor.workers_started(), 0) << "the worker starts on the first request";

    const json reply = reply_of(supervisor.request({{"action", "echo"}, {"value", 42}, {"text", "a\nb"}}, generous));
    EXPECT_EQ(reply.value("action", ""), "echo");
    EXPECT_EQ(reply.value("value", 0), 42);
    EXPECT_EQ(reply.value("text", ""), "a\nb") << "a newline inside a string must not split the request";
    EXPECT_GT(reply.value("pid", -1), 0);
    EXPECT_NE(reply.value("pid", -1), getpid());
    EXPECT_EQ(supervisor.workers_started(), 1);
}

TEST(WorkerSupervisorTest, StateSurvivesAcrossRequests)
{
    WorkerSupervisor supervisor(fake_worker());
    std::vector<int> pids, counts;
    for (int i = 0; i < 3; ++i) {
        const json reply = reply_of(supervisor.request({{"action", "echo"}}, generous));
        pids.push_back(reply.value("pid", -1));
        counts.push_back(reply.value("count", -1));
    }
    EXPECT_EQ(pids[1], pids[0]);
    EXPECT_EQ(pids[2], pids[0]);
    EXPECT_EQ(counts, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(supervisor.workers_started(), 1);
}

TEST(WorkerSupervisorTest, LargeRequestAndReplyRoundTrip)
{
    // Far more than a pipe holds in either direction, so both sides must make progress.
    const std::string payload(1 << 20, 'p');
    WorkerSupervisor supervisor(fake_worker());
    const json reply = reply_of(supervisor.request({{"action", "echo"}, {"payload", payload}}, generous));
    EXPECT_EQ(reply.value("payload", ""), payload);
}

struct Misbehaviour {
    std::string name;
    json request;
    Kind kind;
    std::string detail; // how the detail starts
};

void PrintTo(const Misbehaviour& misbehaviour, std::ostream* out) { *out << misbehaviour.name; }

class WorkerSupervisorFailureTest : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(WorkerSupervisorFailureTest, IsReportedAndTheNextRequestGetsAFreshWorker)
{
    const Misbehaviour& param = GetParam();
    WorkerSupervisor supervisor(fake_worker());
    const int first_pid = echo_pid(supervisor);

    const WorkerFailure failure = failure_of(supervisor.request(param.request, generous));
    EXPECT_EQ(failure.kind, param.kind);
    EXPECT_THAT(failure.detail, StartsWith(param.detail));
    EXPECT_TRUE(process_gone(first_pid)) << "the failed worker must be dead and reaped";

    const json reply = reply_of(supervisor.request({{"action", "echo"}}, generous));
    EXPECT_GT(reply.value("pid", -1), 0);
    EXPECT_NE(reply.value("pid", -1), first_pid);
    EXPECT_EQ(reply.value("count", -1), 1) << "a fresh worker has no state";
    EXPECT_EQ(supervisor.workers_started(), 2);
}

INSTANTIATE_TEST_SUITE_P(
    Worker, WorkerSupervisorFailureTest,
    ::testing::Values(
        Misbehaviour{"segv", {{"action", "segv"}}, Kind::crashed, "killed by signal 11 (SIGSEGV)"},
        Misbehaviour{"sigkill", {{"action", "kill"}}, Kind::crashed, "killed by signal 9 (SIGKILL)"},
        Misbehaviour{"abort", {{"action", "abort"}}, Kind::crashed, "killed by signal 6 (SIGABRT)"},
        Misbehaviour{"exit_code", {{"action", "exit"}, {"code", 3}}, Kind::crashed, "exited with code 3"},
        Misbehaviour{"clean_exit", {{"action", "exit"}, {"code", 0}}, Kind::crashed, "exited with code 0"},
        Misbehaviour{"garbage", {{"action", "garbage"}}, Kind::protocol_error, "reply is not JSON: this is not JSON"},
        Misbehaviour{"closed_stdout", {{"action", "close_stdout"}}, Kind::protocol_error,
                     "closed its stdout without replying"}),
    [](const auto& info) { return info.param.name; });

TEST(WorkerSupervisorTest, TimeoutReturnsPromptlyAndKillsTheHungWorker)
{
    WorkerSupervisor supervisor(fake_worker());
    const int hung_pid = echo_pid(supervisor);

    const auto start = std::chrono::steady_clock::now();
    const WorkerFailure failure = failure_of(supervisor.request({{"action", "hang"}, {"say", "stuck in a kernel"}}, 300ms));
    const double elapsed = seconds_since(start);

    EXPECT_EQ(failure.kind, Kind::timed_out);
    EXPECT_EQ(failure.detail, "no reply within 300 ms");
    EXPECT_GE(elapsed, 0.29) << "must wait for the whole timeout";
    EXPECT_LT(elapsed, 2.0);
    EXPECT_TRUE(process_gone(hung_pid));
    EXPECT_THAT(failure.stderr_tail, HasSubstr("stuck in a kernel"));

    const int next_pid = echo_pid(supervisor);
    EXPECT_GT(next_pid, 0);
    EXPECT_NE(next_pid, hung_pid);
    EXPECT_EQ(supervisor.workers_started(), 2);
}

TEST(WorkerSupervisorTest, OutputAfterTheReplyIsAProtocolError)
{
    WorkerSupervisor supervisor(fake_worker());
    const int pid = echo_pid(supervisor);
    EXPECT_EQ(reply_of(supervisor.request({{"action", "two_lines"}}, generous)), json({{"first", 1}}));

    // The second line must not be taken as the reply to the next request.
    const WorkerFailure failure = failure_of(supervisor.request({{"action", "echo"}}, generous));
    EXPECT_EQ(failure.kind, Kind::protocol_error);
    EXPECT_THAT(failure.detail, HasSubstr(R"({"second":2})"));
    EXPECT_TRUE(process_gone(pid));
    EXPECT_GT(echo_pid(supervisor), 0);
}

TEST(WorkerSupervisorTest, WorkerThatClosedItsStdinDoesNotRaiseSigpipeInTheCaller)
{
    sigset_t before;
    pthread_sigmask(SIG_SETMASK, nullptr, &before);
    WorkerSupervisor supervisor(fake_worker());
    const int pid = reply_of(supervisor.request({{"action", "close_stdin"}}, generous)).value("pid", -1);

    // Writing this request fails with EPIPE; had SIGPIPE been delivered, this test
    // program would have died here.
    const WorkerFailure failure = failure_of(supervisor.request({{"action", "echo"}}, generous));
    EXPECT_EQ(failure.kind, Kind::protocol_error);
    EXPECT_EQ(failure.detail, "closed its stdin before reading the request");
    EXPECT_TRUE(process_gone(pid));

    sigset_t pending, after;
    sigpending(&pending);
    pthread_sigmask(SIG_SETMASK, nullptr, &after);
    EXPECT_FALSE(sigismember(&pending, SIGPIPE)) << "the SIGPIPE must be consumed";
    EXPECT_EQ(sigismember(&after, SIGPIPE), sigismember(&before, SIGPIPE)) << "the signal mask must be restored";
    EXPECT_GT(echo_pid(supervisor), 0);
}

TEST(WorkerSupervisorTest, ChattyWorkerDoesNotDeadlock)
{
    // 1 MiB of stderr before the reply: sixteen times what a pipe holds.
    WorkerSupervisor supervisor(fake_worker());
    const json reply = reply_of(supervisor.request({{"action", "echo"}, {"kb", 1024}}, generous));
    EXPECT_EQ(reply.value("kb", 0), 1024);
}

TEST(WorkerSupervisorTest, StderrTailIsCapturedOnACrash)
{
    WorkerSupervisor supervisor(fake_worker());
    const WorkerFailure failure =
        failure_of(supervisor.request({{"action", "segv"}, {"kb", 100}, {"say", "about to fault"}}, generous));
    EXPECT_EQ(failure.kind, Kind::crashed);
    EXPECT_THAT(failure.stderr_tail, ::testing::EndsWith("about to fault\n"));
    EXPECT_LE(failure.stderr_tail.size(), 4096u) << "only the tail is kept";
    EXPECT_GE(failure.stderr_tail.size(), 2048u) << "the tail keeps the last few KB";
    EXPECT_THAT(failure.stderr_tail, StartsWith(std::string(63, 'x') + "\n")) << "no cut first line";
}

TEST(WorkerSupervisorTest, StderrOfEarlierRequestsIsNotBlamedOnALaterCrash)
{
    WorkerSupervisor supervisor(fake_worker());
    reply_of(supervisor.request({{"action", "echo"}, {"say", "first request chatter"}}, generous));
    const WorkerFailure failure = failure_of(supervisor.request({{"action", "abort"}, {"say", "dying"}}, generous));
    EXPECT_THAT(failure.stderr_tail, HasSubstr("dying"));
    EXPECT_THAT(failure.stderr_tail, ::testing::Not(HasSubstr("first request chatter")));
}

TEST(WorkerSupervisorTest, MissingProgramCouldNotStart)
{
    WorkerSupervisor supervisor({"/nonexistent/autotune-worker", "--flag"});
    const WorkerFailure failure = failure_of(supervisor.request({{"action", "echo"}}, generous));
    EXPECT_EQ(failure.kind, Kind::could_not_start);
    EXPECT_THAT(failure.detail, HasSubstr("/nonexistent/autotune-worker"));
    EXPECT_THAT(failure.detail, HasSubstr("No such file or directory"));
    EXPECT_EQ(supervisor.workers_started(), 0);
    // And again on the next request: nothing is left half-started.
    EXPECT_EQ(failure_of(supervisor.request({{"action", "echo"}}, generous)).kind, Kind::could_not_start);
}

TEST(WorkerSupervisorTest, EmptyCommandCouldNotStart)
{
    WorkerSupervisor supervisor({});
    EXPECT_EQ(failure_of(supervisor.request({{"action", "echo"}}, generous)).kind, Kind::could_not_start);
}

TEST(WorkerSupervisorTest, DestructorStopsAndReapsTheWorker)
{
    int pid = -1;
    {
        WorkerSupervisor supervisor(fake_worker());
        pid = echo_pid(supervisor);
        ASSERT_GT(pid, 0);
        EXPECT_FALSE(process_gone(pid));
    }
    EXPECT_TRUE(process_gone(pid));
}

TEST(WorkerSupervisorTest, DestructorKillsAWorkerThatLingers)
{
    int pid = -1;
    auto start = std::chrono::steady_clock::now();
    {
        WorkerSupervisor supervisor(fake_worker());
        pid = reply_of(supervisor.request({{"action", "linger"}}, generous)).value("pid", -1);
        ASSERT_GT(pid, 0);
        start = std::chrono::steady_clock::now();
    }
    EXPECT_LT(seconds_since(start), 3.0) << "the destructor waits only briefly";
    EXPECT_TRUE(process_gone(pid));
}

TEST(WorkerSupervisorTest, FailuresLeakNoDescriptors)
{
    const std::size_t before = open_descriptor_count();
    {
        WorkerSupervisor supervisor(fake_worker());
        for (const json& request : {json{{"action", "echo"}}, json{{"action", "segv"}}, json{{"action", "echo"}},
                                    json{{"action", "garbage"}}, json{{"action", "echo"}}})
            (void)supervisor.request(request, generous);
        (void)supervisor.request({{"action", "hang"}}, 50ms);
        EXPECT_GT(echo_pid(supervisor), 0);
        EXPECT_EQ(open_descriptor_count(), before + 3) << "exactly the three pipes to the live worker";
    }
    WorkerSupervisor missing({"/nonexistent/autotune-worker"});
    (void)missing.request({{"action", "echo"}}, generous);
    EXPECT_EQ(open_descriptor_count(), before);
}

// The pattern a measuring run relies on: variants that crash their worker cost only their
// own result; every other result is journaled in order and survives.
TEST(WorkerSupervisorTest, RunContinuesWithEarlierResultsIntact)
{
    test::TempDir dir;
    const auto journal_path = dir.path() / "run" / "journal.jsonl";
    WorkerSupervisor supervisor(fake_worker());
    std::vector<int> failed;
    {
        MeasurementJournal journal(journal_path);
        for (int i = 0; i < 20; ++i) {
            const bool crashes = i % 5 == 4;
            const auto result = supervisor.request({{"action", crashes ? "segv" : "echo"}, {"index", i}}, generous);
            if (const auto* failure = std::get_if<WorkerFailure>(&result)) {
                EXPECT_EQ(failure->kind, Kind::crashed) << "request " << i;
                failed.push_back(i);
            } else {
                const json& reply = std::get<json>(result);
                journal.append({{"index", reply.at("index")}, {"pid", reply.at("pid")}});
            }
        }
    }
    EXPECT_EQ(failed, (std::vector<int>{4, 9, 14, 19}));
    EXPECT_EQ(supervisor.workers_started(), 4);

    const auto records = read_journal(journal_path);
    ASSERT_EQ(records.size(), 16u);
    std::vector<int> indices;
    for (const auto& record : records)
        indices.push_back(record.at("index").get<int>());
    EXPECT_EQ(indices, (std::vector<int>{0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17, 18}));
    // Each group of four ran in one worker, and each group in a different one.
    for (std::size_t group = 0; group < 4; ++group) {
        for (std::size_t k = 1; k < 4; ++k)
            EXPECT_EQ(records[group * 4 + k].at("pid"), records[group * 4].at("pid"));
        if (group > 0)
            EXPECT_NE(records[group * 4].at("pid"), records[(group - 1) * 4].at("pid"));
    }
}

} // namespace
