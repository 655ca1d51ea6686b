// What the tuner asks a measuring worker to do for one variant, and what it answers;
// both travel as JSON lines between the processes (see worker_supervisor.hpp).
#pragma once

#include "measure/element_type.hpp"
#include "measure/sample_statistics.hpp"
#include "measure/verification.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

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
};

// The spec's arguments evaluated for a problem and variant; throws SpecError-like
// std::invalid_argument naming the argument when a size is negative or a type unknown.
[[nodiscard]] std::vector<ArgumentValue> resolve_arguments(const KernelSpec& spec, const Problem& problem,
                                                           const Variant& variant);

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
    Tolerance tolerance;
    std::uint64_t seed = 1;
    StoppingRule timing;
};

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
