#include "util/progress_throttle.hpp"

#include <cmath>
#include <fmt/format.h>

namespace autotune {

ProgressThrottle::ProgressThrottle(Clock::time_point start, std::chrono::seconds period, double step)
    : start_(start), last_line_(start), period_(period), step_(step)
{
}

void ProgressThrottle::restart(Clock::time_point now)
{
    start_ = now;
    last_line_ = now;
    last_done_.reset();
}

std::optional<std::string> ProgressThrottle::update(std::size_t done, std::size_t total, Clock::time_point now,
                                                    const std::string& label)
{
    if (total == 0 || (last_done_ && done <= *last_done_))
        return std::nullopt;
    const auto step = static_cast<std::size_t>(std::ceil(step_ * static_cast<double>(total)));
    const std::size_t since = done - last_done_.value_or(0);
    const bool finished = done >= total;
    if (!finished && since < std::max<std::size_t>(step, 1) && now - last_line_ < period_)
        return std::nullopt;
    last_done_ = done;
    last_line_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::string line = fmt::format("{}: {}/{} ({:.0f}%), {:.0f} s elapsed", label, done, total,
                                   100.0 * static_cast<double>(done) / static_cast<double>(total), elapsed);
    if (!finished && done > 0)
        line += fmt::format(", about {:.0f} s left",
                            elapsed * static_cast<double>(total - done) / static_cast<double>(done));
    return line;
}

} // namespace autotune
