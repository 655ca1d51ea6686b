// A private directory under the system's temp, removed with everything in it when the
// object goes: nvcc's intermediate files, a worker's scratch space.
#pragma once

#include <filesystem>
#include <string>

namespace autotune {

class ScratchDir {
public:
    // `prefix` names the directory (prefix-XXXXXX); throws std::runtime_error naming it.
    explicit ScratchDir(const std::string& prefix = "autotune");
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace autotune
