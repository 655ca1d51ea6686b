#include "tune/no_winner.hpp"

#include "util/one_line.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace autotune {

std::optional<std::string> why_no_winner(const TuningRun& run)
{
    if (run.ranking && run.ranking->winner)
        return std::nullopt;
    if (run.variants.empty())
        return "no variant to tune";
    const auto compiled = static_cast<std::size_t>(std::count_if(
        run.compiled.begin(), run.compiled.end(), [](const CompiledVariant& c) { return c.status == CompileStatus::ok; }));
    if (compiled == 0) {
        const auto first = std::find_if(run.compiled.begin(), run.compiled.end(),
                                        [](const CompiledVariant& c) { return !c.error.empty(); });
        return fmt::format("no variant compiled ({} compile errors); the first: {}", run.compiled.size(),
                           first == run.compiled.end() ? "(no message)" : one_line(first->error));
    }
    const auto failed_prediction = std::find_if(run.predictions.begin(), run.predictions.end(),
                                                [](const PredictionOutcome& p) { return !p.error.empty(); });
    if (failed_prediction != run.predictions.end())
        return fmt::format("none of the {} compiled variants can run on {}; the first: {}", compiled, run.arch,
                           one_line(failed_prediction->error));
    return fmt::format("none of the {} compiled variants was ranked", compiled);
}

std::optional<std::string> no_winner_line(const std::vector<TuningRun>& runs, const std::string& spec)
{
    const TuningRun* first = nullptr;
    std::optional<std::string> why_first;
    std::size_t without = 0;
    for (const auto& run : runs)
        if (auto why = why_no_winner(run)) {
            if (!first) {
                first = &run;
                why_first = std::move(why);
            }
            ++without;
        }
    if (!first)
        return std::nullopt;
    const std::string more =
        without > 1 ? fmt::format(" (and {} more of the {} problems)", without - 1, runs.size()) : "";
    // A spec without problem variables (a T1 file whose sizes are fixed) has no problem to name.
    const std::string problem = first->problem.to_string();
    return fmt::format("{}: no winner for {}{}{}: {}", spec, first->arch, problem.empty() ? "" : ", problem " + problem,
                       more, *why_first);
}

} // namespace autotune
