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
    std::string name;                                 // "copy", "gemm", ...
    std::map<std::string, const HostBuffer*> inputs;  // by argument name; input_output ones as before the launch
    std::map<std::string, std::int64_t> problem;      // problem variables
    std::string output;                               // the argument whose reference is wanted
    std::size_t max_samples = 4096;                   // for references that sample
    std::uint64_t seed = 1;                           // which elements are sampled
    std::map<std::string, double> scalars;            // scalar arguments, as the kernel receives them
};

// Throws std::invalid_argument naming the reference, the argument or the variable that
// is missing or of the wrong type. The names the built-ins expect:
//   copy: inputs "in", output "out" (ints), problem N: out = in, every element.
//   gemm: inputs "A" (M×K), "B" (K×N), output "C" (M×N), row-major, problem M, N, K:
//         C = A·B on a sample of elements. Problem variables A_LAYOUT / B_LAYOUT = 2 (1,
//         the default, when absent) read A stored K×M / B stored N×K instead.
//   gemm_bf16: inputs "A" (M×K) and "B" (N×K), bf16, both row-major (k contiguous), output
//         "C" (M×N, float), problem M, N, K: C[i][j] = Σ_l A[i][l]·B[j][l] on gemm's sample.
//   triad: inputs "b", "c", scalar "s", output "a" (floats), problem N: a = b + s·c, every
//         element (sampled like copy when large).
//   transpose: input "in" (M×N), output "out" (N×M), row-major floats, problem M, N:
//         out[j][i] = in[i][j], every element (sampled like copy when large).
//   reduce: inputs "in" (N floats) and "out" (1 float, its value v0 before the launch),
//         output "out", problem N: v0 + Σ in, with the scale |v0| + Σ|in| (see
//         ReferenceValues::scales).
[[nodiscard]] ReferenceValues cpu_reference(const ReferenceRequest& request);

// The names cpu_reference knows.
[[nodiscard]] std::vector<std::string> cpu_reference_names();

} // namespace autotune
