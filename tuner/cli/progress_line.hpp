// A one-line progress counter on a terminal ("[ 37/150] compiling gemm for sm_90"),
// redrawn in place; silent when output is not a terminal.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace autotune::cli {

class ProgressLine {
public:
    ProgressLine(bool enabled, std::string label);
    void update(std::size_t done, std::size_t total);
    void finish(); // clears the line
    void relabel(std::string label);

private:
    bool enabled_;
    std::string label_;
    std::mutex mutex_;
};

} // namespace autotune::cli
