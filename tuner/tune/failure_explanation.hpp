// Why the model and a measured file disagree on whether a configuration fails, where a
// resource limit can say (autotune check-model). A block's size fixes how many registers a
// thread may use for the block to fit an SM, so a launch that succeeded or failed there
// bounds the registers of the binary that was measured: one that ran though this compile's
// registers cannot launch had fewer, one that failed to launch though this compile's fit
// had more. A measured file records no registers; the bound is what the launch says.
#pragma once

#include "arch/arch_spec.hpp"

#include <optional>
#include <string>

namespace autotune {

struct FailureDisagreement {
    bool ran = false;                      // ran there (and predicted to fail here), else failed there
    std::string measured_failure;          // as the file records it, when it failed there
    std::string measured_status;           // the same as a results file's status (MeasuredConfiguration)
    std::string predicted_failure;         // why this pipeline predicts it fails, when it does
    int threads_per_block = 0;             // 0: not joined to a variant
    std::optional<int> registers;          // this compile's, where it compiled
};

// Whether a register count explains the disagreement: the binary measured used another
// number of registers than this compile (another toolkit, or other compiler options).
[[nodiscard]] bool registers_explain(const FailureDisagreement& point, const ArchSpec& arch);

// One sentence, starting with what happened there; empty for a point the two agree on.
[[nodiscard]] std::string explain_failure_disagreement(const FailureDisagreement& point, const ArchSpec& arch);

} // namespace autotune
