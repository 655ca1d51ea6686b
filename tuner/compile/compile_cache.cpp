#include "compile/compile_cache.hpp"

#include "compile/source_files.hpp"
#include "util/atomic_file.hpp"
#include "util/sha256.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace autotune {
namespace {

// Bump when the stored format or what a compile produces changes.
constexpr const char* cache_format = "autotune-compile-cache-v1";

std::string read_binary(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// What an entry holds, blobs included; `seconds` is left out: how long a compile took
// changes nothing it produced.
std::string entry_digest(const CompileOutput& output)
{
    Sha256 digest;
    digest.add(cache_format).add(output.ok ? "ok" : "failed").add(output.error).add(output.log);
    digest.add(output.lowered_name).add(sha256_hex(output.cubin)).add(sha256_hex(output.ptx));
    return digest.hex();
}

} // namespace

CompileCache::CompileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

std::filesystem::path CompileCache::entry_path(const std::string& key, const char* extension) const
{
    return dir_ / "v1" / key.substr(0, 2) / (key + extension);
}

std::optional<CompileOutput> CompileCache::load(const std::string& key) const
{
    const std::string meta_text = read_binary(entry_path(key, ".json"));
    if (meta_text.empty())
        return std::nullopt;
    try {
        const auto meta = nlohmann::json::parse(meta_text);
        CompileOutput out;
        out.ok = meta.at("ok").get<bool>();
        out.error = meta.at("error").get<std::string>();
        out.log = meta.at("log").get<std::string>();
        out.lowered_name = meta.at("lowered_name").get<std::string>();
        out.seconds = meta.at("seconds").get<double>();
        if (out.ok) {
            out.cubin = read_binary(entry_path(key, ".cubin"));
            out.ptx = read_binary(entry_path(key, ".ptx"));
        }
        // An entry edited, damaged after it was written, or from before entries carried
        // a digest reads as absent: it is compiled again and replaced.
        if (!meta.contains("entry_sha256") || meta.at("entry_sha256").get<std::string>() != entry_digest(out))
            return std::nullopt;
        return out;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

void CompileCache::store(const std::string& key, const CompileOutput& output) const
{
    if (output.ok) {
        write_file_atomically(entry_path(key, ".cubin"), output.cubin);
        write_file_atomically(entry_path(key, ".ptx"), output.ptx);
    }
    // Written last, so an entry is never present before its blobs are.
    const nlohmann::json meta{
        {"format", cache_format},         {"ok", output.ok},
        {"error", output.error},          {"log", output.log},
        {"lowered_name", output.lowered_name}, {"seconds", output.seconds},
        {"entry_sha256", entry_digest(output)},
    };
    write_file_atomically(entry_path(key, ".json"), meta.dump(1));
}

std::string source_files_digest(const std::filesystem::path& main_file,
                                const std::vector<std::filesystem::path>& include_dirs)
{
    // By content and by place relative to the kernel's file: the digest is the same for
    // any checkout location, and changes when any included header does.
    Sha256 digest;
    const auto base = main_file.parent_path();
    for (const auto& file : collect_source_files(main_file, include_dirs))
        digest.add(file.path.lexically_relative(base).string()).add(file.content);
    return digest.hex();
}

std::string compile_cache_key(const CompileRequest& request, CompilerKind compiler, const std::string& compiler_version)
{
    return compile_cache_key(request, compiler, compiler_version,
                             source_files_digest(request.template_path, request.include_dirs));
}

std::string compile_cache_key(const CompileRequest& request, CompilerKind compiler, const std::string& compiler_version,
                              const std::string& files_digest)
{
    Sha256 key;
    key.add(cache_format).add(to_string(compiler)).add(compiler_version).add(request.arch.name());
    key.add(request.source).add(request.name_expression);
    for (const auto& [name, value] : request.definitions)
        key.add(name).add(std::to_string(value));
    key.add(std::to_string(request.maxrregcount));
    for (const auto* options : {&request.extra_options, &request.nvcc_only_options})
        for (const auto& option : *options)
            key.add(option);
    key.add(files_digest);
    return key.hex();
}

std::filesystem::path default_cache_dir()
{
    if (const char* dir = std::getenv("AUTOTUNE_CACHE_DIR"); dir && *dir)
        return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "autotune";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "autotune";
    return std::filesystem::temp_directory_path() / "autotune-cache";
}

} // namespace autotune
