// Errors the CLI maps to exit codes: bad usage or bad input is 2, anything that went
// wrong while running is 1. Messages are one line naming the input.
#pragma once

#include <stdexcept>

namespace autotune::cli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

constexpr int exit_ok = 0;
constexpr int exit_failed = 1;
constexpr int exit_bad_input = 2;

} // namespace autotune::cli
