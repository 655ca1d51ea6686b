// The on-disk compile cache: content-addressed (the key covers the kernel's file and
// every header it includes, the options, the compiler and its version, the arch), safe
// under interruption and concurrent runs (entries are written to a temporary and
// renamed). Each entry carries a digest of its content, checked on read: an entry that
// is torn, edited or from before digests reads as a miss, and is compiled again.
#pragma once

#include "compile/compile_output.hpp"
#include "compile/compile_request.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace autotune {

class CompileCache {
public:
    explicit CompileCache(std::filesystem::path dir);

    // nullopt when there is no entry, or one that fails its digest.
    [[nodiscard]] std::optional<CompileOutput> load(const std::string& key) const;
    // Throws std::runtime_error naming the path when the entry cannot be written.
    void store(const std::string& key, const CompileOutput& output) const;
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

private:
    [[nodiscard]] std::filesystem::path entry_path(const std::string& key, const char* extension) const;
    std::filesystem::path dir_;
};

// `compiler_version` distinguishes toolkits: NVRTC's version, or nvcc's release line.
[[nodiscard]] std::string compile_cache_key(const CompileRequest& request, CompilerKind compiler,
                                            const std::string& compiler_version);
// The same key with the files' digest (source_files_digest) computed once by the caller:
// every variant of a spec reads the same files.
[[nodiscard]] std::string compile_cache_key(const CompileRequest& request, CompilerKind compiler,
                                            const std::string& compiler_version, const std::string& files_digest);
// The kernel's file and every header it includes, by content and relative place.
[[nodiscard]] std::string source_files_digest(const std::filesystem::path& main_file,
                                              const std::vector<std::filesystem::path>& include_dirs);

// $AUTOTUNE_CACHE_DIR, else $XDG_CACHE_HOME/autotune, else ~/.cache/autotune.
[[nodiscard]] std::filesystem::path default_cache_dir();

} // namespace autotune
