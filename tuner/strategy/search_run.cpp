#include "strategy/search_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace autotune {

SearchRun::SearchRun(const SearchSpace& space, const Evaluate& evaluate, const Budget& budget)
    : space_(space), evaluate_(evaluate), budget_(budget), start_(std::chrono::steady_clock::now()),
      state_(space.points.size(), State::unseen), time_(space.points.size(), 0.0)
{
    budget_.max_evaluations = budget.evaluations_for(space.points.size()); // a percentage becomes a count here
}

bool SearchRun::exhausted() const
{
    if (trace_.evaluated.size() >= budget_.max_evaluations || trace_.evaluated.size() >= state_.size())
        return true;
    if (budget_.max_seconds < std::numeric_limits<double>::infinity()) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
        if (!(elapsed.count() < budget_.max_seconds))
            return true;
    }
    return false;
}

std::size_t SearchRun::evaluations_left() const
{
    const std::size_t used = trace_.evaluated.size();
    const std::size_t by_budget = budget_.max_evaluations > used ? budget_.max_evaluations - used : 0;
    return std::min(by_budget, state_.size() - used);
}

std::optional<std::size_t> SearchRun::best_guess_unevaluated() const
{
    std::optional<std::size_t> best;
    for (std::size_t p = 0; p < space_.guess.size(); ++p)
        if (state_[p] == State::unseen && !std::isnan(space_.guess[p]) && (!best || space_.guess[p] < space_.guess[*best]))
            best = p;
    return best;
}

std::optional<double> SearchRun::time_of(std::size_t point) const
{
    if (point < state_.size() && state_[point] == State::ok)
        return time_[point];
    return std::nullopt;
}

std::optional<std::size_t> SearchRun::random_unevaluated(RandomSource& random) const
{
    if (trace_.evaluated.size() >= state_.size())
        return std::nullopt;
    for (int attempt = 0; attempt < 64; ++attempt)
        if (const std::size_t p = random.below(state_.size()); state_[p] == State::unseen)
            return p;
    const std::size_t start = random.below(state_.size());
    for (std::size_t i = 0; i < state_.size(); ++i)
        if (const std::size_t p = (start + i) % state_.size(); state_[p] == State::unseen)
            return p;
    return std::nullopt;
}

std::optional<double> SearchRun::evaluate(std::size_t point)
{
    if (point >= state_.size())
        throw std::logic_error("strategy proposed point " + std::to_string(point) + " outside a space of " +
                               std::to_string(state_.size()));
    if (state_[point] != State::unseen)
        throw std::logic_error("strategy proposed point " + std::to_string(point) + " twice");
    // Only the evaluation count is enforced here: the wall time is checked by exhausted(),
    // and a strategy that found time left there may spend a moment choosing (fitting its
    // model) before it evaluates; refusing that evaluation would turn a deadline into a crash.
    if (trace_.evaluated.size() >= budget_.max_evaluations)
        throw std::logic_error("strategy evaluated past its budget");
    std::optional<double> t = evaluate_(point);
    if (t && !(*t >= 0 && *t < std::numeric_limits<double>::infinity()))
        t.reset(); // a NaN, negative or infinite time is no answer
    state_[point] = t ? State::ok : State::failed;
    if (t)
        time_[point] = *t;
    trace_.evaluated.push_back(point);
    trace_.times.push_back(t);
    if (t && (!best_time_ || *t < *best_time_)) {
        best_time_ = t;
        trace_.best = point;
    }
    return t;
}

} // namespace autotune
