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
            // The metadata is written last, so a present entry with damaged blobs was
            // corrupted afterwards: treat it as absent and compile again.
            if (sha256_hex(out.cubin) != meta.at("cubin_sha256").get<std::string>() ||
                sha256_hex(out.ptx) != meta.at("ptx_sha256").get<std::string>())
                return std::nullopt;
        }
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
    const nlohmann::json meta{
        {"format", cache_format},         {"ok", output.ok},
        {"error", output.error},          {"log", output.log},
        {"lowered_name", output.lowered_name}, {"seconds", output.seconds},
        {"cubin_sha256", sha256_hex(output.cubin)}, {"ptx_sha256", sha256_hex(output.ptx)},
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
