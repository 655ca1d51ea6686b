// The compile pool: each compile runs in a worker process under the run's limits. A
// variant whose compile runs past the timeout is compile_timeout, one past the memory limit
// compile_out_of_memory, one that crashes the compiler a compile_error saying so; the
// worker is replaced and the other variants compile. What the pool compiles is what NVRTC
// compiles in-process, and the cache serves it (but never keeps a stopped compile). nvcc,
// a process of its own, stops at the same timeout.
#include "compile/compile_variants.hpp"

#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

namespace {

// Long enough for a fast variant to compile on a loaded 2-core machine (with the
// worker's start), far shorter than the slow variant's hours.
constexpr auto short_timeout = 8s;
// The slack allowed past a timeout: killing and replacing a worker takes milliseconds, but
// a loaded machine schedules late.
constexpr auto slack = 20s;

std::vector<std::string> pool_worker() { return {autotune::test::autotune_binary().string(), "compile-worker"}; }

struct SpecRun {
    explicit SpecRun(const std::string& name, const std::filesystem::path& dir = autotune::test::data_dir() / "compile_limits")
        : spec(load_spec(dir / (name + ".toml"))), problem(resolve_problem(spec, {})),
          variants(enumerate_space(spec, problem, SpaceSelection::default_space).variants)
    {
    }
    // The variant whose parameter `name` is `value`.
    [[nodiscard]] Variant with(const std::string& name, std::int64_t value) const
    {
        for (const auto& v : variants)
            if (v.value(name) == value)
                return v;
        throw std::runtime_error("no variant with " + name + "=" + std::to_string(value));
    }
    KernelSpec spec;
    Problem problem;
    std::vector<Variant> variants;
};

CompileSettings pool_settings(std::chrono::milliseconds timeout)
{
    CompileSettings settings;
    settings.jobs = 1; // the variant after a stopped one needs the replacement worker
    settings.limits.timeout = timeout;
    settings.limits.worker_argv = pool_worker();
    return settings;
}

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(CompilePool, ACompilePastTheTimeoutIsCompileTimeoutAndTheOthersCompile)
{
    const SpecRun run("unrolled");
    const std::vector<Variant> variants{run.with("N", 1), run.with("N", 65536), run.with("N", 2)};
    autotune::test::TempDir cache;
    CompileSettings settings = pool_settings(short_timeout);
    settings.cache_dir = cache.path();

    const auto start = std::chrono::steady_clock::now();
    const auto compiled = compile_variants(run.spec, run.problem, variants, parse_arch("sm_90"), settings);
    EXPECT_LT(seconds_since(start), std::chrono::duration<double>(short_timeout + slack).count());
    ASSERT_EQ(compiled.size(), 3u);
    EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error;
    EXPECT_EQ(compiled[1].status, CompileStatus::compile_timeout) << compiled[1].error;
    EXPECT_THAT(compiled[1].error, HasSubstr("did not finish within 8 s (--compile-timeout)"));
    EXPECT_EQ(to_string(compiled[1].status), "compile_timeout");
    EXPECT_EQ(compiled[2].status, CompileStatus::ok) << compiled[2].error;
    EXPECT_GT(compiled[2].resources.registers, 0);

    // A stopped compile is not the variant's answer: the cache keeps the two that finished
    // and not the timeout, which a rerun (here with a shorter timeout) tries again.
    settings.limits.timeout = 1s;
    const auto again = compile_variants(run.spec, run.problem, variants, parse_arch("sm_90"), settings);
    EXPECT_TRUE(again[0].cache_hit);
    EXPECT_FALSE(again[1].cache_hit);
    EXPECT_EQ(again[1].status, CompileStatus::compile_timeout);
    EXPECT_THAT(again[1].error, HasSubstr("within 1 s"));
    EXPECT_TRUE(again[2].cache_hit);
}

// A search compiles a variant at a time (--lazy-compile): through one compiler, every call
// is served by the same worker, where each call of its own would start one; and a compile
// that kills the worker still costs only its variant, the next call getting a new one.
TEST(CompilePool, ACompilerHandedToEachCallKeepsItsWorkerBetweenCalls)
{
    const SpecRun run("unrolled");
    CompileSettings settings = pool_settings(short_timeout);
    LimitedCompiler compiler = limited_compiler(settings);
    for (const std::int64_t n : {1, 2, 1}) { // the third compile is the first again, uncached
        const auto compiled = compile_variants(run.spec, run.problem, {run.with("N", n)}, parse_arch("sm_90"), settings,
                                               compiler);
        ASSERT_EQ(compiled.size(), 1u);
        EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error;
    }
    EXPECT_EQ(compiler.workers_started(), 1);
    const auto stopped = compile_variants(run.spec, run.problem, {run.with("N", 65536)}, parse_arch("sm_90"), settings,
                                          compiler);
    EXPECT_EQ(stopped[0].status, CompileStatus::compile_timeout);
    const auto after = compile_variants(run.spec, run.problem, {run.with("N", 2)}, parse_arch("sm_90"), settings,
                                        compiler);
    EXPECT_EQ(after[0].status, CompileStatus::ok) << after[0].error;
    EXPECT_EQ(compiler.workers_started(), 2);
}

TEST(CompilePool, ACompilePastTheMemoryLimitIsCompileOutOfMemoryAndTheOthersCompile)
{
    // The worker alone takes about 150 MiB of address space; N = 2 compiles within 512 MiB,
    // N = 65536 needs more within seconds.
    const SpecRun run("instantiations");
    const std::vector<Variant> variants{run.with("N", 65536), run.with("N", 2)};
    CompileSettings settings = pool_settings(300s);
    settings.limits.memory_bytes = std::uint64_t{512} << 20;
    const auto compiled = compile_variants(run.spec, run.problem, variants, parse_arch("sm_90"), settings);
    ASSERT_EQ(compiled.size(), 2u);
    EXPECT_EQ(compiled[0].status, CompileStatus::compile_out_of_memory) << compiled[0].error;
    EXPECT_THAT(compiled[0].error, HasSubstr("out of memory (limit 512 MiB per compile)"));
    EXPECT_EQ(compiled[1].status, CompileStatus::ok) << compiled[1].error;
}

TEST(CompilePool, ACompilerCrashFailsItsVariantAndTheOthersCompile)
{
    const SpecRun run("unrolled");
    const std::vector<Variant> variants{run.with("N", 1), run.with("N", 2), run.with("N", 1), run.with("N", 2)};
    CompileSettings settings = pool_settings(300s);
    settings.limits.worker_argv = {AUTOTUNE_CRASHING_COMPILE_WORKER, "unrolled<2>"};
    const auto compiled = compile_variants(run.spec, run.problem, variants, parse_arch("sm_90"), settings);
    ASSERT_EQ(compiled.size(), 4u);
    // Identical requests share one compile: variants 0 and 2, and 1 and 3.
    for (const std::size_t i : {0u, 2u})
        EXPECT_EQ(compiled[i].status, CompileStatus::ok) << compiled[i].error;
    for (const std::size_t i : {1u, 3u}) {
        EXPECT_EQ(compiled[i].status, CompileStatus::compile_error);
        EXPECT_THAT(compiled[i].error, HasSubstr("the compiler crashed"));
        EXPECT_THAT(compiled[i].error, HasSubstr("SIGSEGV"));
        EXPECT_THAT(compiled[i].error, HasSubstr("crashing on purpose"));
    }

    // After a crash, the job's next compile gets a fresh worker.
    const std::vector<Variant> crash_between{run.with("N", 2), run.with("N", 1)};
    const auto after = compile_variants(run.spec, run.problem, crash_between, parse_arch("sm_90"), settings);
    EXPECT_EQ(after[0].status, CompileStatus::compile_error);
    EXPECT_EQ(after[1].status, CompileStatus::ok) << after[1].error;
}

TEST(CompilePool, ThePoolCompilesWhatNvrtcCompilesInProcessAndTheCacheServesIt)
{
    const SpecRun run("gemm", autotune::test::source_dir() / "kernels");
    const std::vector<Variant> sample{run.variants.front(), run.variants.back()};
    const ArchTarget arch = parse_arch("sm_90");
    const auto in_process = compile_variants(run.spec, run.problem, sample, arch, CompileSettings{});

    autotune::test::TempDir cache;
    CompileSettings pooled = pool_settings(300s);
    pooled.jobs = 2;
    pooled.cache_dir = cache.path();
    const auto first = compile_variants(run.spec, run.problem, sample, arch, pooled);
    const auto second = compile_variants(run.spec, run.problem, sample, arch, pooled);
    for (std::size_t i = 0; i < sample.size(); ++i) {
        SCOPED_TRACE(sample[i].key());
        ASSERT_EQ(in_process[i].status, CompileStatus::ok) << in_process[i].error;
        for (const auto* pool : {&first[i], &second[i]}) {
            ASSERT_EQ(pool->status, CompileStatus::ok) << pool->error;
            EXPECT_EQ(pool->sass_sha256, in_process[i].sass_sha256);
            EXPECT_EQ(pool->cubin_sha256, in_process[i].cubin_sha256);
            EXPECT_EQ(pool->ptx, in_process[i].ptx); // (the logs differ: ptxas reports its compile time)
            EXPECT_EQ(pool->lowered_name, in_process[i].lowered_name);
            EXPECT_EQ(pool->resources.registers, in_process[i].resources.registers);
            EXPECT_EQ(pool->resources.spill_stores, in_process[i].resources.spill_stores);
            EXPECT_EQ(pool->resources.spill_loads, in_process[i].resources.spill_loads);
        }
        EXPECT_FALSE(first[i].cache_hit);
        EXPECT_TRUE(second[i].cache_hit);
    }
}

TEST(CompilePool, NvccStopsAtTheTimeoutWithTheProgramsItStarted)
{
    const SpecRun run("unrolled");
    const std::vector<Variant> variants{run.with("N", 65536), run.with("N", 1)};
    CompileSettings settings;
    settings.compiler = CompilerKind::nvcc;
    settings.nvcc = default_nvcc();
    settings.jobs = 1;
    settings.limits.timeout = short_timeout;
    const auto start = std::chrono::steady_clock::now();
    const auto compiled = compile_variants(run.spec, run.problem, variants, parse_arch("sm_90"), settings);
    EXPECT_LT(seconds_since(start), std::chrono::duration<double>(short_timeout + slack).count());
    EXPECT_EQ(compiled[0].status, CompileStatus::compile_timeout) << compiled[0].error;
    EXPECT_THAT(compiled[0].error, HasSubstr("nvcc did not finish within 8 s"));
    EXPECT_EQ(compiled[1].status, CompileStatus::ok) << compiled[1].error;
}

} // namespace
