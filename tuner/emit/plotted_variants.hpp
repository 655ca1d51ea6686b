// The ranked variants of one problem as the report's plots draw them: the model's
// performance for each, the measured one where it ran, its registers and register policy.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace autotune {

struct PlottedVariant {
    std::size_t index = 0;
    int registers = 0;
    std::string policy;              // register_policy.kind: "none", "launch_bounds", ...
    double predicted = 0;            // GFLOP/s, or GB/s for the bandwidth view
    std::optional<double> measured;  // the same unit; nullopt where nothing ran
    bool winner = false;
    [[nodiscard]] double shown() const { return measured.value_or(predicted); }
};

// `view` is one problem's view of a results file (problem_views.hpp), with ceilings. The
// bandwidth view gives GB/s, the other GFLOP/s. Variants without a positive value are left out.
[[nodiscard]] std::vector<PlottedVariant> plotted_variants(const nlohmann::ordered_json& view, bool bandwidth_view);

} // namespace autotune
