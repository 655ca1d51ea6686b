#include "emit/plotted_variants.hpp"

#include <algorithm>
#include <cstdint>

namespace autotune {

using json = nlohmann::ordered_json;

std::vector<PlottedVariant> plotted_variants(const json& view, bool bandwidth_view)
{
    std::vector<PlottedVariant> out;
    const json& problem = view.at("problems").at(0);
    const std::size_t winner = problem.at("winner").is_null() ? SIZE_MAX : problem.at("winner").at("index").get<std::size_t>();
    const double flops = problem.at("flops").get<double>();
    const double bytes = problem.at("bytes").get<double>();
    const json& ceilings = problem.at("ceilings");
    const double bound_seconds = std::max(flops / (ceilings.at("compute_gflops").get<double>() * 1e9),
                                          bytes / (ceilings.at("bandwidth_gbs").get<double>() * 1e9));
    const double work = bandwidth_view ? bytes : flops;
    for (const auto& v : view.at("variants")) {
        if (v.value("rank", json()).is_null())
            continue;
        PlottedVariant p;
        p.index = v.at("index").get<std::size_t>();
        p.winner = p.index == winner;
        p.registers = v.value("registers", json()).is_null() ? 0 : v.at("registers").get<int>();
        p.policy = v.contains("register_policy") ? v.at("register_policy").at("kind").get<std::string>() : "none";
        // Predicted: the model's fraction of the least time the ceilings allow.
        p.predicted = work / (bound_seconds / std::max(v.at("predicted_fraction").get<double>(), 1e-9)) / 1e9;
        const json& achieved = v.value(bandwidth_view ? "gbps" : "gflops", json());
        if (!v.value("roofline_fraction", json()).is_null() && !achieved.is_null())
            p.measured = achieved.get<double>();
        if (p.shown() > 0)
            out.push_back(std::move(p));
    }
    return out;
}

} // namespace autotune
