// What `autotune merge` checks before it merges: that its parts are the shards of one
// run's space (--shard I/N), each shard once, and that together they hold every variant
// of it. A part that lost variants (a truncated or edited file) would otherwise merge
// into a smaller space silently; each finding names the part (its file) at fault.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// One problem's view of each part (problem_views.hpp), and the part's file.
struct ShardPart {
    const nlohmann::ordered_json* view = nullptr;
    std::string path;
};

// The parts are of one run and of one problem: the same kernel, spec (and its digest),
// arch, compiler, device, problem, space and shard count; each shard index once, none
// missing. Throws std::invalid_argument naming the first part that differs from the first
// part, or the shard that is missing or given twice.
void check_same_sharded_run(const std::vector<ShardPart>& parts);

// The parts together hold the space whose valid variants are `space_indices` (in the
// space's order, as enumerated from the spec now), each shard the variants it was given:
// every N-th from the I-th. A part's launch-bound sweep may add variants of its own.
// Throws std::invalid_argument naming the part, the shard and the indices it lacks, or a
// variant no shard of the space holds.
void check_shards_complete(const std::vector<ShardPart>& parts, const std::vector<std::size_t>& space_indices);

} // namespace autotune
