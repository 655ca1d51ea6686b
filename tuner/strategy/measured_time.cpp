#include "strategy/measured_time.hpp"

#include <cmath>

namespace autotune {

using json = nlohmann::ordered_json;

std::optional<double> measured_time(const json& variant, MeasuredFigure figure)
{
    if (!variant.contains("status") || variant.at("status") != "ok")
        return std::nullopt;
    const auto m = variant.find("measurement");
    if (m == variant.end() || !m->is_object())
        return std::nullopt;
    const json* value = nullptr;
    if (figure == MeasuredFigure::objective && m->contains("objective_seconds"))
        value = &m->at("objective_seconds");
    else if (const auto t = m->find("time_seconds"); t != m->end() && t->is_object() && t->contains("median"))
        value = &t->at("median");
    if (value == nullptr || !value->is_number())
        return std::nullopt;
    const double seconds = value->get<double>();
    if (!std::isfinite(seconds) || seconds <= 0)
        return std::nullopt;
    return seconds;
}

} // namespace autotune
