#include "util/json_shape.hpp"

#include <fmt/format.h>

namespace autotune {

using json = nlohmann::ordered_json;

namespace {

bool has(JsonKind kinds, JsonKind kind)
{
    return (static_cast<unsigned>(kinds) & static_cast<unsigned>(kind)) != 0;
}

// What a value is, in the words of kind_text; numbers and booleans as they are, so that
// "expected an integer >= 0, got -3" says which.
std::string value_text(const json& value)
{
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::string: return "a string";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    default: return value.is_number() ? value.dump() : "a value of another kind";
    }
}

std::string member_path(const std::string& path, std::string_view key)
{
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

} // namespace

bool is_kind(const json& value, JsonKind kinds)
{
    return (has(kinds, JsonKind::null) && value.is_null()) || (has(kinds, JsonKind::boolean) && value.is_boolean()) ||
           (has(kinds, JsonKind::count) &&
            (value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0))) ||
           (has(kinds, JsonKind::integer) && value.is_number_integer()) ||
           (has(kinds, JsonKind::number) && value.is_number()) || (has(kinds, JsonKind::string) && value.is_string()) ||
           (has(kinds, JsonKind::object) && value.is_object()) || (has(kinds, JsonKind::array) && value.is_array());
}

std::string kind_text(JsonKind kinds)
{
    static const std::pair<JsonKind, const char*> names[] = {
        {JsonKind::count, "an integer >= 0"}, {JsonKind::integer, "an integer"}, {JsonKind::number, "a number"},
        {JsonKind::string, "a string"},       {JsonKind::boolean, "true or false"}, {JsonKind::object, "an object"},
        {JsonKind::array, "an array"},        {JsonKind::null, "null"}};
    std::string text;
    for (const auto& [kind, name] : names)
        // The widest numeric kind speaks for the narrower ones.
        if (has(kinds, kind) && !(kind == JsonKind::count && has(kinds, JsonKind::integer | JsonKind::number)) &&
            !(kind == JsonKind::integer && has(kinds, JsonKind::number)))
            text += fmt::format("{}{}", text.empty() ? "" : " or ", name);
    return text;
}

const JsonPlace& JsonPlace::expect(JsonKind kinds) const
{
    if (!is_kind(*value_, kinds))
        fail(fmt::format("expected {}, got {}", kind_text(kinds), value_text(*value_)));
    return *this;
}

JsonPlace JsonPlace::at(std::string_view key, JsonKind kinds) const
{
    expect(JsonKind::object);
    const auto it = value_->find(std::string(key));
    if (it == value_->end())
        child(*value_, member_path(path_, key)).fail(fmt::format("missing; expected {}", kind_text(kinds)));
    JsonPlace member = child(*it, member_path(path_, key));
    member.expect(kinds);
    return member;
}

std::optional<JsonPlace> JsonPlace::find(std::string_view key, JsonKind kinds) const
{
    expect(JsonKind::object);
    const auto it = value_->find(std::string(key));
    if (it == value_->end())
        return std::nullopt;
    JsonPlace member = child(*it, member_path(path_, key));
    member.expect(kinds);
    return member;
}

std::vector<JsonPlace> JsonPlace::elements(JsonKind kinds) const
{
    expect(JsonKind::array);
    std::vector<JsonPlace> out;
    for (std::size_t i = 0; i < value_->size(); ++i) {
        out.push_back(child((*value_)[i], fmt::format("{}[{}]", path_, i)));
        out.back().expect(kinds);
    }
    return out;
}

std::vector<JsonPlace> JsonPlace::members(JsonKind kinds) const
{
    expect(JsonKind::object);
    std::vector<JsonPlace> out;
    for (const auto& [key, value] : value_->items()) {
        out.push_back(child(value, member_path(path_, key)));
        out.back().expect(kinds);
    }
    return out;
}

void JsonPlace::fail(std::string_view what) const
{
    throw JsonShapeError(path_.empty() ? fmt::format("{}: {}", *file_, what) : fmt::format("{}: {}: {}", *file_, path_, what));
}

} // namespace autotune
