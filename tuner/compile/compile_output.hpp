// CompileOutput: what a compiler produced for one request, before any interpretation.
// This is what the compile cache stores.
#pragma once

#include <string>

namespace autotune {

struct CompileOutput {
    bool ok = false;
    std::string error;        // first error line when !ok
    std::string log;          // the compiler's whole log (ptxas -v report included)
    std::string ptx;
    std::string cubin;
    std::string lowered_name; // mangled entry name
    double seconds = 0;       // wall time of the compile itself
};

// The first line of a compiler log that reports an error, trimmed; `fallback` when the
// log has none.
[[nodiscard]] std::string first_error_line(const std::string& log, const std::string& fallback);

} // namespace autotune
