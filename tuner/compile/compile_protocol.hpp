// The compile worker's protocol (autotune compile-worker, driven through WorkerSupervisor):
// a CompileRequest as one JSON line in, the CompileOutput as one JSON line out. Every
// string travels base64-encoded: sources and paths are bytes, a cubin is binary, and a
// compiler's log may be anything, but a JSON line must be valid UTF-8 and one line.
#pragma once

#include "compile/compile_output.hpp"
#include "compile/compile_request.hpp"

#include <nlohmann/json.hpp>

namespace autotune {

[[nodiscard]] nlohmann::json compile_request_to_json(const CompileRequest& request);
// Throws std::invalid_argument (or a nlohmann::json exception) naming what is malformed.
[[nodiscard]] CompileRequest compile_request_from_json(const nlohmann::json& message);

[[nodiscard]] nlohmann::json compile_output_to_json(const CompileOutput& output);
[[nodiscard]] CompileOutput compile_output_from_json(const nlohmann::json& message);

} // namespace autotune
