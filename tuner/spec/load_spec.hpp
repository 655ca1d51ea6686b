// Reading a kernel spec file (TOML). The format is documented in kernels/README.md;
// built-in kernels and users' kernels go through this one reader.
#pragma once

#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <filesystem>
#include <stdexcept>

namespace autotune {

// A spec that cannot be read or is inconsistent; the message starts with the file
// (and line, where known) and says what is wrong.
class SpecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A spec's error found for one problem (an expression that fails for its values, a size or
// a scalar out of range): "<spec file>: problem M=1024,N=512: <what>".
[[nodiscard]] SpecError spec_problem_error(const KernelSpec& spec, const Problem& problem, const std::string& what);

[[nodiscard]] KernelSpec load_spec(const std::filesystem::path& path);

// Checks a spec just read, of either format: its expressions (validate_spec) and the ranges
// of its values (spec_ranges.hpp). Throws SpecError naming the spec file.
void check_loaded_spec(const KernelSpec& spec);

// Checks every expression of the spec against the names it may use, so a typo is
// reported when the spec is loaded. load_spec calls it; exposed for tests.
void validate_spec(const KernelSpec& spec);

} // namespace autotune
