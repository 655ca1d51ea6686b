// Error messages are one line (DESIGN.md): a compiler's or a file's multi-line text is
// folded before it is quoted.
#pragma once

#include <algorithm>
#include <string>

namespace autotune {

[[nodiscard]] inline std::string one_line(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

} // namespace autotune
