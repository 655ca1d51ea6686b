#include "cli/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace autotune::cli {

ProgressStyle progress_style(bool quiet, bool json_output)
{
    if (quiet)
        return ProgressStyle::quiet;
    return !json_output && isatty(STDERR_FILENO) ? ProgressStyle::terminal : ProgressStyle::log;
}

ProgressLine::ProgressLine(ProgressStyle style, std::string label, std::ostream& out)
    : style_(style), label_(std::move(label)), out_(out), throttle_(ProgressThrottle::Clock::now())
{
}

void ProgressLine::update(std::size_t done, std::size_t total)
{
    std::lock_guard lock(mutex_);
    if (style_ == ProgressStyle::terminal) {
        out_ << fmt::format("\r[{:>{}}/{}] {}{}", done, std::to_string(total).size(), total, label_, note_)
             << std::flush;
    } else if (style_ == ProgressStyle::log) {
        if (const auto line = throttle_.update(done, total, ProgressThrottle::Clock::now(), label_))
            out_ << "autotune: " << *line << note_ << "\n" << std::flush;
    }
}

void ProgressLine::note(std::string text)
{
    std::lock_guard lock(mutex_);
    note_ = std::move(text);
}

void ProgressLine::relabel(std::string label)
{
    std::lock_guard lock(mutex_);
    label_ = std::move(label);
    note_.clear();
    throttle_.restart(ProgressThrottle::Clock::now());
}

void ProgressLine::say(const std::string& line)
{
    std::lock_guard lock(mutex_);
    out_ << (style_ == ProgressStyle::terminal ? "\r\033[K" : "") << line << "\n" << std::flush;
}

void ProgressLine::finish()
{
    std::lock_guard lock(mutex_);
    if (style_ == ProgressStyle::terminal)
        out_ << "\r\033[K" << std::flush;
}

std::function<void(std::size_t)> compile_errors_note(ProgressLine& progress)
{
    return [&progress](std::size_t failed) {
        progress.note(fmt::format(", {} compile error{} so far", failed, failed == 1 ? "" : "s"));
    };
}

} // namespace autotune::cli
