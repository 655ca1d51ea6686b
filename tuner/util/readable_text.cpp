#include "util/readable_text.hpp"

namespace autotune {
namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

// The length of the valid UTF-8 sequence at the start of `s` (RFC 3629: no overlongs,
// no surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t valid_sequence(std::string_view s)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
    const unsigned char b = byte(0);
    if (b < 0x80)
        return 1;
    if (b >= 0xC2 && b <= 0xDF)
        return continuation(1) ? 2 : 0;
    if (b >= 0xE0 && b <= 0xEF) {
        if (!continuation(1) || !continuation(2))
            return 0;
        if ((b == 0xE0 && byte(1) < 0xA0) || (b == 0xED && byte(1) > 0x9F))
            return 0;
        return 3;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        if (!continuation(1) || !continuation(2) || !continuation(3))
            return 0;
        if ((b == 0xF0 && byte(1) < 0x90) || (b == 0xF4 && byte(1) > 0x8F))
            return 0;
        return 4;
    }
    return 0;
}

} // namespace

std::string readable_text(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = valid_sequence(bytes.substr(i));
        if (n == 0) {
            out += replacement;
            ++i;
            continue;
        }
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (n > 1 || c >= 0x20 || c == '\n' || c == '\t')
            if (c != 0x7F)
                out.append(bytes.substr(i, n));
        i += n;
    }
    return out;
}

} // namespace autotune
