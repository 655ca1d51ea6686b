// The space stage: every valid Variant of a KernelSpec for one problem, in a
// deterministic order (parameters nested in spec order, the last varying fastest).
#pragma once

#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace autotune {

enum class SpaceSelection { default_space, full };

// How many combinations one rule removed; each combination is counted once, by the
// first rule that rejects it.
struct RuleRemoval {
    std::string rule;
    std::size_t removed = 0;
};

struct Space {
    std::vector<Variant> variants;
    std::size_t combinations = 0; // size of the cartesian product before any rule
    std::size_t valid = 0;        // valid variants, however many of them `variants` holds
    std::vector<RuleRemoval> removals;
};

// Throws ExpressionError (naming the expression) when an expression cannot be
// evaluated for some combination, e.g. a geometry that is not an integer.
[[nodiscard]] Space enumerate_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection);

// The same walk keeping only the valid variants whose full-space index is in `wanted`
// (--variants), in enumeration order; `valid` still counts them all. A full space has
// millions of variants: this holds the few asked for.
[[nodiscard]] Space enumerate_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection,
                                    const std::set<std::size_t>& wanted);

// The same walk, keeping only the count: `variants` stays empty and `valid` says how
// many there are. A full GEMM space has millions of valid variants; counting them
// holds none (autotune list).
struct SpaceCount {
    std::size_t combinations = 0;
    std::size_t valid = 0;
    std::vector<RuleRemoval> removals;
};
[[nodiscard]] SpaceCount count_space(const KernelSpec& spec, const Problem& problem, SpaceSelection selection);

// Size of the cartesian product, for `autotune list` without enumerating.
[[nodiscard]] std::size_t cartesian_size(const KernelSpec& spec, SpaceSelection selection);

} // namespace autotune
