// Compiler output made readable: valid UTF-8 kept, invalid bytes replaced, NUL and other
// control characters dropped, so that a JSON library and the worker protocol accept it.
#include "util/readable_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;

TEST(ReadableText, KeepsTextAndValidUtf8)
{
    EXPECT_EQ(readable_text("ptxas error : x\n\tline"), "ptxas error : x\n\tline");
    EXPECT_EQ(readable_text("Größe ✓ 𝄞"), "Größe ✓ 𝄞");
}

TEST(ReadableText, DropsNulAndControlCharacters)
{
    EXPECT_EQ(readable_text(std::string("\0ptxas error", 12)), "ptxas error");
    EXPECT_EQ(readable_text("a\rb\x1b[0mc\x7f"), "ab[0mc");
}

TEST(ReadableText, ReplacesInvalidOverlongSurrogateAndTruncatedSequences)
{
    const std::string r = "\xEF\xBF\xBD";
    EXPECT_EQ(readable_text("a\xFF" "b"), "a" + r + "b");
    EXPECT_EQ(readable_text("\xC0\xAF"), r + r);         // overlong '/'
    EXPECT_EQ(readable_text("\xED\xA0\x80"), r + r + r); // a surrogate
    EXPECT_EQ(readable_text("x\xE2\x9C"), "x" + r + r);  // cut short
    // Whatever the bytes, the result is a JSON string.
    std::string all;
    for (int c = 0; c < 256; ++c)
        all += static_cast<char>(c);
    EXPECT_NO_THROW((void)nlohmann::json(readable_text(all + all)).dump());
    EXPECT_THROW((void)nlohmann::json(all).dump(), nlohmann::json::type_error);
}
