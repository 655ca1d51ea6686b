// Base64 (RFC 4648, with padding): bytes that are not text (a cubin, a compiler's raw
// output) carried inside JSON, whose strings must be valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace autotune {

[[nodiscard]] std::string base64_encode(std::string_view bytes);
// Throws std::invalid_argument when `text` is not padded base64.
[[nodiscard]] std::string base64_decode(std::string_view text);

} // namespace autotune
