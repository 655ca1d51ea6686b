// The compile cache: a second run compiles nothing and gets the same results; broken,
// edited or self-contradicting entries are compiled again and replaced; the key follows
// every included header.
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"

#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <csignal>
#include <fstream>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <mutex>
#include <sys/resource.h>
#include <nlohmann/json.hpp>

using namespace autotune;

namespace {

struct CopyRun {
    KernelSpec spec = load_spec(autotune::test::source_dir() / "kernels" / "copy.toml");
    Problem problem = resolve_problem(spec, {});
    Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
};

TEST(CompileCache, ASecondRunCompilesNothingAndGivesIdenticalResults)
{
    autotune::test::TempDir cache;
    CopyRun copy;
    CompileSettings settings;
    settings.cache_dir = cache.path();
    const auto first = compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_80"), settings);
    const auto second = compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_80"), settings);
    ASSERT_EQ(first.size(), second.size());
    std::size_t compiled_first = 0;
    for (std::size_t i = 0; i < first.size(); ++i) {
        compiled_first += !first[i].cache_hit;
        EXPECT_TRUE(second[i].cache_hit) << i;
        EXPECT_EQ(second[i].status, CompileStatus::ok);
        EXPECT_EQ(second[i].sass_sha256, first[i].sass_sha256);
        EXPECT_EQ(second[i].cubin_sha256, first[i].cubin_sha256);
        EXPECT_EQ(second[i].resources.registers, first[i].resources.registers);
        EXPECT_EQ(second[i].lowered_name, first[i].lowered_name);
    }
    // copy's BLOCK and ITEMS only shape the launch: variants differing in them share a
    // compile, so the first run compiles one per (VEC, launch bound) pair only.
    EXPECT_EQ(compiled_first, 3u * 2);
}

TEST(CompileCache, VariantsSharingACompileGetTheCodeOfTheirOwnFullCompile)
{
    // The two shortcuts of the compile stage — identical requests share one compile, and
    // the cache — must give each variant exactly what its own full compile gives.
    autotune::test::TempDir cache;
    CopyRun copy;
    CompileSettings settings;
    settings.cache_dir = cache.path();
    const auto batch = compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_90"), settings);
    for (std::size_t i = 0; i < copy.space.variants.size(); i += 5) {
        const Variant& v = copy.space.variants[i];
        const CompiledVariant own = compile_variant(make_compile_request(copy.spec, copy.problem, v, parse_arch("sm_90")),
                                                    v.register_policy, CompileSettings{});
        EXPECT_EQ(batch[i].sass_sha256, own.sass_sha256) << v.key();
        EXPECT_EQ(batch[i].resources.registers, own.resources.registers) << v.key();
        EXPECT_EQ(batch[i].resources.spill_stores, own.resources.spill_stores) << v.key();
        EXPECT_EQ(batch[i].lowered_name, own.lowered_name) << v.key();
    }
}

TEST(CompileCache, ACachedResultEqualsAFreshCompile)
{
    autotune::test::TempDir cache;
    CopyRun copy;
    CompileSettings cached;
    cached.cache_dir = cache.path();
    const std::vector<Variant> one{copy.space.variants.back()};
    (void)compile_variants(copy.spec, copy.problem, one, parse_arch("sm_90"), cached);
    const auto from_cache = compile_variants(copy.spec, copy.problem, one, parse_arch("sm_90"), cached);
    const auto fresh = compile_variants(copy.spec, copy.problem, one, parse_arch("sm_90"), CompileSettings{});
    ASSERT_TRUE(from_cache[0].cache_hit);
    ASSERT_FALSE(fresh[0].cache_hit);
    EXPECT_EQ(from_cache[0].sass_sha256, fresh[0].sass_sha256);
    EXPECT_EQ(from_cache[0].resources.registers, fresh[0].resources.registers);
    EXPECT_EQ(from_cache[0].ptx, fresh[0].ptx);
}

TEST(CompileCache, ACorruptEntryReadsAsAMiss)
{
    autotune::test::TempDir dir;
    const CompileCache cache(dir.path());
    CompileOutput output;
    output.ok = true;
    output.cubin = "cubin bytes";
    output.ptx = "ptx text";
    output.lowered_name = "_Z1kv";
    const std::string key(64, 'a');
    cache.store(key, output);
    ASSERT_TRUE(cache.load(key).has_value());
    EXPECT_EQ(cache.load(key)->cubin, "cubin bytes");
    std::ofstream(dir.path() / "v1" / "aa" / (key + ".cubin"), std::ios::trunc) << "torn";
    EXPECT_FALSE(cache.load(key).has_value());
    std::ofstream(dir.path() / "v1" / "aa" / (key + ".json"), std::ios::trunc) << "{ not json";
    EXPECT_FALSE(cache.load(key).has_value());
    EXPECT_FALSE(cache.load(std::string(64, 'b')).has_value());
    // Nothing but the entries themselves is left behind (no temporaries).
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path()))
        files += entry.is_regular_file();
    EXPECT_EQ(files, 3u);
}

