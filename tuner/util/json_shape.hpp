// Checking the shape of a JSON document a user may have edited: each value is reached
// through its JSON path ("problems[0].variants[3].registers"), so the first value that is
// not what a reader expects is named by file and path in one line, instead of surfacing
// later as a JSON library's "type must be number, but is string".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// "FILE: PATH: what is wrong", one line.
class JsonShapeError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// What a value may be; combined with |. `count` is an integer >= 0.
enum class JsonKind : unsigned {
    null = 1u << 0,
    boolean = 1u << 1,
    count = 1u << 2,
    integer = 1u << 3,
    number = 1u << 4,
    string = 1u << 5,
    object = 1u << 6,
    array = 1u << 7,
};

[[nodiscard]] constexpr JsonKind operator|(JsonKind a, JsonKind b)
{
    return static_cast<JsonKind>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

// Whether `value` is one of `kinds`.
[[nodiscard]] bool is_kind(const nlohmann::ordered_json& value, JsonKind kinds);

// "an integer >= 0 or null": `kinds` in words.
[[nodiscard]] std::string kind_text(JsonKind kinds);

// A value of a document under check, with its path; the document must outlive it.
class JsonPlace {
public:
    JsonPlace(const nlohmann::ordered_json& value, std::string path, const std::string& file)
        : value_(&value), path_(std::move(path)), file_(&file) {}

    [[nodiscard]] const nlohmann::ordered_json& value() const { return *value_; }
    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] bool is_null() const { return value_->is_null(); }

    // This value, which must be of `kinds`.
    const JsonPlace& expect(JsonKind kinds) const;
    // The checks are what the calls are for; their results are for looking further in.
    // The member `key` of this object: present and of `kinds`.
    JsonPlace at(std::string_view key, JsonKind kinds) const;
    // The member `key` when present (then of `kinds`); nullopt when absent.
    std::optional<JsonPlace> find(std::string_view key, JsonKind kinds) const;
    // The elements of this array, each of `kinds`.
    std::vector<JsonPlace> elements(JsonKind kinds) const;
    // The members of this object, each of `kinds`.
    std::vector<JsonPlace> members(JsonKind kinds) const;

    // Throws JsonShapeError "FILE: PATH: what".
    [[noreturn]] void fail(std::string_view what) const;

private:
    [[nodiscard]] JsonPlace child(const nlohmann::ordered_json& value, std::string path) const
    {
        return JsonPlace(value, std::move(path), *file_);
    }

    const nlohmann::ordered_json* value_;
    std::string path_;
    const std::string* file_;
};

} // namespace autotune
