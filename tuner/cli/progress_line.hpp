// Progress of a long run on stderr: on a terminal a one-line counter redrawn in place
// ("[ 37/150] compiling gemm for sm_90"); elsewhere (CI logs, `| tee`, --json) a line at
// each tenth of the work or every 15 s (util/progress_throttle.hpp); nothing with --quiet.
#pragma once

#include "util/progress_throttle.hpp"

#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

namespace autotune::cli {

enum class ProgressStyle { terminal, log, quiet };

// terminal when stderr is one and stdout is not JSON, else log; quiet when asked.
[[nodiscard]] ProgressStyle progress_style(bool quiet, bool json_output);

class ProgressLine {
public:
    ProgressLine(ProgressStyle style, std::string label, std::ostream& out);
    void update(std::size_t done, std::size_t total);
    void finish(); // clears the terminal line
    void relabel(std::string label); // a new phase: the log's clock starts over, the note is cleared
    // Said after the counter in the lines that follow, until the next phase (", 37 compile
    // errors so far"): a run whose variants all fail shows it while it goes on.
    void note(std::string text);
    // A line to read among the progress (a warning): on a terminal it replaces the
    // counter, which the next update draws again below it.
    void say(const std::string& line);

private:
    ProgressStyle style_;
    std::string label_;
    std::string note_;
    std::ostream& out_;
    ProgressThrottle throttle_;
    std::mutex mutex_;
};

// For CompileSettings::failed: the count of variants that did not compile, as the note.
[[nodiscard]] std::function<void(std::size_t)> compile_errors_note(ProgressLine& progress);

} // namespace autotune::cli
