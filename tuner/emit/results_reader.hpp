// Reading a results file: the one place every command that takes one (header, report,
// fidelity, merge, compare, replay, export, check-model, --prior) reads it, its shape
// checked once (results_shape.hpp); and reading it back into what produced it — the spec,
// the problem, the arch and the variants it names — for the commands that rebuild variants.
#pragma once

#include "arch/arch_target.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// Throws std::invalid_argument naming the path: missing, not JSON, not a results file, or
// of a newer schema_version than results_schema_version; JsonShapeError naming the path
// and the JSON path of the first field that is not what autotune writes.
[[nodiscard]] nlohmann::ordered_json read_results_file(const std::filesystem::path& path);

// The same, for a command that needs what only a tuning run records (compiled variants, a
// spec, the model's figures): an imported Kernel Tuner space is refused in one line naming
// the file, ending with `needs`, why this command cannot use it.
[[nodiscard]] nlohmann::ordered_json read_tuning_run_file(const std::filesystem::path& path, std::string_view needs);

struct ResultsContext {
    KernelSpec spec;
    Problem problem;
    ArchTarget arch;
};

// The spec (its path relative to the project), problem and arch of a results document.
[[nodiscard]] ResultsContext results_context(const nlohmann::ordered_json& results, const std::string& path);

// A variant record of the results rebuilt as a Variant (same index, geometry, policy).
// Throws std::invalid_argument naming the path and index when the spec changed since.
[[nodiscard]] Variant variant_of_record(const ResultsContext& context, const nlohmann::ordered_json& record,
                                        const std::string& path);

} // namespace autotune
