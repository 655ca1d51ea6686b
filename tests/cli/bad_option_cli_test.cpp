// Command lines that must be refused before any work: a number outside its option's range
// (every numeric option of every command), a problem variable set twice, a first argument
// that is neither a command nor a built-in kernel. Each is exit 2 and one stderr line
// naming the input, and nothing is written.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

class BadOption : public ::testing::Test {
protected:
    test::CommandResult autotune(const std::string& arguments) { return test::run_autotune(arguments, dir.path()); }
    std::string out_dir() const { return (dir.path() / "results").string(); }

    // `arguments` is refused: exit 2, one line on stderr holding each of `expected`, no output.
    void expect_refused(const std::string& arguments, const std::vector<std::string>& expected)
    {
        const auto r = autotune(arguments);
        EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.err;
        for (const auto& text : expected)
            EXPECT_THAT(r.err, HasSubstr(text)) << arguments;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << arguments << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << arguments << "\n" << r.out;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "results")) << arguments;
    }

    test::TempDir dir;
};

struct OptionCase {
    std::string command; // the command line up to the option
    std::string option;  // "--jobs"
    std::string accepted; // the range the message states
    std::vector<std::string> bad_values;
};

TEST_F(BadOption, EveryNumericOptionRefusesValuesOutsideItsRangeNamingTheOptionAndTheRange)
{
    const std::string tune = "copy --arch sm_90 --compile-only --out " + out_dir();
    const std::string spec = (test::source_dir() / "kernels" / "copy.toml").string();
    const std::string results = (dir.path() / "missing.json").string();
    const std::vector<OptionCase> cases{
        {tune, "--jobs", "0 to 1024", {"-1", "1025", "4294967295", "1.5", "abc"}},
        {tune, "--seed", "0 or more", {"-1", "18446744073709551616", "x"}},
        {tune, "--max-noise", "more than 0, at most 100", {"-1", "0", "101", "nan", "inf", "1e400"}},
        {tune, "--min-samples", "1 to 1000000", {"0", "-3", "1000001", "2.5"}},
        {tune, "--max-time", "more than 0, at most 86400", {"0", "-2", "86401", "nan", "-inf"}},
        {tune, "--variant-timeout", "more than 0, at most 86400", {"-3", "0", "1e300", "inf"}},
        {"run " + spec + " --arch sm_90 --compile-only --out " + out_dir(), "--jobs", "0 to 1024", {"-1"}},
        {"check-model " + spec + " --measured " + results + " --arch sm_90", "--sample", "1 or more", {"0", "-1"}},
        {"check-model " + spec + " --measured " + results + " --arch sm_90", "--seed", "0 or more", {"-1"}},
        {"check-model " + spec + " --measured " + results + " --arch sm_90", "--jobs", "0 to 1024", {"-1", "5000"}},
        {"fidelity " + results, "--limit", "1 or more", {"0", "-1"}},
        {"fidelity " + results, "--jobs", "0 to 1024", {"-1"}},
        {"replay " + results + " --strategy random --budget 5", "--seed", "0 or more", {"-1"}},
        {"roofline --out " + out_dir(), "--device", "0 or more", {"-1"}},
        {"compare " + results + " " + results, "--threshold", "more than 0", {"0", "-5", "nan"}},
        {"occupancy --arch sm_90 --threads 128 --regs 32", "--smem", "0 or more", {"-1"}},
        {"occupancy --arch sm_90 --threads 128 --regs 32", "--barriers", "0 to 16", {"-1", "17"}},
    };
    for (const auto& c : cases)
        for (const auto& value : c.bad_values)
            expect_refused(fmt::format("{} {} {}", c.command, c.option, value),
                           {c.option, fmt::format("(accepted: {})", c.accepted)});
}

TEST_F(BadOption, ANegativeNumberIsOutOfRangeNotWrappedAround)
{
    // Boost reads -1 for an unsigned option as 4294967295; the message must say what was given.
    expect_refused("copy --arch sm_90 --compile-only --jobs -1 --out " + out_dir(),
                   {"--jobs -1 is out of range (accepted: 0 to 1024)"});
    expect_refused("copy --arch sm_90 --compile-only --jobs=abc --out " + out_dir(),
                   {"--jobs 'abc' is not a whole number (accepted: 0 to 1024)"});
}

TEST_F(BadOption, TheVariantTimeoutMustExceedTheSamplingTime)
{
    expect_refused("copy --arch sm_90 --compile-only --max-time 30 --variant-timeout 20 --out " + out_dir(),
                   {"--variant-timeout 20 must exceed --max-time 30"});
}

