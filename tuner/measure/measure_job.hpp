// What the tuner asks a measuring worker to do for one variant, and what it answers;
// both travel as JSON lines between the processes (see worker_supervisor.hpp).
#pragma once

#include "measure/cpu_reference.hpp"
#include "measure/element_type.hpp"
#include "measure/sample_statistics.hpp"
#include "measure/verification.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

// One kernel argument with its values for a problem and variant.
struct ArgumentValue {
    std::string name;
    ArgumentKind kind = ArgumentKind::buffer;
    ElementType type = ElementType::f32;
    std::int64_t count = 0;   // buffers: elements
    double value = 0;         // scalars
    BufferAccess access = BufferAccess::input;
    bool constant = false;        // buffers: copied to the module's __constant__ variable `name` before launching
    bool kernel_parameter = true; // passed to the kernel in its position
    std::optional<double> random_upper; // inputs: drawn from (0, random_upper] (KernelArgument)
    std::optional<double> fill_value;   // inputs: every element this value (KernelArgument)
    std::string fill_expression;        // inputs: element i is this expression of i (KernelArgument)
    std::string fill_file;              // inputs: this file's bytes (KernelArgument)
};

// The spec's arguments evaluated for a problem and variant; throws SpecError-like
// std::invalid_argument naming the argument when a size is negative or a type unknown.
[[nodiscard]] std::vector<ArgumentValue> resolve_arguments(const KernelSpec& spec, const Problem& problem,
                                                           const Variant& variant);

// The reference variant's kernel ([reference] variant): launched once per problem on the
// same inputs before any variant is checked; its outputs are the reference values.
struct ReferenceKernel {
    std::size_t variant = 0;       // index in the full space
    std::string label;             // its parameters, for messages
    std::string cubin_path;
    std::string function;          // lowered name
    Dim3 grid, block;
    std::int64_t dynamic_shared_bytes = 0;
    friend bool operator==(const ReferenceKernel&, const ReferenceKernel&) = default;
};

struct MeasureJob {
    std::size_t variant = 0;       // index in the full space
    std::string label;             // the variant's parameters, for messages
    int device = 0;                // ordinal
    std::string cubin_path;
    std::string function;          // lowered name
    Dim3 grid, block;
    std::int64_t dynamic_shared_bytes = 0;
    std::vector<ArgumentValue> arguments;
    std::map<std::string, std::int64_t> problem;
    std::string reference;         // CPU reference name; empty: outputs only checked for poison and NaN
    std::optional<ReferenceKernel> reference_kernel; // instead of a CPU reference: a variant's outputs
    Tolerance tolerance;
    std::uint64_t seed = 1;
    StoppingRule timing;
};

// A scalar argument's bytes as cuLaunchKernel passes them, in the type the kernel
// declares; throws std::invalid_argument naming the argument for a type a scalar cannot be.
[[nodiscard]] std::array<std::byte, 8> scalar_argument_bytes(const ArgumentValue& argument);

// The CPU reference request for the job's argument `output`. `host` holds, by argument
// position, each buffer's content before the verification launch (inputs and input_output
// buffers; outputs empty): input_output buffers count as inputs with that content, and
// scalars arrive as the kernel receives them (a float scalar rounded to float).
[[nodiscard]] ReferenceRequest reference_request(const MeasureJob& job, const std::vector<HostBuffer>& host,
                                                 std::size_t output);

// What the driver says about a loaded variant.
struct DriverAttributes {
    int registers = 0;             // CU_FUNC_ATTRIBUTE_NUM_REGS
    std::int64_t local_bytes = 0;  // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
    int max_threads_per_block = 0; // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    std::int64_t shared_static = 0;
    std::int64_t constant_bytes = 0;
    int blocks_per_sm = 0;         // cuOccupancyMaxActiveBlocksPerMultiprocessor
};

struct Measurement {
    bool verified = false;
    std::size_t verified_elements = 0;
    double verification_error = 0;
    SampleSummary time;                 // seconds, the samples kept
    std::size_t throttled_discarded = 0;
    bool converged = false;             // false: the time limit ended the sampling
    double sm_clock_mhz = 0;            // median SM clock during the kept samples
};

struct MeasureReply {
    std::string status = "ok";          // ok | launch_error | wrong_result | fault
    std::string error;
    bool reference_failed = false;      // the reference kernel, not the variant, failed (error says how)
    std::optional<DriverAttributes> driver;
    std::optional<Measurement> measurement;
};

[[nodiscard]] nlohmann::json to_json(const MeasureJob& job);
[[nodiscard]] MeasureJob measure_job_from_json(const nlohmann::json& j);
[[nodiscard]] nlohmann::json to_json(const MeasureReply& reply);
[[nodiscard]] MeasureReply measure_reply_from_json(const nlohmann::json& j);
[[nodiscard]] nlohmann::json to_json(const DriverAttributes& driver);
[[nodiscard]] nlohmann::json to_json(const Measurement& measurement);

} // namespace autotune
