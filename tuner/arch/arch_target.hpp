// ArchTarget: the architecture a variant is compiled for, as users spell it (sm_90,
// sm_90a, sm_100f), checked against what this NVRTC can compile.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

struct NvrtcLibrary;

struct ArchTarget {
    int major = 0;       // 9 for sm_90
    int minor = 0;       // 0 for sm_90
    std::string suffix;  // "", "a" (arch-specific) or "f" (family-specific)

    [[nodiscard]] int number() const { return major * 10 + minor; } // 90
    [[nodiscard]] std::string name() const;                          // "sm_90a"
    friend bool operator==(const ArchTarget&, const ArchTarget&) = default;
};

class ArchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses "sm_XX[a|f]" (also "XX" and "compute_XX" are refused with the expected
// spelling named); throws ArchError.
[[nodiscard]] ArchTarget parse_arch(const std::string& text);

// The real architectures this NVRTC compiles for (nvrtcGetSupportedArchs), e.g. 75..121.
[[nodiscard]] std::vector<int> nvrtc_supported_archs();

// "13.0"
[[nodiscard]] std::string nvrtc_version();

// parse_arch, then a check that this NVRTC compiles for it (suffixes by a trial
// compile); the error lists what is supported.
[[nodiscard]] ArchTarget require_compilable_arch(const std::string& text);
// The same for another NVRTC (--nvrtc).
[[nodiscard]] ArchTarget require_compilable_arch(const std::string& text, const NvrtcLibrary& nvrtc);

} // namespace autotune
