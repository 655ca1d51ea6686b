// Compiler output is bytes, not text: a template that is a binary file makes NVRTC echo
// its bytes, and NVRTC's log of a ptxas failure begins with a NUL. Before such output
// becomes a message, a JSON string or a line of the worker protocol, it is made readable.
#pragma once

#include <string>
#include <string_view>

namespace autotune {

// `bytes` as valid UTF-8: each invalid or truncated sequence becomes U+FFFD, and control
// characters other than newline and tab (NUL included) are dropped.
[[nodiscard]] std::string readable_text(std::string_view bytes);

} // namespace autotune
