// "BLOCK=128,VEC=4": a JSON object of names and values (a variant's parameters, a problem's
// variables) as one line, in the object's order; strings bare, numbers as JSON writes them.
#pragma once

#include "util/plain_value_text.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace autotune {

[[nodiscard]] std::string assignments_text(const nlohmann::ordered_json& values, std::string_view separator = ",");

} // namespace autotune
