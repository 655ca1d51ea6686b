#include "emit/plot_frame.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

using json = nlohmann::ordered_json;

svg::Canvas PlotFrame::canvas() const
{
    svg::Canvas canvas(width, height);
    svg::TextStyle title_style(svg::Anchor::start, "", 15);
    title_style.bold = true;
    canvas.text(16, 24, title, title_style);
    canvas.text(16, 44, subtitle, {svg::Anchor::start, "#555"});
    return canvas;
}

PlotFrame plot_frame(const json& view, std::string_view topic)
{
    if (!view.contains("problems") || view.at("problems").empty())
        throw std::invalid_argument("results have no problems array: rerun the tuner to rank them");
    const json& problem = view.at("problems").at(0);
    if (!problem.contains("ceilings") || problem.at("ceilings").is_null())
        throw std::invalid_argument(fmt::format("results for {} have no ceilings: no device known for the arch "
                                                "(tune with --device)", view.at("arch").get<std::string>()));
    const std::string device = view.at("device").is_null()
                                   ? fmt::format("{} (datasheet, nothing measured)",
                                                 view.at("roofline_device").is_null() ? "no device"
                                                     : view.at("roofline_device").at("key").get<std::string>())
                                   : view.at("device").at("name").get<std::string>();
    std::string variables;
    for (const auto& [name, value] : problem.at("variables").items())
        variables += fmt::format("{}{}={}", variables.empty() ? "" : ", ", name, value.get<std::int64_t>());
    PlotFrame frame;
    frame.title = fmt::format("{}, {}: {}{}{}", view.at("kernel").get<std::string>(), view.at("arch").get<std::string>(),
                              variables, topic.empty() ? "" : " — ", topic);
    frame.subtitle = fmt::format("{}; ceilings from {}", device, problem.at("ceilings").at("source").get<std::string>());
    return frame;
}

} // namespace autotune
