// Checking a variant's output before its time counts: inputs from a seeded generator
// (never zero, never constant; constant only where a spec asks for it), outputs poisoned before each verification launch, and a
// comparison against a reference with a tolerance per precision. An unwritten element,
// a NaN, or an error over tolerance fails the variant.
#pragma once

#include "measure/element_type.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace autotune {

// Random input values for `bytes.size() / element_size(type)` elements, reproducible from
// `seed`; floating-point values in [-1, 1] without zeros, integers over their range
// without the poison pattern. With `upper` (float and double only, else
// std::invalid_argument), values in (0, upper] instead: a T1 file's Random FillValue.
void fill_random_input(ElementType type, std::span<std::byte> bytes, std::uint64_t seed,
                       std::optional<double> upper = std::nullopt);

// Every element `value` (a T1 file's Constant fill of an input): the nearest value of a
// floating-point type, exactly the integer of an integer type. Throws std::invalid_argument
// saying why when the type cannot hold it: beyond its range, not a whole number for an
// integer type, or the integer pattern that marks unwritten elements.
void fill_constant_input(ElementType type, std::span<std::byte> bytes, double value);
// The same checks alone, for a spec loader before anything compiles.
void check_constant_input(ElementType type, double value);

// Element i the value of `expression` (the spec's expression language) with i its index (a
// T1 file's Generator fill), each value checked as a Constant fill's is; throws
// std::invalid_argument naming the element whose value the type cannot hold ("element 1:
// 0.5 does not fit a buffer of int: not a whole number"), ExpressionError when the
// expression does not parse.
void fill_generated_input(ElementType type, std::span<std::byte> bytes, const std::string& expression);

// The bytes of `file`, which must hold exactly `bytes.size()` of them (a T1 file's
// BinaryRaw fill); throws std::invalid_argument naming the file when it cannot be read or
// holds another number of bytes.
void fill_input_from_file(std::span<std::byte> bytes, const std::filesystem::path& file);

// The poison written into outputs before a verification launch: a quiet NaN with a
// recognisable payload for floating-point types, a sentinel for integers.
void fill_poison(ElementType type, std::span<std::byte> bytes);
[[nodiscard]] bool is_poison(ElementType type, const std::byte* element);

// Reads element `index` of a buffer as a double.
[[nodiscard]] double element_value(ElementType type, std::span<const std::byte> bytes, std::size_t index);

struct Tolerance {
    enum class Kind { elementwise, normwise } kind = Kind::elementwise;
    double relative = 1e-5; // elementwise: |got − ref| ≤ relative·|ref| + absolute
    double absolute = 0;    // normwise: ‖got − ref‖₂ / ‖ref‖₂ ≤ relative over the checked elements
    // Where the reference supplies scales (ReferenceValues::scales), they stand in for |ref|.
};

// The defaults the design names: fp32 copy-like 1e-5 elementwise, fp32 GEMM 1e-4
// norm-wise, bf16/fp16 1e-2; integers exact.
[[nodiscard]] Tolerance default_tolerance(ElementType type, Tolerance::Kind kind);

// Reference values for some or all output elements. Both empty: no reference — the
// output is only scanned for poison and NaN.
struct ReferenceValues {
    std::vector<std::size_t> indices; // empty with values present: every element, in order
    std::vector<double> values;       // values[i] belongs to indices[i] (or to element i)
    // Empty, or one per value: the magnitude the error is measured against instead of
    // |values[i]|. A sum's rounding error grows with Σ|x|, not with the sum, which can
    // cancel to nearly nothing; the reduce reference supplies |v0| + Σ|x| here.
    std::vector<double> scales;
};

struct VerificationResult {
    bool ok = false;
    std::string problem;       // empty when ok: "element 1234 was never written (still poisoned)"
    std::size_t checked = 0;   // elements compared with the reference
    double error = 0;          // max relative error (elementwise) or the norm-wise error
};

// A reference variant's output as the reference for every other variant: each element's
// value, in order. `problem` is empty when the output can serve and otherwise says why it
// cannot (an element the reference never wrote, a NaN): such a reference checks nothing.
struct OutputReference {
    ReferenceValues values;
    std::string problem;
};
[[nodiscard]] OutputReference reference_from_output(ElementType type, std::span<const std::byte> output);

// Every element is scanned for poison and NaN (that costs nothing next to a transfer);
// the reference's elements are compared within the tolerance.
[[nodiscard]] VerificationResult verify_output(ElementType type, std::span<const std::byte> output,
                                               const ReferenceValues& reference, const Tolerance& tolerance);

} // namespace autotune
