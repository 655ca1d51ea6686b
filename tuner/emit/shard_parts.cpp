#include "emit/shard_parts.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>
#include <stdexcept>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

// A field of a view by JSON pointer ("/space/valid"); null where it is absent.
json field_of(const json& view, const std::string& pointer)
{
    const json::json_pointer at(pointer);
    return view.contains(at) ? view.at(at) : json();
}

// A value short enough for a one-line message.
std::string shown(const json& value)
{
    std::string text = value.is_null() ? "none" : value.dump();
    return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

// "space.valid" for "/space/valid".
std::string json_path_of(std::string pointer)
{
    std::replace(pointer.begin(), pointer.end(), '/', '.');
    return pointer.substr(1);
}

std::size_t shard_index(const ShardPart& part) { return part.view->at("shard").at("index").get<std::size_t>(); }
std::size_t shard_count(const ShardPart& part) { return part.view->at("shard").at("count").get<std::size_t>(); }

// "4, 7, 10" — at most 20 of them, then how many more.
std::string index_list(const std::vector<std::size_t>& indices)
{
    constexpr std::size_t shown_at_most = 20;
    const std::vector<std::size_t> head(indices.begin(), indices.begin() + std::min(indices.size(), shown_at_most));
    return indices.size() <= shown_at_most ? fmt::format("{}", fmt::join(head, ", "))
                                           : fmt::format("{} and {} more", fmt::join(head, ", "), indices.size() - shown_at_most);
}

std::set<std::size_t> indices_of(const ShardPart& part)
{
    std::set<std::size_t> indices;
    for (const auto& v : part.view->at("variants"))
        indices.insert(v.at("index").get<std::size_t>());
    return indices;
}

// The variants a part's launch-bound search added to its share (--launch-bounds).
std::set<std::size_t> swept_indices(const ShardPart& part)
{
    std::set<std::size_t> swept;
    for (const auto& search : part.view->value("launch_bound_search", json::array()))
        for (const auto& index : search.value("sweep", json::array()))
            if (index.is_number_unsigned() || index.is_number_integer())
                swept.insert(index.get<std::size_t>());
    return swept;
}

// Every N-th of the space's variants from the I-th: what shard I of N was given.
std::set<std::size_t> share_of(const std::vector<std::size_t>& space, std::size_t index, std::size_t count)
{
    std::set<std::size_t> share;
    for (std::size_t p = index; p < space.size(); p += count)
        share.insert(space[p]);
    return share;
}

// The whole space was sharded: each part must hold exactly its share.
void check_whole_space_shares(const std::vector<ShardPart>& parts, const std::vector<std::size_t>& space)
{
    const std::set<std::size_t> valid(space.begin(), space.end());
    for (const auto& part : parts) {
        const std::size_t i = shard_index(part), n = shard_count(part);
        const std::set<std::size_t> share = share_of(space, i, n);
        const std::set<std::size_t> present = indices_of(part);
        const std::set<std::size_t> swept = swept_indices(part);
        std::vector<std::size_t> missing, foreign;
        std::set_difference(share.begin(), share.end(), present.begin(), present.end(), std::back_inserter(missing));
        for (const std::size_t index : present)
            if (!share.count(index) && !swept.count(index))
                foreign.push_back(index);
        if (!missing.empty())
            throw std::invalid_argument(fmt::format("{}: shard {} of {} lacks {} of its {} variants: {}", part.path, i, n,
                                                    missing.size(), share.size(), index_list(missing)));
        if (!foreign.empty())
            throw std::invalid_argument(fmt::format(
                "{}: shard {} of {} holds variants that are not its share of the space: {}{}", part.path, i, n,
                index_list(foreign),
                valid.count(foreign.front()) ? "" : " (not a valid variant of the space as the spec has it now)"));
    }
}

// A chosen part of the space was sharded (--variants), which the parts do not record:
// each part holds what its space.valid counts, every index is a valid variant, and in
// index order the parts take turns, shard 0 first.
void check_selection_shares(const std::vector<ShardPart>& parts, const std::vector<std::size_t>& space)
{
    const std::set<std::size_t> valid(space.begin(), space.end());
    std::map<std::size_t, const ShardPart*> owner; // a variant of the chosen space → its part
    for (const auto& part : parts) {
        const std::size_t held = part.view->at("variants").size();
        const std::size_t counted = part.view->at("space").at("valid").get<std::size_t>();
        if (held != counted)
            throw std::invalid_argument(fmt::format("{}: shard {} of {} holds {} variants, but its space.valid counts {}: "
                                                    "variants were lost",
                                                    part.path, shard_index(part), shard_count(part), held, counted));
        const std::set<std::size_t> swept = swept_indices(part);
        for (const std::size_t index : indices_of(part)) {
            if (swept.count(index))
                continue;
            if (!valid.count(index))
                throw std::invalid_argument(fmt::format("{}: variant {} is not a valid variant of the space as the spec "
                                                        "has it now",
                                                        part.path, index));
            owner.emplace(index, &part);
        }
    }
    std::size_t position = 0;
    std::size_t previous = 0;
    for (const auto& [index, part] : owner) {
        const std::size_t n = shard_count(*part);
        if (shard_index(*part) != position % n) {
            const auto expected = std::find_if(parts.begin(), parts.end(),
                                               [&](const ShardPart& p) { return shard_index(p) == position % n; });
            throw std::invalid_argument(fmt::format("{}: shard {} of {} lacks a variant between {} and {}: its variants "
                                                    "and the other parts' do not take turns",
                                                    expected->path, position % n, n, position == 0 ? "the first" : std::to_string(previous),
                                                    index));
        }
        previous = index;
        ++position;
    }
}

} // namespace

