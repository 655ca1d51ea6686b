// A results file of several problems: combining one-problem documents and splitting them
// back gives the same documents, and the first problem's view is the file itself.
#include "emit/problem_views.hpp"

#include <gtest/gtest.h>

using namespace autotune;
using json = nlohmann::ordered_json;

namespace {

json one_problem(int m, bool measured)
{
    return json{{"kernel", "gemm"},
                {"arch", "sm_90"},
                {"problem", {{"M", m}}},
                {"space", {{"valid", m}}},
                {"measured", measured},
                {"variants", json::array({{{"index", m}, {"status", "ok"}}})},
                {"problems", json::array({{{"variables", {{"M", m}}}, {"measured", measured}, {"winner", m}}})}};
}

TEST(ProblemViews, CombineThenSplitGivesBackEachProblem)
{
    const std::vector<json> views{one_problem(1, false), one_problem(2, true), one_problem(3, false)};
    const json document = combine_problem_views(views);
    EXPECT_EQ(document.at("problems").size(), 3u);
    EXPECT_EQ(document.at("variants"), views[0].at("variants")); // the first problem is the document
    EXPECT_TRUE(document.at("measured").get<bool>());            // one problem was measured
    EXPECT_FALSE(document.at("problems").at(2).contains("problems"));
    const auto back = problem_views(document);
    ASSERT_EQ(back.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(back[k].at("variants"), views[k].at("variants")) << k;
        EXPECT_EQ(back[k].at("problem"), views[k].at("problem")) << k;
        EXPECT_EQ(back[k].at("space"), views[k].at("space")) << k;
        EXPECT_EQ(back[k].at("problems"), views[k].at("problems")) << k;
        EXPECT_EQ(back[k].at("measured"), views[k].at("measured")) << k;
        EXPECT_EQ(back[k].at("kernel"), "gemm");
    }
}

TEST(ProblemViews, AOneProblemDocumentIsItsOwnView)
{
    const json document = one_problem(7, true);
    EXPECT_EQ(combine_problem_views({document}), document);
    const auto views = problem_views(document);
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0], document);
}

TEST(ProblemViews, AFurtherProblemWithoutVariantsIsRejected)
{
    json document = combine_problem_views({one_problem(1, false), one_problem(2, false)});
    document["problems"][1].erase("variants");
    EXPECT_THROW((void)problem_views(document), std::invalid_argument);
    EXPECT_THROW((void)combine_problem_views({}), std::invalid_argument);
}

} // namespace
