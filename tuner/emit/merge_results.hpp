// `autotune merge`: the parts of a sharded run (--shard I/N) combined into the document an
// unsharded run writes — the same variants in the same order, duplicates grouped across
// the whole space, the ranking and the winner redone over all of them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// Throws std::invalid_argument naming the part and the problem: parts of different runs,
// a shard missing or given twice, a variant in two parts.
[[nodiscard]] nlohmann::ordered_json merge_results(const std::vector<nlohmann::ordered_json>& parts,
                                                   const std::vector<std::string>& paths);

} // namespace autotune
