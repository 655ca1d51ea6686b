// Where a run writes, checked before anything compiles: a --cache, --out or --header that
// cannot be written stops the run with exit 2 and one line naming it, having compiled
// nothing; a default cache that cannot be written is said once and the run goes on
// uncached with the results it would have had. The unwritable paths are ones that fail
// for root too (tests may run as root, which ignores permissions).
#include "support/test_support.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

class UnwritablePathsCli : public ::testing::Test {
protected:
    UnwritablePathsCli() { std::ofstream(file()) << "a regular file\n"; }

    test::CommandResult autotune(const std::string& arguments) { return test::run_autotune(arguments, dir.path()); }
    std::filesystem::path file() const { return dir.path() / "file"; }
    std::string out_dir() const { return (dir.path() / "results").string(); }
    bool compiled_nothing() const { return !std::filesystem::exists(dir.path() / "cache" / "v1"); }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    // Paths no one can write a directory at, root included; and one only root can write.
    std::vector<std::pair<std::string, std::string>> unwritable() const
    {
        std::vector<std::pair<std::string, std::string>> paths{
            {file().string(), "is not a directory"},
            {(file() / "below").string(), "cannot be created (Not a directory)"},
            {"/proc/autotune-test-dir", "cannot be created"},
            {"/dev/null", "is not a directory"},
        };
        if (geteuid() != 0) {
            const auto read_only = dir.path() / "read-only";
            std::filesystem::create_directory(read_only);
            std::filesystem::permissions(read_only, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
            paths.emplace_back(read_only.string(), "cannot be written (Permission denied)");
        }
        return paths;
    }

    test::TempDir dir;
};

TEST_F(UnwritablePathsCli, ANamedCacheThatCannotBeWrittenIsBadInputBeforeAnythingCompiles)
{
    for (const auto& [path, why] : unwritable()) {
        SCOPED_TRACE(path);
        const auto r = autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --cache {} --out {}", path, out_dir()));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr(fmt::format("--cache {} {}", path, why)));
        EXPECT_TRUE(r.out.empty());
        EXPECT_FALSE(std::filesystem::exists(out_dir()));
    }
}

TEST_F(UnwritablePathsCli, ADefaultCacheThatCannotBeWrittenIsSaidOnceAndTheRunGoesOnUncached)
{
    ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --out {}/cached", out_dir())).exit_code, 0);
    const json cached = json::parse(test::read_file(dir.path() / "results" / "cached" / "sm_90" / "copy.json"));
    for (const auto& [path, why] : unwritable()) {
        SCOPED_TRACE(path);
        const auto r = test::run_command(fmt::format("AUTOTUNE_CACHE_DIR={} {} copy --arch sm_90 --compile-only --quiet "
                                                     "--out {}/uncached",
                                                     path, test::autotune_binary().string(), out_dir()));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr(fmt::format("the compile cache {} {}", path, why)));
        EXPECT_THAT(r.err, HasSubstr("; compiling without a cache"));
        const json uncached = json::parse(test::read_file(dir.path() / "results" / "uncached" / "sm_90" / "copy.json"));
        EXPECT_EQ(uncached.at("variants"), cached.at("variants")); // the same results, every variant ok
    }
}

TEST_F(UnwritablePathsCli, AnOutThatCannotBeWrittenIsBadInputBeforeAnythingCompiles)
{
    for (const auto& [path, why] : unwritable()) {
        SCOPED_TRACE(path);
        const auto r = autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --out {}", path));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr(fmt::format("--out {}: {}/sm_90", path, path)));
        EXPECT_TRUE(r.out.empty());
        EXPECT_TRUE(compiled_nothing());
    }
}

TEST_F(UnwritablePathsCli, AHeaderThatCannotBeWrittenIsBadInputBeforeAnythingCompiles)
{
    const std::vector<std::string> headers{(file() / "tuned.hpp").string(), "/proc/autotune-test-dir/tuned.hpp",
                                           dir.path().string()};
    for (const auto& header : headers) {
        SCOPED_TRACE(header);
        const auto r = autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --out {} --header {}", out_dir(), header));
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr("--header " + header));
        EXPECT_TRUE(compiled_nothing());
    }
}

} // namespace

// header and fidelity compile with nvcc through the same cache, settled the same way: a
// named one that cannot be written is bad input, a default one is said once and they go on.
TEST_F(UnwritablePathsCli, HeaderAndFidelityTreatTheirCacheAsTheTuningCommandsDo)
{
    ASSERT_EQ(autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --out {}", out_dir())).exit_code, 0);
    const std::string results = (dir.path() / "results" / "sm_90" / "copy.json").string();
    const std::string header = (dir.path() / "tuned.hpp").string();
    const std::string path = file().string();
    for (const std::string& command : {fmt::format("header {} -o {}", results, header),
                                       fmt::format("fidelity {} --limit 1", results)}) {
        SCOPED_TRACE(command);
        const auto named = autotune(fmt::format("{} --cache {}", command, path));
        EXPECT_EQ(named.exit_code, 2) << named.err;
        EXPECT_EQ(lines(named.err), 1u) << named.err;
        EXPECT_THAT(named.err, HasSubstr(fmt::format("--cache {} is not a directory", path)));

        const auto by_default = test::run_command(
            fmt::format("AUTOTUNE_CACHE_DIR={} {} {}", path, test::autotune_binary().string(), command));
        EXPECT_EQ(by_default.exit_code, 0) << by_default.err;
        EXPECT_EQ(lines(by_default.err), 1u) << by_default.err;
        EXPECT_THAT(by_default.err, HasSubstr(fmt::format("the compile cache {} is not a directory", path)));
    }
    EXPECT_TRUE(std::filesystem::exists(header));
}
