// --nvrtc: compiling with another toolkit's NVRTC, loaded by path. The toolkit's own
// library loaded so compiles the same machine code as the linked one; a fake NVRTC (it
// says 11.2, knows sm_52, sm_86 and sm_90, fails every compile with a line of its own) shows
// which library a compile really ran, in this process and in a compile worker, and that
// the cache keeps the two toolkits' compiles apart.
#include "compile/nvrtc_library.hpp"

#include "compile/compile_variants.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

std::filesystem::path toolkit_nvrtc() { return autotune::test::from_environment("AUTOTUNE_NVRTC_LIBRARY", AUTOTUNE_NVRTC_LIBRARY); }
std::filesystem::path fake_nvrtc() { return AUTOTUNE_FAKE_NVRTC; }

struct Unrolled {
    KernelSpec spec = load_spec(autotune::test::data_dir() / "compile_limits" / "unrolled.toml");
    Problem problem = resolve_problem(spec, {});
    std::vector<Variant> variants = enumerate_space(spec, problem, SpaceSelection::default_space).variants;
    [[nodiscard]] std::vector<Variant> with_n(std::int64_t n) const
    {
        for (const auto& v : variants)
            if (v.value("N") == n)
                return {v};
        throw std::runtime_error("no variant with N=" + std::to_string(n));
    }
};

std::string load_error(const std::filesystem::path& path)
{
    try {
        (void)load_nvrtc(path);
    } catch (const NvrtcLibraryError& e) {
        return e.what();
    }
    return "loaded";
}

} // namespace

TEST(NvrtcLibrary, TheToolkitsOwnLibraryLoadedByPathIsTheLinkedOne)
{
    const NvrtcLibrary linked = linked_nvrtc();
    const NvrtcLibrary loaded = load_nvrtc(toolkit_nvrtc());
    EXPECT_EQ(loaded.version, linked.version);
    EXPECT_EQ(loaded.path, toolkit_nvrtc());
    EXPECT_TRUE(linked.path.empty());
    EXPECT_EQ(supported_archs(loaded), supported_archs(linked));
    EXPECT_THAT(describe(loaded), HasSubstr("NVRTC " + linked.version + " (" + toolkit_nvrtc().string() + ")"));
    EXPECT_EQ(describe(linked), "NVRTC " + linked.version);

    // The same compiler, loaded or linked, in this process or in a worker: the same code.
    const Unrolled run;
    CompileSettings settings;
    const auto by_linked = compile_variants(run.spec, run.problem, run.with_n(2), parse_arch("sm_86"), settings);
    settings.nvrtc = loaded;
    const auto in_process = compile_variants(run.spec, run.problem, run.with_n(2), parse_arch("sm_86"), settings);
    settings.limits.worker_argv = {autotune::test::autotune_binary().string(), "compile-worker"};
    const auto in_worker = compile_variants(run.spec, run.problem, run.with_n(2), parse_arch("sm_86"), settings);
    for (const auto* compiled : {&by_linked, &in_process, &in_worker}) {
        ASSERT_EQ(compiled->at(0).status, CompileStatus::ok) << compiled->at(0).error;
        EXPECT_EQ(compiled->at(0).sass_sha256, by_linked[0].sass_sha256);
        EXPECT_EQ(compiled->at(0).resources.registers, by_linked[0].resources.registers);
    }
    EXPECT_FALSE(by_linked[0].sass_sha256.empty());
}

TEST(NvrtcLibrary, ALibraryThatIsNoNvrtcIsRefusedNamingThePath)
{
    autotune::test::TempDir dir;
    EXPECT_THAT(load_error(dir.path() / "libnvrtc.so.11.2"), HasSubstr("libnvrtc.so.11.2: no such file"));
    const auto text = dir.path() / "libnvrtc.so";
    std::ofstream(text) << "not a library\n";
    EXPECT_THAT(load_error(text), HasSubstr("--nvrtc " + text.string() + ": cannot be loaded: "));
    // A real shared library, but no NVRTC: the first entry point it lacks is named.
    EXPECT_THAT(load_error(AUTOTUNE_FAKE_DRIVER),
                HasSubstr(std::string(AUTOTUNE_FAKE_DRIVER) + ": not an NVRTC of CUDA 11.2 or newer (it has no "
                          "nvrtcGetErrorString)"));
}

