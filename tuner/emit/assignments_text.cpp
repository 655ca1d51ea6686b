#include "emit/assignments_text.hpp"

namespace autotune {

std::string assignments_text(const nlohmann::ordered_json& values, std::string_view separator)
{
    std::string text;
    for (const auto& [name, value] : values.items()) {
        if (!text.empty())
            text += separator;
        text += name + "=" + plain_value_text(value);
    }
    return text;
}

} // namespace autotune
