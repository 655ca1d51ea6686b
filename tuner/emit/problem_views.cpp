#include "emit/problem_views.hpp"

#include <fmt/format.h>
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

} // namespace autotune