TEST(CompileCache, TheKeyFollowsIncludedHeadersAndOptions)
{
    autotune::test::TempDir dir;
    std::ofstream(dir.path() / "kernel.cuh") << "#include \"detail/helper.cuh\"\n__global__ void k() {}\n";
    std::filesystem::create_directory(dir.path() / "detail");
    std::ofstream(dir.path() / "detail" / "helper.cuh") << "// version 1\n";
    CompileRequest request;
    request.source = "#include \"kernel.cuh\"\n";
    request.name_expression = "k";
    request.arch = parse_arch("sm_90");
    request.template_path = dir.path() / "kernel.cuh";
    request.include_dirs = {dir.path()};
    const std::string before = compile_cache_key(request, CompilerKind::nvrtc, "13.0");
    EXPECT_EQ(before, compile_cache_key(request, CompilerKind::nvrtc, "13.0"));
    std::ofstream(dir.path() / "detail" / "helper.cuh") << "// version 2\n";
    const std::string after = compile_cache_key(request, CompilerKind::nvrtc, "13.0");
    EXPECT_NE(before, after);
    request.maxrregcount = 64;
    EXPECT_NE(after, compile_cache_key(request, CompilerKind::nvrtc, "13.0"));
    request.maxrregcount = 0;
    EXPECT_NE(after, compile_cache_key(request, CompilerKind::nvcc, "13.0"));
    EXPECT_NE(after, compile_cache_key(request, CompilerKind::nvrtc, "13.1"));
}

// The one entry a single-variant compile leaves in `dir`: its metadata file.
std::filesystem::path only_entry(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> entries;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".json")
            entries.push_back(entry.path());
    if (entries.size() != 1)
        throw std::runtime_error("expected one cache entry, found " + std::to_string(entries.size()));
    return entries.front();
}

// Rewrites an entry's metadata as other valid JSON.
void edit_entry(const std::filesystem::path& meta_path, const std::function<void(nlohmann::json&)>& edit)
{
    auto meta = nlohmann::json::parse(autotune::test::read_file(meta_path));
    edit(meta);
    std::ofstream(meta_path, std::ios::trunc) << meta.dump(1);
}

struct OneCachedVariant {
    autotune::test::TempDir cache;
    CopyRun copy;
    std::vector<Variant> one{copy.space.variants.back()};
    CompileSettings settings = [this] {
        CompileSettings s;
        s.cache_dir = cache.path();
        return s;
    }();
    CompiledVariant compile() const
    {
        return compile_variants(copy.spec, copy.problem, one, parse_arch("sm_90"), settings).front();
    }
};

void expect_same_compile(const CompiledVariant& a, const CompiledVariant& b)
{
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.sass_sha256, b.sass_sha256);
    EXPECT_EQ(a.lowered_name, b.lowered_name);
    EXPECT_EQ(a.resources.registers, b.resources.registers);
    EXPECT_EQ(a.resources.spill_stores, b.resources.spill_stores);
    EXPECT_EQ(a.cubin_sha256, b.cubin_sha256);
}

