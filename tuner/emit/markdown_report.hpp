// The Markdown section of `autotune report` for one results file: the problem and its
// roofline figures, the winner and its diagnosis, the top variants, how well the model
// ranked what was measured, and what failed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace autotune {

// `svg_name` is the roofline picture's file name next to the report ("" for none).
[[nodiscard]] std::string markdown_report_section(const nlohmann::ordered_json& results, const std::string& svg_name,
                                                  std::size_t top = 10);

} // namespace autotune
