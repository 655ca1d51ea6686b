#include "spec/problem.hpp"

#include "spec/expression.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <sstream>

namespace autotune {

std::int64_t Problem::at(const std::string& name) const
{
    for (const auto& [n, v] : values)
        if (n == name)
            return v;
    throw ProblemError(fmt::format("no problem variable '{}'", name));
}

std::string Problem::to_string() const
{
    std::string out;
    for (const auto& [name, value] : values)
        out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, value);
    return out;
}

std::vector<std::pair<std::string, std::int64_t>> parse_problem_assignments(const std::string& text)
{
    std::vector<std::pair<std::string, std::int64_t>> out;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, ',')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
            throw ProblemError(fmt::format("--problem '{}': '{}' is not NAME=VALUE (e.g. M=1024,N=1024,K=1024)", text, part));
        const std::string name = part.substr(0, eq);
        const std::string number = part.substr(eq + 1);
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec != std::errc() || end != number.data() + number.size())
            throw ProblemError(fmt::format("--problem '{}': '{}' is not an integer", text, number));
        // M=64,M=128 is a typo either way: which one was meant is not ours to guess.
        if (std::any_of(out.begin(), out.end(), [&](const auto& earlier) { return earlier.first == name; }))
            throw ProblemError(fmt::format("--problem '{}': {} is set twice", text, name));
        out.emplace_back(name, value);
    }
    if (out.empty())
        throw ProblemError(fmt::format("--problem '{}': expected NAME=VALUE[,NAME=VALUE...]", text));
    return out;
}

Problem resolve_problem(const KernelSpec& spec, const std::vector<std::pair<std::string, std::int64_t>>& overrides)
{
    Problem problem;
    for (const auto& variable : spec.problem)
        problem.values.emplace_back(variable.name, variable.default_value);
    for (const auto& [name, value] : overrides) {
        auto it = std::find_if(problem.values.begin(), problem.values.end(),
                               // An init-capture: clang 14 (the fuzz build) cannot capture a binding.
                               [&key = name](const auto& entry) { return entry.first == key; });
        if (it == problem.values.end()) {
            std::string known;
            for (const auto& v : spec.problem)
                known += (known.empty() ? "" : ", ") + v.name;
            throw ProblemError(fmt::format("--problem: '{}' is not a problem variable of {} (known: {})", name,
                                           spec.name, known.empty() ? "none" : known));
        }
        if (value <= 0 || value > largest_exact_integer)
            throw ProblemError(fmt::format("--problem: {}={} is out of range (accepted: 1 to 2^53)", name, value));
        it->second = value;
    }
    return problem;
}

std::vector<Problem> resolve_problems(const KernelSpec& spec, const std::vector<std::string>& requested)
{
    std::vector<Problem> problems;
    if (!requested.empty()) {
        for (const auto& text : requested)
            problems.push_back(resolve_problem(spec, parse_problem_assignments(text)));
    } else if (!spec.problem_set.empty()) {
        for (const auto& assignment : spec.problem_set)
            problems.push_back(resolve_problem(spec, assignment.values));
    } else {
        problems.push_back(resolve_problem(spec, {}));
    }
    for (std::size_t i = 0; i < problems.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (problems[i].values == problems[j].values)
                throw ProblemError(fmt::format("--problem {} is named twice", problems[i].to_string()));
    return problems;
}

} // namespace autotune
