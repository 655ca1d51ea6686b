// When a progress line is worth printing where nobody watches a terminal (CI logs, `| tee`,
// --json): at each further tenth of the work, or after 15 s without a line while work goes
// on, and once at the end. A terminal gets a redrawn counter instead (cli/progress_line).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace autotune {

class ProgressThrottle {
public:
    using Clock = std::chrono::steady_clock;

    explicit ProgressThrottle(Clock::time_point start, std::chrono::seconds period = std::chrono::seconds(15),
                              double step = 0.1);

    // The line for `done` of `total` at `now` ("compiling gemm for sm_90: 37/150 (24%),
    // 12 s elapsed, about 38 s left"), or nullopt when the last one was too recent.
    [[nodiscard]] std::optional<std::string> update(std::size_t done, std::size_t total, Clock::time_point now,
                                                    const std::string& label);

    // A new phase (another problem, compiling → measuring): its clock and steps start over.
    void restart(Clock::time_point now);

private:
    Clock::time_point start_;
    Clock::time_point last_line_;
    std::chrono::seconds period_;
    double step_;
    std::optional<std::size_t> last_done_; // done at the last line printed in this phase
};

} // namespace autotune
