// Variant: one assignment of every tunable parameter, with what follows from it for
// one problem (derived values, launch geometry, register policy).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

struct Dim3 {
    std::int64_t x = 1, y = 1, z = 1;
    [[nodiscard]] std::int64_t volume() const { return x * y * z; }
    friend bool operator==(const Dim3&, const Dim3&) = default;
};

// What the variant asks of the compiler about registers. At most one per-kernel
// mechanism (__launch_bounds__ or __maxnreg__: NVIDIA forbids both on one kernel);
// a file-level --maxrregcount may accompany either, as it would in a consumer build.
struct RegisterPolicy {
    std::int64_t max_threads = 0;  // __launch_bounds__ first argument, 0 = none
    std::int64_t min_blocks = 0;   // __launch_bounds__ second argument, 0 = none
    std::int64_t maxnreg = 0;      // __maxnreg__(N), 0 = none
    std::int64_t maxrregcount = 0; // --maxrregcount=N, 0 = none

    // "none", "launch_bounds", "maxnreg", "maxrregcount" or "launch_bounds+maxrregcount"...
    [[nodiscard]] std::string kind() const;
    friend bool operator==(const RegisterPolicy&, const RegisterPolicy&) = default;
};

using NamedValues = std::vector<std::pair<std::string, std::int64_t>>;

struct Variant {
    std::size_t index = 0; // position in the full space's enumeration (same in default and full runs)
    NamedValues parameters; // spec order
    NamedValues derived;    // spec order; only integral derived values are kept
    RegisterPolicy register_policy;
    Dim3 block;
    Dim3 grid;
    std::int64_t dynamic_shared_bytes = 0;

    // A parameter's or derived value's value; throws std::out_of_range naming it.
    [[nodiscard]] std::int64_t value(const std::string& name) const;
    // "BM=64,BN=64,..." in spec order: a stable, readable identity for the variant.
    [[nodiscard]] std::string key() const;
};

} // namespace autotune
