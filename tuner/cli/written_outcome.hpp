// How a command that writes files says what it wrote: its plain lines, or with --json one
// object whose "written" lists the paths (with the command's counts beside them), so a
// script never parses prose.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace autotune::cli {

// Prints `outcome` (which has "written") as JSON when `json`, else `text` as it is.
void print_written(bool json, const nlohmann::ordered_json& outcome, const std::string& text);

} // namespace autotune::cli
