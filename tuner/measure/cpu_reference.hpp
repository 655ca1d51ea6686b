// CPU references, in double precision, for the built-in kernels; a spec names one with
// [reference] cpu = "NAME". Affordable at any size: where the full result is expensive
// (GEMM), a seeded sample of output elements is computed.
#pragma once

#include "measure/verification.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace autotune {

// A host copy of one kernel buffer.
struct HostBuffer {
    ElementType type = ElementType::f32;
    std::vector<std::byte> bytes;
};

struct ReferenceRequest {
    std::string name;                                 // "copy", "gemm"
    std::map<std::string, const HostBuffer*> inputs;  // by argument name
    std::map<std::string, std::int64_t> problem;      // problem variables
    std::string output;                               // the argument whose reference is wanted
    std::size_t max_samples = 4096;                   // for references that sample
    std::uint64_t seed = 1;                           // which elements are sampled
};

// Throws std::invalid_argument naming the reference, the argument or the variable that
// is missing or of the wrong type. The names the built-ins expect:
//   copy: inputs "in", output "out" (ints), problem N: out = in, every element.
//   gemm: inputs "A" (M×K), "B" (K×N), output "C" (M×N), row-major, problem M, N, K:
//         C = A·B on a sample of elements.
[[nodiscard]] ReferenceValues cpu_reference(const ReferenceRequest& request);

// The names cpu_reference knows.
[[nodiscard]] std::vector<std::string> cpu_reference_names();

} // namespace autotune
