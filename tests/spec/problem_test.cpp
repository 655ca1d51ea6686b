#include "spec/problem.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

KernelSpec spec_with_problem()
{
    KernelSpec spec;
    spec.name = "gemm";
    spec.problem = {{"M", 4096}, {"N", 4096}, {"K", 4096}};
    return spec;
}

TEST(Problem, DefaultsWithOverridesInSpecOrder)
{
    const Problem p = resolve_problem(spec_with_problem(), parse_problem_assignments("K=512,M=1024"));
    EXPECT_EQ(p.to_string(), "M=1024,N=4096,K=512");
    EXPECT_EQ(p.at("K"), 512);
}

TEST(Problem, MalformedAssignmentsNameTheBadPart)
{
    for (const char* bad : {"M", "M=", "=5", "M=abc", "M=12x", ""}) {
        try {
            (void)parse_problem_assignments(bad);
            FAIL() << "accepted '" << bad << "'";
        } catch (const ProblemError& e) {
            EXPECT_THAT(e.what(), HasSubstr("--problem"));
        }
    }
}

TEST(Problem, AVariableSetTwiceInOneProblemIsRejected)
{
    for (const char* twice : {"M=64,M=128", "M=64,N=1,M=64"})
        EXPECT_THAT([&] { (void)parse_problem_assignments(twice); },
                    ::testing::ThrowsMessage<ProblemError>(HasSubstr(std::string("--problem '") + twice + "': M is set twice")));
}

TEST(Problem, UnknownVariableListsTheKnownOnes)
{
    try {
        (void)resolve_problem(spec_with_problem(), {{"Q", 4}});
        FAIL();
    } catch (const ProblemError& e) {
        EXPECT_THAT(e.what(), HasSubstr("'Q'"));
        EXPECT_THAT(e.what(), HasSubstr("M, N, K"));
    }
}

TEST(Problem, NonPositiveSizeIsRejected)
{
    EXPECT_THROW((void)resolve_problem(spec_with_problem(), {{"M", 0}}), ProblemError);
    EXPECT_THROW((void)resolve_problem(spec_with_problem(), {{"M", -4}}), ProblemError);
}

TEST(Problem, ASizeBeyondWhatExpressionsHoldExactlyIsRejected)
{
    EXPECT_THAT([] { (void)resolve_problem(spec_with_problem(), {{"M", (std::int64_t{1} << 53) + 1}}); },
                ::testing::ThrowsMessage<ProblemError>(HasSubstr("M=9007199254740993 is out of range (accepted: 1 to 2^53)")));
    EXPECT_EQ(resolve_problem(spec_with_problem(), {{"M", std::int64_t{1} << 53}}).at("M"), std::int64_t{1} << 53);
}

} // namespace