TEST_F(BadOption, ValuesAtTheEdgesOfTheRangesAreAccepted)
{
    const auto r = autotune(fmt::format("copy --arch sm_90 --compile-only --quiet --jobs 1 --seed 0 --max-noise 100 "
                                        "--min-samples 1 --max-time 0.5 --variant-timeout 86400 --space default "
                                        "--variants 4860 --out {}",
                                        out_dir()));
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(BadOption, AProblemVariableSetTwiceInOneProblemIsRefused)
{
    expect_refused("copy --arch sm_90 --compile-only --problem N=64,N=128 --out " + out_dir(),
                   {"--problem 'N=64,N=128': N is set twice"});
    expect_refused("gemm --arch sm_90 --compile-only --problem M=64,N=64,M=64 --out " + out_dir(), {"M is set twice"});
}

TEST_F(BadOption, AnOptionGivenAnEmptyValueIsRefusedNamingIt)
{
    // Taken as given, --out '' wrote into the working folder and --cache '' used the default cache.
    const std::string tune = "copy --arch sm_90 --compile-only ";
    expect_refused(tune + "--out ''", {"--out is given an empty value"});
    expect_refused(tune + "--out " + out_dir() + " --cache ''", {"--cache is given an empty value"});
    expect_refused(tune + "--out " + out_dir() + " --compile-option=-lineinfo --compile-option ''",
                   {"--compile-option is given an empty value"});
    expect_refused("export t4 missing.json -o ''", {"-o/--output is given an empty value"});
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "sm_90")) << "written into the working folder";
}

TEST_F(BadOption, WhereACommandWritesIsCheckedBeforeItsWorkAndNamedByItsOption)
{
    // A folder that cannot be made: its parent is a file.
    const auto file = dir.path() / "a-file";
    std::ofstream(file) << "not a folder\n";
    const std::string blocked = (file / "sub").string();
    const std::string results = (test::source_dir() / "results" / "sm_90" / "gemm.json").string();
    const std::string spec = (test::source_dir() / "kernels" / "copy.toml").string();
    const std::vector<std::pair<std::string, std::string>> cases{
        {"check-model " + spec + " --measured " + results + " --arch sm_90 --points " + blocked + "/p.json", "--points"},
        {"header " + results + " -o " + blocked + "/h.hpp", "-o"},
        {"report " + results + " -o " + blocked, "-o"},
        {"export t4 " + results + " -o " + blocked + "/x.json", "-o"},
        {"import kt-cache " + results + " -o " + blocked + "/x.json", "-o"},
        {"compare " + results + " " + results + " --markdown " + blocked + "/x.md", "--markdown"},
        {"merge " + results + " -o " + blocked + "/x.json", "-o"},
        {"copy --arch sm_90 --compile-only --out " + out_dir() + " --header " + blocked + "/h.hpp", "--header"},
        {"roofline --out " + blocked, "--out"},
    };
    for (const auto& [arguments, option] : cases)
        expect_refused(arguments, {option + " " + blocked, "cannot be created"});
    expect_refused("export t4 " + results + " -o " + dir.path().string(), {"is a directory; name the file to write"});
    // Written over one of its own parts, a merge that fails later could not be run again.
    expect_refused("merge " + file.string() + " -o " + file.string(), {"is one of the parts merged"});
    EXPECT_EQ(test::read_file(file), "not a folder\n");
    // Folders made to check where a command writes go again when its input is then refused.
    const auto unmade = dir.path() / "unmade";
    expect_refused("export t4 missing.json -o " + (unmade / "deeper" / "x.json").string(), {"missing.json", "not found"});
    EXPECT_FALSE(std::filesystem::exists(unmade)) << "a folder made for the check was left behind";
}

TEST_F(BadOption, AFirstArgumentThatIsNeitherACommandNorAKernelIsNamedAsSuchBeforeAnyOption)
{
    for (const std::string arguments : {"frobnicate", "frobnicate --arch sm_90", "frobnicate --help",
                                        "../examples/blur --arch sm_90"}) {
        const std::string name = arguments.substr(0, arguments.find(' '));
        expect_refused(arguments, {fmt::format("unknown kernel or command '{}'", name), "commands: list, run,",
                                   "built-in kernels: copy, gemm"});
    }
    expect_refused("lsit", {"unknown kernel or command 'lsit' (did you mean 'list'?"});
    expect_refused("gemn --arch sm_90", {"(did you mean 'gemm'?"});
}

} // namespace
