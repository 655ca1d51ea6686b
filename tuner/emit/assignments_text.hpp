// "BLOCK=128,VEC=4": a JSON object of names and values (a variant's parameters, a problem's
// variables) as one line, in the object's order; strings bare, numbers as JSON writes them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace autotune {

// One value as such a line writes it: a string bare, anything else as JSON writes it.
[[nodiscard]] std::string plain_value_text(const nlohmann::ordered_json& value);

[[nodiscard]] std::string assignments_text(const nlohmann::ordered_json& values, std::string_view separator = ",");

} // namespace autotune
