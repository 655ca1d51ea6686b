// Why a measured file and the model disagree on a failure: the register bound a launch
// implies, or why none applies.
#include "tune/failure_explanation.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

const ArchSpec& sm86() { return find_arch_spec(86); }

} // namespace

TEST(FailureExplanation, ARunThisCompilesRegistersCannotLaunchBoundsTheMeasuredBinary)
{
    // pnpoly on the RTX 3090: 800 threads ran; CUDA 13 gives it 73 registers.
    const std::string why = explain_failure_disagreement({true, "", "", "no block fits", 800, 73}, sm86());
    EXPECT_EQ(why, "it ran there, so the binary measured used at most 72 registers a thread (a block of 800 threads on "
                   "sm_86 fits with no more); this compile gives 73");
    // A prediction that is not the registers' (a launch bound, a compile error) has no bound.
    EXPECT_THAT(explain_failure_disagreement({true, "", "", "min blocks can never be resident", 128, 40}, sm86()),
                HasSubstr("no register count explains the prediction (min blocks can never be resident)"));
}

TEST(FailureExplanation, AFailedLaunchThisCompilesRegistersFitBoundsItFromBelow)
{
    const std::string why = explain_failure_disagreement({false, "RuntimeFailedConfig", "launch_error", "", 928, 62}, sm86());
    EXPECT_EQ(why, "it failed to launch there, as a block of 928 threads on sm_86 does from 65 registers a thread: the "
                   "binary measured used more than 64; this compile gives 62");
    // An autotune results file records the status or the driver's words.
    EXPECT_THAT(explain_failure_disagreement({false, "launch_error", "launch_error", "", 928, 62}, sm86()), HasSubstr("more than 64"));
    // A small block launches at any register count: the failure is something else.
    EXPECT_THAT(explain_failure_disagreement({false, "RuntimeFailedConfig", "launch_error", "", 128, 40}, sm86()),
                HasSubstr("though no register count stops a block of 128 threads on sm_86: not a limit the model knows"));
}

TEST(FailureExplanation, OtherFailuresAreNamedAsTheFileRecordsThem)
{
    EXPECT_EQ(explain_failure_disagreement({false, "CompilationFailedConfig", "compile_error", "", 256, 30}, sm86()),
              "it failed to compile there (CompilationFailedConfig); it compiles here: another toolkit or other options");
    EXPECT_EQ(explain_failure_disagreement({false, "wrong_result", "wrong_result", "", 256, 30}, sm86()),
              "it failed there (wrong_result); nothing here predicts it");
}

TEST(FailureExplanation, RegistersExplainOnlyTheDisagreementsABlocksSizeBounds)
{
    // Both directions of a launch the registers decide.
    EXPECT_TRUE(registers_explain({true, "", "", "no block fits", 800, 73}, sm86()));
    EXPECT_TRUE(registers_explain({false, "RuntimeFailedConfig", "launch_error", "", 928, 62}, sm86()));
    // Not the registers: a prediction that fits them, a block any count launches, a compile
    // failure, a point not joined to a variant.
    EXPECT_FALSE(registers_explain({true, "", "", "min blocks can never be resident", 128, 40}, sm86()));
    EXPECT_FALSE(registers_explain({false, "RuntimeFailedConfig", "launch_error", "", 128, 40}, sm86()));
    EXPECT_FALSE(registers_explain({false, "CompilationFailedConfig", "compile_error", "", 928, 62}, sm86()));
    EXPECT_FALSE(registers_explain({true, "", "", "no block fits", 0, 73}, sm86()));
}
