#include "compile/compile_variants.hpp"

#include "compile/compile_cache.hpp"
#include "compile/cubin_info.hpp"
#include "compile/nvcc_compiler.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "compile/ptxas_log.hpp"
#include "util/sha256.hpp"

#include <atomic>
#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <thread>

namespace autotune {

std::string to_string(CompileStatus status) { return status == CompileStatus::ok ? "ok" : "compile_error"; }

std::filesystem::path default_nvcc()
{
    if (const char* nvcc = std::getenv("AUTOTUNE_NVCC"); nvcc && *nvcc)
        return nvcc;
    return std::filesystem::path(AUTOTUNE_CUDA_BIN_DIR) / "nvcc";
}

namespace {

std::string compiler_version(const CompileSettings& settings)
{
    return settings.compiler == CompilerKind::nvrtc ? "nvrtc " + nvrtc_version() : nvcc_version(settings.nvcc);
}

CompileOutput run_compiler(const CompileRequest& request, const CompileSettings& settings)
{
    return settings.compiler == CompilerKind::nvrtc ? compile_with_nvrtc(request)
                                                    : compile_with_nvcc(request, settings.nvcc);
}

// Interprets a compiler's output: resources from ptxas' log and the cubin, cross-checked.
CompiledVariant inspect(const CompileOutput& out, const CompileRequest& request, const RegisterPolicy& policy,
                        const CompileSettings& settings, bool cache_hit)
{
    CompiledVariant v;
    v.compiler = settings.compiler;
    v.name_expression = request.name_expression;
    v.template_path = portable_path(request.template_path, settings.project_root);
    v.options = portable_options(
        settings.compiler == CompilerKind::nvrtc ? nvrtc_options(request) : nvcc_options(request),
        settings.project_root);
    v.cache_hit = cache_hit;
    v.compile_seconds = out.seconds;
    v.log = out.log;
    v.lowered_name = out.lowered_name;
    if (!out.ok) {
        v.error = out.error;
        return v;
    }
    try {
        const CubinInfo cubin = read_cubin(out.cubin);
        const CubinFunctionInfo& function = find_function(cubin, out.lowered_name);
        v.resources = combine_resource_usage(parse_ptxas_log(out.log, out.lowered_name), function, policy);
        v.sass_sha256 = function.sass_sha256;
    } catch (const std::exception& e) { // CubinError, ResourceMismatch
        v.error = e.what();
        return v;
    }
    v.cubin = out.cubin;
    v.ptx = out.ptx;
    v.cubin_sha256 = sha256_hex(out.cubin);
    v.status = CompileStatus::ok;
    return v;
}

} // namespace

CompiledVariant compile_variant(const CompileRequest& request, const RegisterPolicy& policy,
                                const CompileSettings& settings)
{
    return inspect(run_compiler(request, settings), request, policy, settings, false);
}

std::vector<CompiledVariant> compile_variants(const KernelSpec& spec, const Problem& problem,
                                              const std::vector<Variant>& variants, const ArchTarget& arch,
                                              const CompileSettings& settings)
{
    std::vector<CompiledVariant> results(variants.size());
    if (variants.empty())
        return results;
    const std::string version = compiler_version(settings);
    std::optional<CompileCache> cache;
    if (settings.cache_dir)
        cache.emplace(*settings.cache_dir);

    std::atomic<std::size_t> next{0};
    std::size_t done = 0;
    std::mutex progress_mutex;
    auto worker = [&] {
        for (std::size_t i = next++; i < variants.size(); i = next++) {
            CompiledVariant& result = results[i];
            try {
                const CompileRequest request = make_compile_request(spec, problem, variants[i], arch);
                const std::string key = compile_cache_key(request, settings.compiler, version);
                std::optional<CompileOutput> output = cache ? cache->load(key) : std::nullopt;
                const bool hit = output.has_value();
                if (!hit) {
                    output = run_compiler(request, settings);
                    if (cache)
                        cache->store(key, *output);
                }
                result = inspect(*output, request, variants[i].register_policy, settings, hit);
            } catch (const std::exception& e) {
                // Whatever went wrong stays with this variant; the others still compile.
                result.status = CompileStatus::compile_error;
                result.error = e.what();
            }
            result.variant = i;
            std::lock_guard lock(progress_mutex);
            ++done;
            if (settings.progress)
                settings.progress(done, variants.size());
        }
    };
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = std::min<std::size_t>(settings.jobs == 0 ? cores : settings.jobs, variants.size());
    {
        std::vector<std::jthread> threads; // joined at the end of this scope, before results leave
        for (unsigned t = 1; t < jobs; ++t)
            threads.emplace_back(worker);
        worker();
    }
    return results;
}

} // namespace autotune