TEST(NvrtcLibrary, AnArchitectureTheLoadedNvrtcCannotCompileForIsRefusedWithWhatItCan)
{
    const NvrtcLibrary fake = load_nvrtc(fake_nvrtc());
    EXPECT_EQ(fake.version, "11.2");
    EXPECT_EQ(supported_archs(fake), (std::vector<int>{52, 86, 90}));
    EXPECT_EQ(require_compilable_arch("sm_86", fake).number(), 86);
    const auto refusal = [&](const std::string& arch) -> std::string {
        try {
            (void)require_compilable_arch(arch, fake);
        } catch (const ArchError& e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_THAT(refusal("sm_80"), HasSubstr("--arch sm_80: NVRTC 11.2 (" + fake_nvrtc().string() +
                                            ") cannot compile for it (supported: sm_52, sm_86, sm_90;"));
    // The linked NVRTC still compiles for sm_80: each library is asked, not a table.
    EXPECT_EQ(require_compilable_arch("sm_80").number(), 80);
    // A suffix is tried by a compile, remembered per library: the linked one takes sm_90a,
    // the fake (sm_90 listed, every compile failing) does not.
    EXPECT_EQ(require_compilable_arch("sm_90a").suffix, "a");
    EXPECT_THAT(refusal("sm_90a"), HasSubstr("--arch sm_90a: NVRTC 11.2"));
}

TEST(NvrtcLibrary, CompilesRunTheLoadedLibraryInThisProcessAndInTheWorkerAndAreCachedApart)
{
    const Unrolled run;
    autotune::test::TempDir cache;
    CompileSettings settings;
    settings.cache_dir = cache.path();
    const auto linked = compile_variants(run.spec, run.problem, run.with_n(1), parse_arch("sm_86"), settings);
    ASSERT_EQ(linked[0].status, CompileStatus::ok) << linked[0].error;

    // The same variant, the same cache: the linked NVRTC's entry is not the fake's answer.
    settings.nvrtc = load_nvrtc(fake_nvrtc());
    const auto in_process = compile_variants(run.spec, run.problem, run.with_n(1), parse_arch("sm_86"), settings);
    EXPECT_FALSE(in_process[0].cache_hit);
    EXPECT_EQ(in_process[0].status, CompileStatus::compile_error);
    EXPECT_THAT(in_process[0].error, HasSubstr("the fake NVRTC 11.2 compiles nothing"));

    // The worker, another process, loads the library by the path it is given.
    settings.cache_dir.reset();
    settings.limits.worker_argv = {autotune::test::autotune_binary().string(), "compile-worker"};
    const auto in_worker = compile_variants(run.spec, run.problem, run.with_n(2), parse_arch("sm_86"), settings);
    EXPECT_EQ(in_worker[0].status, CompileStatus::compile_error);
    EXPECT_THAT(in_worker[0].error, HasSubstr("the fake NVRTC 11.2 compiles nothing"));
}

// A patch release shares its major.minor with the release before it and may compile
// differently: a cached compile is another build's only when it is the same file. (A copy
// with one byte appended stands in for another build: it loads and compiles the same.)
TEST(NvrtcLibrary, AnotherBuildOfTheSameVersionIsNotServedTheCache)
{
    const Unrolled run;
    autotune::test::TempDir dir;
    CompileSettings settings;
    settings.cache_dir = dir.path() / "cache";
    const auto linked = compile_variants(run.spec, run.problem, run.with_n(1), parse_arch("sm_86"), settings);
    ASSERT_EQ(linked[0].status, CompileStatus::ok) << linked[0].error;
    EXPECT_FALSE(linked_nvrtc().build.empty());

    settings.nvrtc = load_nvrtc(AUTOTUNE_NVRTC_LIBRARY); // the same file by path: the same build
    EXPECT_EQ(settings.nvrtc.build, linked_nvrtc().build);
    EXPECT_TRUE(compile_variants(run.spec, run.problem, run.with_n(1), parse_arch("sm_86"), settings)[0].cache_hit);

    const auto patched = dir.path() / "libnvrtc.so.patched";
    std::filesystem::copy_file(std::filesystem::canonical(AUTOTUNE_NVRTC_LIBRARY), patched);
    std::ofstream(patched, std::ios::app | std::ios::binary) << '\0';
    settings.nvrtc = load_nvrtc(patched);
    ASSERT_EQ(settings.nvrtc.version, linked_nvrtc().version);
    EXPECT_NE(settings.nvrtc.build, linked_nvrtc().build);
    const auto other = compile_variants(run.spec, run.problem, run.with_n(1), parse_arch("sm_86"), settings);
    EXPECT_FALSE(other[0].cache_hit);
    EXPECT_EQ(other[0].status, CompileStatus::ok) << other[0].error;
}

TEST(NvrtcLibrary, OptionsAreCheckedByTheLibraryThatWillCompile)
{
    const ArchTarget sm86 = parse_arch("sm_86");
    EXPECT_EQ(rejected_options(linked_nvrtc(), sm86, {"-ftz=true", "-std=c++17"}), "");
    EXPECT_THAT(rejected_options(linked_nvrtc(), sm86, {"-ftz=true", "-bogus"}),
                HasSubstr("unrecognized option -bogus"));
    EXPECT_THAT(rejected_options(linked_nvrtc(), sm86, {"-ftz=maybe"}), HasSubstr("expects true or false"));
    // A compile that fails for another reason is not the options' fault: the fake fails
    // every compile, but not as NVRTC_ERROR_INVALID_OPTION.
    EXPECT_EQ(rejected_options(load_nvrtc(fake_nvrtc()), sm86, {"-bogus"}), "");
}
