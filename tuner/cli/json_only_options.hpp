// The options of the commands that take nothing but --json (list, archs, devices).
#pragma once

#include "cli/commands.hpp"

#include <optional>
#include <string>

namespace autotune::cli {

// Parses [--json] [--help]. Returns nullopt when --help was printed (the command is
// done), otherwise whether --json was given; throws on anything else.
[[nodiscard]] std::optional<bool> parse_json_only_options(const Arguments& args, const std::string& command);

} // namespace autotune::cli
