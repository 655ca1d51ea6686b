// The Markdown section of `autotune report` for one results file: the problem and its
// roofline figures, the winner and its diagnosis, the top variants, how well the model
// ranked what was measured, and what failed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace autotune {

// A picture next to the report: its alt text and file name.
struct ReportPicture {
    std::string alt, file;
};

[[nodiscard]] std::string markdown_report_section(const nlohmann::ordered_json& results,
                                                  const std::vector<ReportPicture>& pictures, std::size_t top = 10);

} // namespace autotune
