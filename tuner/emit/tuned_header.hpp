// The tuned header: what other builds include to launch each kernel with the winners of
// every architecture and problem tuned. Generated, deterministic (the same entries give
// the same bytes), and every name and number in it validated before it is written.
#pragma once

#include "space/variant.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

// One winner: a kernel's configuration for one architecture and one problem.
struct HeaderEntry {
    std::string kernel;
    int compute_capability = 0;        // 90
    NamedValues problem;               // the problem it was tuned for (the bucket)
    std::vector<std::string> exact;    // its variables that are categories: matched exactly, not by size
    NamedValues values;                // the winner's parameters, in the spec's order
    std::int64_t block_threads = 0;
    std::int64_t max_threads = 0, min_blocks = 0, maxnreg = 0, maxrregcount = 0;
    std::vector<std::string> notes;    // where it came from; one comment line each
};

// A results file, a kernel, or a value that cannot go into C++ as it is: names the file
// and the offending name or value.
class HeaderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The winner of each problem of a results document; none when nothing could be ranked.
[[nodiscard]] std::vector<HeaderEntry> header_entries(const nlohmann::ordered_json& results, const std::string& path);

// `inputs` are named in the header's first lines (how to regenerate it).
[[nodiscard]] std::string tuned_header(std::vector<HeaderEntry> entries, const std::vector<std::string>& inputs);

} // namespace autotune
