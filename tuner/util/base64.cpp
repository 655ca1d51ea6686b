#include "util/base64.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>

namespace autotune {
namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t not_base64 = 0xff;

constexpr std::array<std::uint8_t, 256> decoding_table()
{
    std::array<std::uint8_t, 256> table{};
    table.fill(not_base64);
    for (std::size_t i = 0; i < alphabet.size(); ++i)
        table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::uint8_t>(i);
    return table;
}

} // namespace

std::string base64_encode(std::string_view bytes)
{
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                                    static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                                    static_cast<unsigned char>(bytes[i + 2]);
        for (const int shift : {18, 12, 6, 0})
            text += alphabet[(group >> shift) & 0x3f];
    }
    if (const std::size_t left = bytes.size() - i; left > 0) {
        std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (left == 2)
            group |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        text += alphabet[(group >> 18) & 0x3f];
        text += alphabet[(group >> 12) & 0x3f];
        text += left == 2 ? alphabet[(group >> 6) & 0x3f] : '=';
        text += '=';
    }
    return text;
}

std::string base64_decode(std::string_view text)
{
    static constexpr auto table = decoding_table();
    if (text.size() % 4 != 0)
        throw std::invalid_argument("base64: length is not a multiple of 4");
    std::string bytes;
    bytes.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const std::size_t padding = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
        std::uint32_t group = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const std::uint8_t value = k >= 4 - padding ? 0 : table[static_cast<unsigned char>(text[i + k])];
            if (value == not_base64)
                throw std::invalid_argument("base64: a character outside the alphabet");
            group = group << 6 | value;
        }
        bytes += static_cast<char>(group >> 16);
        if (padding < 2)
            bytes += static_cast<char>((group >> 8) & 0xff);
        if (padding < 1)
            bytes += static_cast<char>(group & 0xff);
    }
    return bytes;
}

} // namespace autotune
