// The known name a misspelt one most likely meant ("defualt" → "default"), so an error
// can say "did you mean ...?" instead of leaving the user to compare lists.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// The name of `known` closest to `wanted` by edit distance (insertions, deletions,
// substitutions and swaps of neighbours, each 1), when it is close enough to be a typo:
// at most 1 edit for names up to 4 characters, 2 beyond. None when nothing is, or when two
// names are equally close (a guess between two would mislead).
[[nodiscard]] std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& known);

// "did you mean 'default'? " or "": the start of the parenthesis that lists the known
// names ("unknown key 'defualt' (did you mean 'default'? known: values, default)").
[[nodiscard]] std::string did_you_mean(std::string_view wanted, const std::vector<std::string>& known);

} // namespace autotune
