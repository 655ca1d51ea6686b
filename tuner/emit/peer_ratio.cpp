#include "emit/peer_ratio.hpp"

#include "emit/problem_views.hpp"

#include <cmath>
#include <fmt/format.h>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

std::optional<double> positive(const json& object, const char* field)
{
    if (!object.is_object() || !object.contains(field) || !object.at(field).is_number())
        return std::nullopt;
    const double value = object.at(field).get<double>();
    if (!std::isfinite(value) || value <= 0)
        return std::nullopt;
    return value;
}

void check_peers(const json& peers, const std::string& source)
{
    const auto bad = [&](const std::string& why) {
        return PeerInputError(fmt::format("'{}' is not a peers document: {}", source, why));
    };
    if (!peers.is_object() || !peers.contains("peers") || !peers.at("peers").is_array())
        throw bad("no \"peers\" list");
    std::size_t i = 0;
    for (const json& p : peers.at("peers")) {
        if (!p.is_object() || !p.contains("kernel") || !p.at("kernel").is_string())
            throw bad(fmt::format("peers[{}] has no kernel", i));
        if (!p.contains("problem") || !p.at("problem").is_object())
            throw bad(fmt::format("peers[{}] has no problem", i));
        if (!p.contains("peer") || !p.at("peer").is_string())
            throw bad(fmt::format("peers[{}] has no peer", i));
        if (!positive(p, "median_seconds"))
            throw bad(fmt::format("peers[{}] has no positive median_seconds", i));
        ++i;
    }
}

// The same variables, in whatever order each document lists them.
bool same_variables(const json& a, const json& b)
{
    if (!a.is_object() || !b.is_object() || a.size() != b.size())
        return false;
    for (const auto& [name, value] : a.items())
        if (!b.contains(name) || b.at(name) != value)
            return false;
    return true;
}

// The measured median of the problem's winner in a one-problem view.
void fill_winner(const json& view, const json& problem, PeerComparison& c)
{
    if (!problem.contains("winner") || !problem.at("winner").is_object())
        return;
    const json& winner = problem.at("winner");
    if (!winner.contains("index") || !winner.at("index").is_number_integer())
        return;
    c.winner_index = winner.at("index").get<std::int64_t>();
    if (winner.contains("basis") && winner.at("basis") != "measured")
        return;
    for (const json& v : view.at("variants")) {
        if (!v.is_object() || !v.contains("index") || v.at("index") != winner.at("index"))
            continue;
        if (v.contains("status") && v.at("status") != "ok")
            return;
        if (!v.contains("measurement") || !v.at("measurement").is_object())
            return;
        if (const json& m = v.at("measurement"); m.contains("time_seconds"))
            c.winner_seconds = positive(m.at("time_seconds"), "median");
        return;
    }
}

} // namespace

std::vector<PeerComparison> compare_with_peers(const json& results, const json& peers,
                                               const std::string& results_source, const std::string& peers_source)
{
    check_peers(peers, peers_source);
    const auto bad = [&](const std::string& why) {
        return PeerInputError(fmt::format("'{}' is not an autotune results file: {}", results_source, why));
    };
    if (!results.is_object() || !results.contains("kernel") || !results.at("kernel").is_string())
        throw bad("no kernel");
    if (!results.contains("problems") || !results.at("problems").is_array())
        throw bad("no problems");
    if (!results.contains("variants") || !results.at("variants").is_array())
        throw bad("no variants");
    const auto kernel = results.at("kernel").get<std::string>();
    std::vector<json> views;
    try {
        views = problem_views(results);
    } catch (const std::exception& e) {
        throw bad(e.what());
    }
    std::vector<PeerComparison> out;
    for (const json& view : views) {
        if (view.at("problems").empty())
            continue;
        const json& problem = view.at("problems").at(0);
        if (!problem.is_object() || !problem.contains("variables"))
            throw bad("a problem without variables");
        const json& variables = problem.at("variables");
        for (const json& p : peers.at("peers")) {
            if (p.at("kernel") != kernel || !same_variables(p.at("problem"), variables))
                continue;
            PeerComparison c;
            c.kernel = kernel;
            c.problem = variables;
            c.peer = p.at("peer").get<std::string>();
            c.peer_seconds = *positive(p, "median_seconds");
            fill_winner(view, problem, c);
            if (c.winner_seconds)
                c.ratio = c.peer_seconds / *c.winner_seconds;
            out.push_back(std::move(c));
        }
    }
    return out;
}

} // namespace autotune
