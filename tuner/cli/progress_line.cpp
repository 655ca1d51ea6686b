#include "cli/progress_line.hpp"

#include <fmt/format.h>
#include <iostream>

namespace autotune::cli {

ProgressLine::ProgressLine(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}

void ProgressLine::update(std::size_t done, std::size_t total)
{
    if (!enabled_)
        return;
    std::lock_guard lock(mutex_);
    std::cerr << fmt::format("\r[{:>{}}/{}] {}", done, std::to_string(total).size(), total, label_) << std::flush;
}

void ProgressLine::relabel(std::string label)
{
    std::lock_guard lock(mutex_);
    label_ = std::move(label);
}

void ProgressLine::finish()
{
    if (enabled_)
        std::cerr << "\r\033[K" << std::flush;
}

} // namespace autotune::cli
