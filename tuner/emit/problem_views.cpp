#include "emit/problem_views.hpp"

#include "emit/assignments_text.hpp"
#include "spec/problem.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

namespace autotune {

using json = nlohmann::ordered_json;

const std::vector<const char*>& per_problem_fields()
{
    static const std::vector<const char*> fields{"problem", "space", "pruning", "search",
                                                 "launch_bound_search", "variants"};
    return fields;
}

json combine_problem_views(const std::vector<json>& views)
{
    if (views.empty())
        throw std::invalid_argument("a results document needs at least one problem");
    json document = views.front();
    bool measured = document.value("measured", false);
    for (std::size_t k = 1; k < views.size(); ++k) {
        const json& view = views[k];
        json entry = view.at("problems").at(0);
        for (const char* field : per_problem_fields())
            if (view.contains(field))
                entry[field] = view.at(field);
        document["problems"].push_back(std::move(entry));
        measured = measured || view.value("measured", false);
    }
    // The run measured something if any problem did; each problem's entry says which.
    document["measured"] = measured;
    return document;
}

std::vector<json> problem_views(const json& document)
{
    std::vector<json> views;
    if (!document.contains("problems") || !document.at("problems").is_array() || document.at("problems").size() <= 1) {
        views.push_back(document);
        return views;
    }
    const json& problems = document.at("problems");
    json first = document;
    first["problems"] = json::array({problems.at(0)});
    first["measured"] = problems.at(0).value("measured", document.value("measured", false));
    views.push_back(std::move(first));
    json common = document;
    for (const char* field : per_problem_fields())
        common.erase(field);
    for (std::size_t k = 1; k < problems.size(); ++k) {
        json entry = problems.at(k);
        if (!entry.contains("variants"))
            throw std::invalid_argument(fmt::format("problems[{}] has no variants: not a results document of this "
                                                    "version", k));
        json view = common;
        for (const char* field : per_problem_fields())
            if (entry.contains(field)) {
                view[field] = entry.at(field);
                entry.erase(field);
            }
        view["measured"] = entry.value("measured", false);
        view["problems"] = json::array({std::move(entry)});
        views.push_back(std::move(view));
    }
    return views;
}

std::string problem_view_text(const json& view)
{
    return view.contains("problem") ? assignments_text(view.at("problem")) : std::string("(no problem recorded)");
}

json chosen_problem_view(const json& document, const std::string& wanted, const std::string& path)
{
    const std::vector<json> views = problem_views(document);
    std::vector<std::string> known;
    for (const auto& view : views)
        known.push_back(problem_view_text(view));
    const auto list = fmt::format("{}", fmt::join(known, " | "));
    if (wanted.empty()) {
        if (views.size() == 1)
            return views.front();
        throw std::invalid_argument(fmt::format("{} holds {} problems; name one with --problem ({})", path,
                                                views.size(), list));
    }
    const auto assignments = parse_problem_assignments(wanted);
    for (const auto& view : views) {
        const json& problem = view.value("problem", json::object());
        const bool matches = std::all_of(assignments.begin(), assignments.end(), [&](const auto& a) {
            return problem.contains(a.first) && problem.at(a.first) == a.second;
        });
        if (matches)
            return view;
    }
    throw std::invalid_argument(fmt::format("{} has no problem {} (it has: {})", path, wanted, list));
}

} // namespace autotune