TEST(CompileCache, AnEntryEditedIntoOtherValidJsonIsCompiledAgainOnceAndReplaced)
{
    const std::vector<std::pair<const char*, std::function<void(nlohmann::json&)>>> edits{
        {"ok = false", [](nlohmann::json& m) { m["ok"] = false; m["error"] = "edited"; }},
        {"another lowered name", [](nlohmann::json& m) { m["lowered_name"] = "_Z5otherv"; }},
        {"another ptxas log", [](nlohmann::json& m) {
             std::string log = m["log"];
             const auto at = log.find("Used ");
             ASSERT_NE(at, std::string::npos) << log;
             log.insert(at + 5, "1"); // "Used 16 registers" -> "Used 116 registers"
             m["log"] = log;
         }},
        {"an entry from before digests", [](nlohmann::json& m) { m.erase("entry_sha256"); }},
    };
    for (const auto& [what, edit] : edits) {
        SCOPED_TRACE(what);
        OneCachedVariant run;
        const CompiledVariant fresh = run.compile();
        ASSERT_EQ(fresh.status, CompileStatus::ok) << fresh.error;
        edit_entry(only_entry(run.cache.path()), edit);
        const CompiledVariant after_edit = run.compile();
        EXPECT_FALSE(after_edit.cache_hit); // compiled again, not trusted
        expect_same_compile(after_edit, fresh);
        const CompiledVariant next = run.compile();
        EXPECT_TRUE(next.cache_hit); // the entry was replaced by a good one
        expect_same_compile(next, fresh);
    }
}

TEST(CompileCache, AnEntryWhoseLogDisagreesWithItsCubinIsCompiledAgainOnceAndReplaced)
{
    // Its digest is right (the cache wrote it so): the disagreement is inside the entry.
    OneCachedVariant run;
    const CompiledVariant fresh = run.compile();
    ASSERT_EQ(fresh.status, CompileStatus::ok) << fresh.error;
    const auto meta_path = only_entry(run.cache.path());
    const std::string key = meta_path.stem().string();
    const CompileCache cache(run.cache.path());
    CompileOutput contradicting = cache.load(key).value();
    const auto at = contradicting.log.find("Used ");
    ASSERT_NE(at, std::string::npos) << contradicting.log;
    contradicting.log.insert(at + 5, "1");
    cache.store(key, contradicting);
    ASSERT_EQ(cache.load(key)->log, contradicting.log);

    const CompiledVariant after = run.compile();
    EXPECT_FALSE(after.cache_hit);
    expect_same_compile(after, fresh);
    EXPECT_NE(cache.load(key)->log, contradicting.log); // replaced
    const CompiledVariant next = run.compile();
    EXPECT_TRUE(next.cache_hit);
    expect_same_compile(next, fresh);
}

// A full disk under the cache, for real: a limit on the size of the files this process
// writes (which binds root too) makes every entry's write fail, as ENOSPC would.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        getrlimit(RLIMIT_FSIZE, &saved_);
        previous_handler_ = std::signal(SIGXFSZ, SIG_IGN); // fail the write, do not kill the test
        const rlimit limit{bytes, saved_.rlim_max};
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit saved_{};
    void (*previous_handler_)(int) = nullptr;
};

TEST(CompileCache, AnEntryThatCannotBeStoredChangesNoResultAndIsSaidOnce)
{
    autotune::test::TempDir cache;
    CopyRun copy;
    const auto uncached = compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_90"), {});
    CompileSettings settings;
    settings.cache_dir = cache.path();
    std::mutex said_mutex;
    std::vector<std::string> said;
    settings.cache_store_failed = [&](const std::string& why) {
        std::lock_guard lock(said_mutex);
        said.push_back(why);
    };
    std::vector<CompiledVariant> stored_nothing;
    {
        const FileSizeLimit disk_full(64); // smaller than any cubin
        stored_nothing = compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_90"), settings);
    }
    ASSERT_EQ(stored_nothing.size(), uncached.size());
    for (std::size_t i = 0; i < uncached.size(); ++i) {
        SCOPED_TRACE(copy.space.variants[i].key());
        EXPECT_EQ(stored_nothing[i].status, CompileStatus::ok) << stored_nothing[i].error;
        EXPECT_EQ(stored_nothing[i].sass_sha256, uncached[i].sass_sha256);
        EXPECT_EQ(stored_nothing[i].resources.registers, uncached[i].resources.registers);
    }
    ASSERT_EQ(said.size(), 1u);
    EXPECT_THAT(said.front(), ::testing::HasSubstr(cache.path().string()));
    // With room again, the next call stores and later ones read.
    (void)compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_90"), settings);
    EXPECT_TRUE(compile_variants(copy.spec, copy.problem, copy.space.variants, parse_arch("sm_90"), settings)
                    .front()
                    .cache_hit);
}

} // namespace
