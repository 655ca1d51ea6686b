// A JSON value as a person writes it in "BLOCK=128" or a Python expression: a string bare,
// anything else as JSON writes it. A template, for the ordered and the plain JSON types both
// (the T1 reader keeps nlohmann::json's), and header-only, so the fuzz targets' own list of
// engine sources needs nothing more for it.
#pragma once

#include <string>

namespace autotune {

template <class Json>
[[nodiscard]] std::string plain_value_text(const Json& value)
{
    return value.is_string() ? value.template get<std::string>() : value.dump();
}

} // namespace autotune
