#include "compile/compile_variants.hpp"

#include "util/readable_text.hpp"

#include "autotune_build_config.hpp"

#include "compile/compile_cache.hpp"
#include "compile/cubin_info.hpp"
#include "compile/kernel_parameters.hpp"
#include "compile/limited_compiler.hpp"
#include "compile/nvcc_compiler.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "compile/ptxas_log.hpp"
#include "util/sha256.hpp"

#include <atomic>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <thread>

namespace autotune {

std::filesystem::path default_nvcc()
{
    if (const char* nvcc = std::getenv("AUTOTUNE_NVCC"); nvcc && *nvcc)
        return nvcc;
    return std::filesystem::path(AUTOTUNE_CUDA_BIN_DIR) / "nvcc";
}

namespace {

std::string compiler_version(const CompileSettings& settings)
{
    if (settings.compiler == CompilerKind::nvcc)
        return nvcc_version(settings.nvcc);
    return "nvrtc " + settings.nvrtc.version + (settings.nvrtc.build.empty() ? "" : " (" + settings.nvrtc.build + ")");
}

// The request as the chosen compiler gets it: nvcc also gets the consumer's flags.
CompileRequest for_compiler(CompileRequest request, const CompileSettings& settings)
{
    if (settings.compiler == CompilerKind::nvcc)
        request.nvcc_only_options = settings.nvcc_flags;
    return request;
}

CompileStatus status_of_stopped(CompileEnding ending)
{
    switch (ending) {
    case CompileEnding::timed_out: return CompileStatus::compile_timeout;
    case CompileEnding::out_of_memory: return CompileStatus::compile_out_of_memory;
    case CompileEnding::finished:
    case CompileEnding::crashed: break;
    }
    return CompileStatus::compile_error;
}

// Where the memory limit held (nvcc, or NVRTC in a worker), an out-of-memory error says it.
std::string memory_limit_note(const CompileSettings& settings)
{
    const bool limited = settings.compiler == CompilerKind::nvcc || !settings.limits.worker_argv.empty();
    if (!limited || settings.limits.memory_bytes == 0)
        return {};
    return fmt::format(" (limit {} per compile)", memory_size_text(settings.limits.memory_bytes));
}

// Interprets a compiler's output: resources from ptxas' log and the cubin, cross-checked.
CompiledVariant inspect(const CompilerRun& run, const CompileRequest& request, const RegisterPolicy& policy,
                        const CompileSettings& settings, bool cache_hit)
{
    const CompileOutput& out = run.output;
    CompiledVariant v;
    v.compiler = settings.compiler;
    v.name_expression = request.name_expression;
    v.template_path = portable_path(request.template_path, settings.project_root);
    v.options = portable_options(
        settings.compiler == CompilerKind::nvrtc ? nvrtc_options(request) : nvcc_options(request),
        settings.project_root);
    v.cache_hit = cache_hit;
    v.compile_seconds = out.seconds;
    v.log = readable_text(out.log); // a cached log from before logs were made readable, too
    v.lowered_name = out.lowered_name;
    if (run.ending != CompileEnding::finished || !out.ok) {
        v.status = status_of_stopped(run.ending);
        v.error = readable_compile_error(out.error, request.arch.name());
        if (run.ending == CompileEnding::out_of_memory)
            v.error = fmt::format("out of memory{}: {}", memory_limit_note(settings), v.error);
        return v;
    }
    try {
        const CubinInfo cubin = read_cubin(out.cubin);
        const CubinFunctionInfo& function = find_function(cubin, out.lowered_name);
        v.resources = combine_resource_usage(parse_ptxas_log(v.log, out.lowered_name), function, policy);
        v.sass_sha256 = function.sass_sha256;
        v.machine_instructions = function.entry_code_bytes / machine_instruction_bytes;
        v.machine_loops = function.entry_loops;
        v.machine_inner_loops = function.entry_inner_loops;
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

LimitedCompiler limited_compiler(const CompileSettings& settings)
{
    return LimitedCompiler(settings.compiler, settings.nvcc, settings.limits, settings.nvrtc);
}

CompiledVariant compile_variant(const CompileRequest& request, const RegisterPolicy& policy,
                                const CompileSettings& settings)
{
    const CompileRequest request_for_compiler = for_compiler(request, settings);
    LimitedCompiler compiler = limited_compiler(settings);
    return inspect(compiler.compile(request_for_compiler), request_for_compiler, policy, settings, false);
}

namespace {

// A kernel compiled whose parameters cannot take the spec's arguments cannot be launched as
// the spec says: it is a compile_error naming the first parameter that differs, so the run
// says so before anything is timed (from the cache as well: the spec may have changed).
void check_parameters(const KernelSpec& spec, CompiledVariant& v)
{
    if (v.status != CompileStatus::ok || v.ptx.empty())
        return;
    std::optional<std::string> why;
    try {
        why = parameter_mismatch(spec, ptx_entry_parameters(v.ptx, v.lowered_name));
    } catch (const std::invalid_argument&) {
        // The entry is not in the PTX under that name, or an argument's type is one the spec
        // loader refuses anyway: nothing to check against here (this runs on a worker thread).
        return;
    }
    if (why) {
        v.status = CompileStatus::compile_error;
        v.error = "the kernel's parameters do not match the spec's arguments: " + *why;
    }
}

// Both compile_variants: in parallel, each thread with a compiler of its own, or on this
// thread through `shared`.
std::vector<CompiledVariant> compile_through(const KernelSpec& spec, const Problem& problem,
                                             const std::vector<Variant>& variants, const ArchTarget& arch,
                                             const CompileSettings& settings, LimitedCompiler* shared)
{
    std::vector<CompiledVariant> results(variants.size());
    if (variants.empty())
        return results;
    const std::string version = compiler_version(settings);
    std::optional<CompileCache> cache;
    if (settings.cache_dir)
        cache.emplace(*settings.cache_dir);

    // Variants whose compile requests are identical (parameters that only shape the
    // launch, like the block size of a grid-stride kernel) share one compile.
    struct Job {
        CompileRequest request;
        std::string key;
        std::vector<std::size_t> variants;
        std::optional<CompilerRun> run;
        bool from_cache = false;
    };
    std::vector<Job> jobs;
    std::map<std::string, std::size_t> job_of_key;
    std::map<std::string, std::string> digest_of_files; // every variant of a spec reads the same files
    for (std::size_t i = 0; i < variants.size(); ++i) {
        results[i].variant = i;
        try {
            CompileRequest request = for_compiler(make_compile_request(spec, problem, variants[i], arch), settings);
            std::string files = request.template_path.string();
            for (const auto& dir : request.include_dirs)
                files.append("\n").append(dir.string());
            auto digest = digest_of_files.find(files);
            if (digest == digest_of_files.end())
                digest = digest_of_files.emplace(files, source_files_digest(request.template_path, request.include_dirs)).first;
            std::string key = compile_cache_key(request, settings.compiler, version, digest->second);
            auto [it, fresh] = job_of_key.emplace(key, jobs.size());
            if (fresh)
                jobs.push_back({std::move(request), std::move(key), {}, std::nullopt, false});
            jobs[it->second].variants.push_back(i);
        } catch (const std::exception& e) {
            results[i].error = e.what(); // stays compile_error; the others still compile
        }
    }

    std::atomic<std::size_t> next{0};
    std::size_t done = variants.size();
    for (const auto& job : jobs)
        done -= job.variants.size();
    std::size_t failed = done; // a variant in no job failed before compiling (its request)
    std::mutex progress_mutex;
    // The cache only saves time: an entry that cannot be stored (a full disk) is said once,
    // the compile's own output stands, and the rest of this call stores nothing.
    std::atomic<bool> storing{cache.has_value()};
    auto store = [&](const Job& job) {
        try {
            if (storing)
                cache->store(job.key, job.run->output);
        } catch (const std::exception& e) {
            if (storing.exchange(false) && settings.cache_store_failed)
                settings.cache_store_failed(e.what());
        }
    };
    auto compile_jobs = [&](LimitedCompiler& compiler) {
        for (std::size_t j = next++; j < jobs.size(); j = next++) {
            Job& job = jobs[j];
            try {
                if (const auto cached = cache ? cache->load(job.key) : std::nullopt) {
                    job.run = classify_finished(*cached);
                    job.from_cache = job.run->ending == CompileEnding::finished;
                    // An entry whose ptxas log and cubin disagree (its digest is right: it was
                    // stored so) is compiled again, once, and replaced.
                    if (job.from_cache && job.run->output.ok &&
                        inspect(*job.run, job.request, variants[job.variants.front()].register_policy, settings, true)
                                .status != CompileStatus::ok)
                        job.from_cache = false;
                }
                if (!job.from_cache) {
                    job.run = compiler.compile(job.request);
                    // Only what the compiler finished: a stopped compile may end otherwise
                    // under other limits, on another machine, on the next try.
                    if (job.run->ending == CompileEnding::finished)
                        store(job);
                }
            } catch (const std::exception& e) {
                job.run = CompilerRun{};
                job.run->output.error = e.what();
            }
            for (std::size_t n = 0; n < job.variants.size(); ++n) {
                const std::size_t i = job.variants[n];
                // Only the first variant of a job ran the compiler (unless it came from the cache).
                results[i] = inspect(*job.run, job.request, variants[i].register_policy, settings,
                                     job.from_cache || n > 0);
                results[i].variant = i;
                check_parameters(spec, results[i]);
            }
            std::lock_guard lock(progress_mutex);
            done += job.variants.size();
            std::size_t failed_now = 0;
            for (const std::size_t i : job.variants)
                failed_now += results[i].status == CompileStatus::ok ? 0 : 1;
            if (failed_now > 0) {
                failed += failed_now;
                if (settings.failed)
                    settings.failed(failed);
            }
            if (settings.progress)
                settings.progress(done, variants.size());
        }
    };
    if (shared) {
        compile_jobs(*shared);
        return results;
    }
    auto worker = [&] {
        LimitedCompiler compiler = limited_compiler(settings); // its worker process lives as long as this thread
        compile_jobs(compiler);
    };
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const auto threads_wanted = std::min<std::size_t>(settings.jobs == 0 ? cores : settings.jobs, jobs.size());
    {
        std::vector<std::jthread> threads; // joined at the end of this scope, before results leave
        for (std::size_t t = 1; t < threads_wanted; ++t)
            threads.emplace_back(worker);
        worker();
    }
    return results;
}

} // namespace

std::vector<CompiledVariant> compile_variants(const KernelSpec& spec, const Problem& problem,
                                              const std::vector<Variant>& variants, const ArchTarget& arch,
                                              const CompileSettings& settings)
{
    return compile_through(spec, problem, variants, arch, settings, nullptr);
}

std::vector<CompiledVariant> compile_variants(const KernelSpec& spec, const Problem& problem,
                                              const std::vector<Variant>& variants, const ArchTarget& arch,
                                              const CompileSettings& settings, LimitedCompiler& compiler)
{
    return compile_through(spec, problem, variants, arch, settings, &compiler);
}

} // namespace autotune
