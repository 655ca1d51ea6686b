// Problem: the values of a kernel's problem variables for one tuning run (the spec's
// defaults, overridden by --problem M=1024,N=1024).
#pragma once

#include "spec/kernel_spec.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

struct Problem {
    std::vector<std::pair<std::string, std::int64_t>> values; // in spec order

    [[nodiscard]] std::int64_t at(const std::string& name) const;
    // "M=4096,N=4096,K=4096": the canonical spelling, used in names and results.
    [[nodiscard]] std::string to_string() const;
};

class ProblemError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses "M=1024,N=512" into name/value pairs; throws ProblemError naming the bad part
// (and a name set twice).
[[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> parse_problem_assignments(const std::string& text);

// The spec's defaults with `overrides` applied; every override must name a problem
// variable of the spec and be positive.
[[nodiscard]] Problem resolve_problem(const KernelSpec& spec,
                                      const std::vector<std::pair<std::string, std::int64_t>>& overrides);

// The problems a run tunes: each of `requested` ("M=1024,N=512", over the defaults) when
// there are any, else the spec's [[problems]], else its defaults alone. Throws
// ProblemError naming the text when one is bad or two are the same problem.
[[nodiscard]] std::vector<Problem> resolve_problems(const KernelSpec& spec, const std::vector<std::string>& requested);

} // namespace autotune
