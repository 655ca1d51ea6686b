// MeasurementJournal and read_journal: records round-trip in order, survive a SIGKILL right
// after append, a torn last line is ignored (and cut off before new appends), a malformed
// complete line is an error naming path:line, and a missing journal reads as empty.
#include "measure/measurement_journal.hpp"
#include "support/test_support.hpp"

#include <csignal>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace autotune;
using nlohmann::json;
using ::testing::HasSubstr;

namespace {

json record(int index) { return {{"variant", "v" + std::to_string(index)}, {"index", index}, {"seconds", 1e-3 * index}}; }

std::vector<json> records(int first, int last)
{
    std::vector<json> result;
    for (int i = first; i <= last; ++i)
        result.push_back(record(i));
    return result;
}

void write_raw(const std::filesystem::path& path, const std::string& content)
{
    std::ofstream(path, std::ios::binary) << content;
}

std::string line(const json& value) { return value.dump() + "\n"; }

TEST(JournalTest, AppendThenReadBackInOrder)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    {
        MeasurementJournal journal(path);
        EXPECT_EQ(journal.path(), path);
        for (const auto& r : records(1, 5))
            journal.append(r);
    }
    EXPECT_EQ(read_journal(path), records(1, 5));
    EXPECT_EQ(test::read_file(path), line(record(1)) + line(record(2)) + line(record(3)) + line(record(4)) +
                                         line(record(5)))
        << "one compact record per line";
}

TEST(JournalTest, RecordWithNewlinesInStringsStaysOneLine)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    const json tricky = {{"log", "line one\nline two\n"}, {"note", "tab\there"}};
    MeasurementJournal(path).append(tricky);
    EXPECT_EQ(read_journal(path), std::vector<json>{tricky});
}

TEST(JournalTest, CreatesParentDirectories)
{
    test::TempDir dir;
    const auto path = dir.path() / "results" / "sm_90" / "gemm" / "journal.jsonl";
    MeasurementJournal(path).append(record(1));
    EXPECT_EQ(read_journal(path), records(1, 1));
}

TEST(JournalTest, ReopeningAppendsAfterEarlierRecords)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    {
        MeasurementJournal journal(path);
        journal.append(record(1));
        journal.append(record(2));
    }
    MeasurementJournal(path).append(record(3));
    EXPECT_EQ(read_journal(path), records(1, 3));
}

TEST(JournalTest, RecordsSurviveSigkillRightAfterAppend)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // No destructor, no exit handlers, no flushing: only what append() already did.
        try {
            MeasurementJournal journal(path);
            for (const auto& r : records(1, 3))
                journal.append(r);
        } catch (...) {
            _exit(1);
        }
        raise(SIGKILL);
        _exit(2);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
    EXPECT_EQ(read_journal(path), records(1, 3));
}

TEST(JournalTest, TornLastLineIsIgnored)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, line(record(1)) + line(record(2)) + R"({"variant":"v3","ind)");
    EXPECT_EQ(read_journal(path), records(1, 2));
}

TEST(JournalTest, CompleteJsonWithoutItsNewlineCountsAsTorn)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, line(record(1)) + record(2).dump());
    EXPECT_EQ(read_journal(path), records(1, 1));
}

TEST(JournalTest, ReopeningCutsOffATornLastLine)
{
    // The rerun after a crash appends: the torn line must not end up in the middle.
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, line(record(1)) + line(record(2)) + R"({"variant":"v3","ind)");
    MeasurementJournal(path).append(record(3));
    EXPECT_EQ(read_journal(path), records(1, 3));
    EXPECT_EQ(test::read_file(path), line(record(1)) + line(record(2)) + line(record(3)));
}

TEST(JournalTest, ReopeningATornFirstLineLeavesAnEmptyJournal)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, R"({"variant":"v1")");
    MeasurementJournal(path).append(record(1));
    EXPECT_EQ(read_journal(path), records(1, 1));
}

TEST(JournalTest, MalformedMiddleLineThrowsNamingPathAndLine)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, line(record(1)) + "{\"variant\": oops}\n" + line(record(3)));
    try {
        (void)read_journal(path);
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), path.string() + ":2: not a JSON record");
    }
}

TEST(JournalTest, EmptyLineIsMalformed)
{
    test::TempDir dir;
    const auto path = dir.path() / "journal.jsonl";
    write_raw(path, line(record(1)) + line(record(2)) + "\n" + line(record(4)));
    EXPECT_THROW(
        {
            try {
                (void)read_journal(path);
            } catch (const std::runtime_error& e) {
                EXPECT_THAT(e.what(), HasSubstr(":3: not a JSON record"));
                throw;
            }
        },
        std::runtime_error);
}

TEST(JournalTest, MissingFileReadsAsEmpty)
{
    test::TempDir dir;
    EXPECT_TRUE(read_journal(dir.path() / "never-written.jsonl").empty());
    EXPECT_TRUE(read_journal(dir.path() / "no-such-dir" / "journal.jsonl").empty());
}

TEST(JournalTest, UnusableLocationThrowsNamingThePath)
{
    test::TempDir dir;
    write_raw(dir.path() / "plain-file", "not a directory");
    const auto path = dir.path() / "plain-file" / "journal.jsonl";
    try {
        MeasurementJournal journal(path);
        FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr(path.string()));
    }
}

} // namespace
