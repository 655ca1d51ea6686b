// A spec's [[problems]]: the problems a run tunes by default, read in order and checked
// against [problem]; and how --problem, the set and the defaults combine.
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"

#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

const char* const spec_head = R"toml(name = "scale"

[kernel]
template = "scale.cu"
function = "scale"
parameters_as = "preprocessor_definitions"

[parameters]
BLOCK = [64, 128]

[problem]
M = 100
N = 200

[[arguments]]
name = "x"
buffer = "float"
size = "M * N"

[launch]
grid = ["ceil_div(M * N, BLOCK)"]
block = ["BLOCK"]

[cost]
flops = "M * N"
bytes = "4 * M * N"
)toml";

class ProblemSet : public ::testing::Test {
protected:
    // `tail` goes after the spec; `top` before its first table (top-level keys).
    std::filesystem::path write(const std::string& tail, const std::string& top = "")
    {
        std::ofstream(dir.path() / "scale.cu") << "extern \"C\" __global__ void scale(float* x) {}\n";
        const auto path = dir.path() / "scale.toml";
        std::string text = spec_head;
        text.insert(text.find("[kernel]"), top);
        std::ofstream(path) << text << tail;
        return path;
    }
    std::string error_of(const std::string& tail, const std::string& top = "")
    {
        const auto path = write(tail, top);
        try {
            (void)load_spec(path);
        } catch (const SpecError& e) {
            EXPECT_THAT(e.what(), HasSubstr(path.string())) << "the error names the spec";
            return e.what();
        }
        return "(no error)";
    }
    test::TempDir dir;
};

TEST_F(ProblemSet, ReadInOrderAndResolvedOverTheDefaults)
{
    const KernelSpec spec = load_spec(write("\n[[problems]]\nM = 1\n\n[[problems]]\nN = 7\nM = 3\n\n[[problems]]\n"));
    ASSERT_EQ(spec.problem_set.size(), 3u);
    const auto problems = resolve_problems(spec, {});
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[0].to_string(), "M=1,N=200");
    EXPECT_EQ(problems[1].to_string(), "M=3,N=7"); // spec order, whatever the order written
    EXPECT_EQ(problems[2].to_string(), "M=100,N=200");
}

TEST_F(ProblemSet, WithoutASetTheDefaultsAreTheOneProblem)
{
    const KernelSpec spec = load_spec(write(""));
    EXPECT_TRUE(spec.problem_set.empty());
    const auto problems = resolve_problems(spec, {});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].to_string(), "M=100,N=200");
}

TEST_F(ProblemSet, ProblemsOnTheCommandLineReplaceTheSet)
{
    const KernelSpec spec = load_spec(write("\n[[problems]]\nM = 1\n\n[[problems]]\nM = 2\n"));
    const auto problems = resolve_problems(spec, {"N=5", "M=9,N=5"});
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].to_string(), "M=100,N=5");
    EXPECT_EQ(problems[1].to_string(), "M=9,N=5");
    EXPECT_THROW((void)resolve_problems(spec, {"M=9", "M=9,N=200"}), ProblemError); // the same problem twice
    EXPECT_THROW((void)resolve_problems(spec, {"Q=1"}), ProblemError);
}

TEST_F(ProblemSet, BadSetsAreErrorsNamingTheSpecAndTheEntry)
{
    EXPECT_THAT(error_of("\n[[problems]]\nQ = 1\n"), HasSubstr("'Q', which is not a variable of [problem]"));
    EXPECT_THAT(error_of("\n[[problems]]\nM = 0\n"), HasSubstr("M must be a positive integer"));
    EXPECT_THAT(error_of("\n[[problems]]\nM = \"big\"\n"), HasSubstr("M must be a positive integer"));
    EXPECT_THAT(error_of("\n[[problems]]\nM = 4\n\n[[problems]]\nM = 4\nN = 200\n"),
                HasSubstr("the same problem twice"));
    EXPECT_THAT(error_of("", "problems = [1, 2]\n\n"), HasSubstr("non-empty array of tables"));
}

TEST_F(ProblemSet, AMisspelledTopLevelKeyIsAnErrorNotIgnored)
{
    EXPECT_THAT(error_of("\n[[problem_set]]\nM = 4\n"), HasSubstr("problem_set"));
}

} // namespace