void check_same_sharded_run(const std::vector<ShardPart>& parts)
{
    for (const auto& part : parts)
        if (part.view->value("shard", json()).is_null())
            throw std::invalid_argument(fmt::format("{}: not a shard's part (it has no 'shard')", part.path));
    const ShardPart& first = parts.front();
    for (const auto& part : parts)
        for (const char* field : {"/kernel", "/spec", "/spec_sha256", "/arch", "/compiler", "/nvrtc_version",
                                  "/compile_options_added", "/device", "/problem",
                                  "/exact_problem_variables", "/space/selection", "/space/combinations",
                                  "/space/removed", "/shard/count"})
            if (const json mine = field_of(*part.view, field), theirs = field_of(*first.view, field); mine != theirs)
                throw std::invalid_argument(fmt::format("{}: {} is {}, but {} in {}: the parts are not of one sharded run",
                                                        part.path, json_path_of(field), shown(mine),
                                                        shown(theirs), first.path));
    const std::size_t count = shard_count(first);
    std::map<std::size_t, const ShardPart*> by_shard;
    for (const auto& part : parts)
        if (const auto [it, fresh] = by_shard.emplace(shard_index(part), &part); !fresh)
            throw std::invalid_argument(fmt::format("{}: shard {} is given twice (also {})", part.path, shard_index(part),
                                                    it->second->path));
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < count; ++i)
        if (!by_shard.count(i))
            missing.push_back(i);
    if (!missing.empty())
        throw std::invalid_argument(fmt::format("the parts hold {} of the {} shards: shard{} {} of {} {} missing",
                                                by_shard.size(), count, missing.size() == 1 ? "" : "s",
                                                index_list(missing), count, missing.size() == 1 ? "is" : "are"));
}

void check_shards_complete(const std::vector<ShardPart>& parts, const std::vector<std::size_t>& space)
{
    // The whole space when the parts' own counts, less what their launch-bound searches
    // added, come to it; else a chosen part of it (--variants).
    std::size_t counted = 0;
    for (const auto& part : parts) {
        const std::set<std::size_t> share = share_of(space, shard_index(part), shard_count(part));
        const std::set<std::size_t> present = indices_of(part);
        std::size_t added = 0;
        for (const std::size_t index : swept_indices(part))
            added += !share.count(index) && present.count(index);
        const std::size_t valid = part.view->at("space").at("valid").get<std::size_t>();
        counted += valid > added ? valid - added : 0;
    }
    if (counted == space.size())
        check_whole_space_shares(parts, space);
    else
        check_selection_shares(parts, space);
}

} // namespace autotune
