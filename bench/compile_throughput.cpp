// Compile throughput: NVRTC in-process against one nvcc process per variant, on the
// same sample of the GEMM default space (same variants, same options), with one job
// and with all cores, from a cold cache and from a warm one. Read the ratios within one
// run: the machines here are noisy, a ratio of peers measured together is not.
//   build/bench/compile_throughput --benchmark_counters_tabular=true
#include "autotune_build_config.hpp"
#include "compile/compile_variants.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace autotune;

namespace {

constexpr std::size_t sample_size = 8;

struct Sample {
    KernelSpec spec = load_spec(std::filesystem::path(AUTOTUNE_SOURCE_DIR) / "kernels" / "gemm.toml");
    Problem problem = resolve_problem(spec, {});
    std::vector<Variant> variants;
    Sample()
    {
        // Evenly spread over the default space, so tile sizes and launch bounds all appear.
        const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
        const std::size_t step = space.variants.size() / sample_size;
        for (std::size_t i = 0; i < sample_size; ++i)
            variants.push_back(space.variants[i * step]);
    }
};

const Sample& sample()
{
    static const Sample s;
    return s;
}

std::filesystem::path scratch_cache(const char* name)
{
    return std::filesystem::temp_directory_path() / ("autotune-bench-" + std::to_string(getpid()) + "-" + name);
}

// state.range(0): 0 = nvrtc, 1 = nvcc; range(1): jobs (0 = all cores); range(2): 1 = warm cache.
void compile_sample(benchmark::State& state)
{
    CompileSettings settings;
    settings.compiler = state.range(0) == 0 ? CompilerKind::nvrtc : CompilerKind::nvcc;
    settings.jobs = static_cast<unsigned>(state.range(1));
    settings.nvcc = default_nvcc();
    const bool warm = state.range(2) == 1;
    const auto cache = scratch_cache(warm ? "warm" : "cold");
    const ArchTarget arch = parse_arch("sm_90");
    if (warm) {
        settings.cache_dir = cache;
        (void)compile_variants(sample().spec, sample().problem, sample().variants, arch, settings);
    }
    double wall_seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const auto compiled = compile_variants(sample().spec, sample().problem, sample().variants, arch, settings);
        for (const auto& c : compiled)
            if (c.status != CompileStatus::ok)
                state.SkipWithError(c.error.c_str());
        benchmark::DoNotOptimize(compiled.data());
        wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::filesystem::remove_all(cache);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sample_size));
    state.counters["ms_per_variant"] = 1000.0 * wall_seconds / static_cast<double>(state.iterations() * sample_size);
    state.SetLabel(std::string(settings.compiler == CompilerKind::nvrtc ? "nvrtc" : "nvcc") + ", jobs " +
                   (settings.jobs == 0 ? std::to_string(std::thread::hardware_concurrency()) + " (all)"
                                       : std::to_string(settings.jobs)) +
                   (warm ? ", warm cache" : ", cold"));
}

} // namespace

BENCHMARK(compile_sample)
    ->ArgNames({"nvcc", "jobs", "warm"})
    ->Args({0, 1, 0})
    ->Args({1, 1, 0})
    ->Args({0, 0, 0})
    ->Args({1, 0, 0})
    ->Args({0, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

BENCHMARK_MAIN();
