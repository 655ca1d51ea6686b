// Reading an architecture name (sm_XX[a|f]), as --arch and every results file give it.
#include "arch/arch_target.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

TEST(ArchTarget, ReadsTwoOrThreeDigitsAndASuffix)
{
    EXPECT_EQ(parse_arch("sm_90").name(), "sm_90");
    EXPECT_EQ(parse_arch("sm_90a").suffix, "a");
    EXPECT_EQ(parse_arch("sm_120").major, 12);
    EXPECT_EQ(parse_arch("sm_120").minor, 0);
}

// Found while triaging the fuzz targets (a results file whose arch has eleven digits, fed to
// the results target): std::stoi's std::out_of_range escaped where every other bad name is an
// ArchError (exit 2); four digits passed as sm_999.9.
TEST(ArchTarget, ANumberTooLongIsAnArchErrorNamingIt)
{
    for (const char* text : {"sm_99999999999", "sm_9999", "sm_5"})
        EXPECT_THAT([&] { (void)parse_arch(text); },
                    ::testing::ThrowsMessage<ArchError>(
                        HasSubstr(std::string("--arch '") + text + "' is not an architecture: expected two or three digits")));
}

} // namespace
