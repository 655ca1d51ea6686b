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
    friend bool operator==(const CompileOutput&, const CompileOutput&) = default;
};

// The first line of a compiler log that reports an error, trimmed; `fallback` when the
// log has none.
[[nodiscard]] std::string first_error_line(const std::string& log, const std::string& fallback);

// A compile's error as a reader wants it, for `arch` (sm_XX): readable text (util/readable_text:
// no NUL bytes, which NVRTC puts between its log's parts, valid UTF-8), and ptxas'
// "Entry function 'k' uses too much shared data (0xc004 bytes, 0xc000 max)" said in bytes
// against the architecture's limit. Applied when an output is read, so cached outputs
// read the same as fresh ones.
[[nodiscard]] std::string readable_compile_error(const std::string& error, const std::string& arch);

} // namespace autotune
