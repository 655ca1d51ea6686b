// One search in progress: the budget, the evaluated set and the trace. Every strategy
// evaluates through it, so none can exceed the budget, repeat a point or leave the space.
#pragma once

#include "strategy/random_source.hpp"
#include "strategy/search_space.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

namespace autotune {

class SearchRun {
public:
    SearchRun(const SearchSpace& space, const Evaluate& evaluate, const Budget& budget);

    [[nodiscard]] const SearchSpace& space() const { return space_; }
    [[nodiscard]] std::size_t size() const { return space_.points.size(); }

    // True when no further evaluation may happen: the evaluations or the wall time are
    // spent, or every point has been evaluated. Checks the clock.
    [[nodiscard]] bool exhausted() const;
    [[nodiscard]] std::size_t evaluations_left() const;

    [[nodiscard]] bool evaluated(std::size_t point) const { return state_[point] != State::unseen; }
    // The time of an evaluated point (nullopt: failed or not evaluated).
    [[nodiscard]] std::optional<double> time_of(std::size_t point) const;

    // Evaluates an unseen point. Throws std::logic_error when the evaluations are spent,
    // the point was evaluated already or lies outside the space (a strategy's bug). The
    // wall time is not checked here but by exhausted(), which strategies ask first.
    std::optional<double> evaluate(std::size_t point);

    // A uniformly random unevaluated point (by rejection, then by a scan from a random
    // start); nullopt when every point has been evaluated.
    [[nodiscard]] std::optional<std::size_t> random_unevaluated(RandomSource& random) const;

    // The unevaluated point with the lowest guessed time (the space's guess; ties by
    // index); nullopt when the space has no guess or no unevaluated point has one.
    [[nodiscard]] std::optional<std::size_t> best_guess_unevaluated() const;

    [[nodiscard]] const SearchTrace& trace() const { return trace_; }
    [[nodiscard]] std::optional<double> best_time() const { return best_time_; }
    SearchTrace finish() { return std::move(trace_); }

private:
    enum class State : unsigned char { unseen, ok, failed };
    const SearchSpace& space_;
    const Evaluate& evaluate_;
    Budget budget_;
    std::chrono::steady_clock::time_point start_;
    std::vector<State> state_;
    std::vector<double> time_;
    SearchTrace trace_;
    std::optional<double> best_time_;
};

} // namespace autotune
