#include "arch/arch_target.hpp"

#include "compile/nvrtc_library.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <mutex>
#include <regex>

namespace autotune {

std::string ArchTarget::name() const { return fmt::format("sm_{}{}{}", major, minor, suffix); }

ArchTarget parse_arch(const std::string& text)
{
    static const std::regex pattern(R"(sm_(\d+)([af]?))");
    std::smatch m;
    if (!std::regex_match(text, m, pattern))
        throw ArchError(fmt::format("--arch '{}' is not an architecture: expected sm_XX, e.g. sm_80, sm_90, sm_90a", text));
    // Counted before converting: std::stoi threw std::out_of_range for sm_99999999999.
    if (m[1].length() > 3 || std::stoi(m[1].str()) < 10)
        throw ArchError(fmt::format("--arch '{}' is not an architecture: expected two or three digits, e.g. sm_90", text));
    const int number = std::stoi(m[1].str());
    return ArchTarget{number / 10, number % 10, m[2].str()};
}

std::vector<int> nvrtc_supported_archs() { return supported_archs(linked_nvrtc()); }

std::string nvrtc_version() { return linked_nvrtc().version; }

namespace {

// Whether NVRTC accepts an architecture-suffixed target: it knows which (arch, suffix)
// pairs exist better than any table here.
bool nvrtc_accepts(const NvrtcLibrary& nvrtc, const std::string& arch)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, bool> known; // cannot change within a process
    const auto key = std::pair(nvrtc.path.string(), arch);
    std::lock_guard lock(mutex);
    if (auto it = known.find(key); it != known.end())
        return it->second;
    return known[key] = compile_empty_kernel(nvrtc, {"--gpu-architecture=" + arch}).result == NVRTC_SUCCESS;
}

} // namespace

ArchTarget require_compilable_arch(const std::string& text) { return require_compilable_arch(text, linked_nvrtc()); }

ArchTarget require_compilable_arch(const std::string& text, const NvrtcLibrary& nvrtc)
{
    const ArchTarget target = parse_arch(text);
    const auto supported = supported_archs(nvrtc);
    const bool listed = std::find(supported.begin(), supported.end(), target.number()) != supported.end();
    if (!listed || (!target.suffix.empty() && !nvrtc_accepts(nvrtc, target.name()))) {
        std::vector<std::string> names;
        for (int a : supported)
            names.push_back(fmt::format("sm_{}", a));
        throw ArchError(fmt::format("--arch {}: {} cannot compile for it (supported: {}; suffixes a/f where "
                                    "the architecture has them)",
                                    target.name(), describe(nvrtc), fmt::join(names, ", ")));
    }
    return target;
}

} // namespace autotune
