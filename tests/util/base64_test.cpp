// Base64 as RFC 4648 writes it (its test vectors), every byte value round-trips, and text
// that is not base64 is refused rather than decoded into something.
#include "util/base64.hpp"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace autotune;

TEST(Base64, EncodesTheRfcTestVectors)
{
    EXPECT_EQ(base64_encode(""), "");
    EXPECT_EQ(base64_encode("f"), "Zg==");
    EXPECT_EQ(base64_encode("fo"), "Zm8=");
    EXPECT_EQ(base64_encode("foo"), "Zm9v");
    EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
    EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
    EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, EveryByteRoundTrips)
{
    std::string bytes;
    for (int b = 0; b < 256; ++b)
        bytes += static_cast<char>(b);
    for (std::size_t length = 0; length <= bytes.size(); length += 1 + length / 8)
        EXPECT_EQ(base64_decode(base64_encode(bytes.substr(0, length))), bytes.substr(0, length)) << length;
}

TEST(Base64, RefusesWhatIsNotBase64)
{
    EXPECT_THROW((void)base64_decode("Zm9"), std::invalid_argument);   // not a multiple of 4
    EXPECT_THROW((void)base64_decode("Zm9v!A=="), std::invalid_argument); // outside the alphabet
    EXPECT_THROW((void)base64_decode("Zg==Zg=="), std::invalid_argument); // padding before the end
    EXPECT_THROW((void)base64_decode("Z=9v"), std::invalid_argument);
}
