// A problem left without a winner is a failed run: every way a user's kernel can fail to
// compile as a whole (a template that does not compile, a wrong function, a missing
// #include, bad options, a template that is not CUDA), and compiled variants none of which
// can run, end in exit 1 with one line naming the spec and the first error, the results
// still written. Some variants failing while others compile is still a success.
#include "support/test_support.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

class NoWinnerCli : public ::testing::Test {
protected:
    NoWinnerCli() { std::filesystem::copy_file(test::data_dir() / "broken" / "broken.cuh", dir.path() / "broken.cuh"); }

    // tests/data/broken's spec with `from` replaced by `to`, written beside its template.
    std::filesystem::path spec_with(const std::string& from, const std::string& to, const std::string& name = "k.toml")
    {
        std::string text = test::read_file(test::data_dir() / "broken" / "broken.toml");
        const auto at = text.find(from);
        if (at == std::string::npos)
            throw std::runtime_error("broken.toml has no '" + from + "'");
        text.replace(at, from.size(), to);
        const auto path = dir.path() / name;
        std::ofstream(path) << text;
        return path;
    }
    test::CommandResult run(const std::filesystem::path& spec, const std::string& extra = "--compile-only")
    {
        return test::run_autotune(fmt::format("run {} --arch sm_90 {} --quiet --out {}", spec.string(), extra,
                                              (dir.path() / "results").string()),
                                  dir.path());
    }
    std::filesystem::path results_file(const std::string& kernel = "broken") const
    {
        return dir.path() / "results" / "sm_90" / (kernel + ".json");
    }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    test::TempDir dir;
};

TEST_F(NoWinnerCli, NoVariantCompilingExitsOneNamingTheSpecAndTheFirstCompilerError)
{
    struct Case {
        const char* what;
        std::filesystem::path spec;
        const char* error; // a piece of the first compiler error
    };
    std::ofstream(dir.path() / "includes_missing.cuh") << "#include \"no_such_header.cuh\"\n";
    std::ofstream(dir.path() / "not_cuda.cuh") << "name = \"this is TOML, not CUDA\"\n[x]\ny = 1\n";
    // (Options NVRTC refuses are bad input before anything compiles: nvrtc_option_cli_test.cpp.)
    const std::vector<Case> cases{
        {"a template that does not compile", spec_with("V = [1, 2, 3]", "V = [3]", "a.toml"), "V = 3 is broken on purpose"},
        {"a wrong function", spec_with("function = \"scale\"", "function = \"scal\"", "b.toml"), "scal"},
        {"a missing #include", spec_with("template = \"broken.cuh\"", "template = \"includes_missing.cuh\"", "c.toml"),
         "no_such_header.cuh"},
        {"a template that is not CUDA", spec_with("template = \"broken.cuh\"", "template = \"not_cuda.cuh\"", "e.toml"),
         "error"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        std::filesystem::remove_all(dir.path() / "results");
        const auto r = run(c.spec);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_THAT(r.err, HasSubstr(c.spec.string()));
        EXPECT_THAT(r.err, HasSubstr("no winner for sm_90, problem N=1024: no variant compiled"));
        EXPECT_THAT(r.err, HasSubstr(c.error));
        EXPECT_EQ(r.err.find('\0'), std::string::npos); // text, not bytes
        // The results are written all the same: each variant and its error.
        const json results = json::parse(test::read_file(results_file()));
        ASSERT_FALSE(results.at("variants").empty());
        for (const auto& v : results.at("variants"))
            EXPECT_EQ(v.at("status"), "compile_error");
        EXPECT_TRUE(results.at("problems").at(0).at("winner").is_null());
    }
}

TEST_F(NoWinnerCli, CompiledVariantsNoneOfWhichCanRunExitOne)
{
    // More dynamic shared memory than any SM has: it compiles, and the model says no block fits.
    const auto spec = spec_with("block = [\"128\"]", "block = [\"128\"]\ndynamic_shared_bytes = \"1048576\"");
    const auto r = run(spec);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr(spec.string()));
    EXPECT_THAT(r.err, HasSubstr("none of the 2 compiled variants can run on sm_90"));
    EXPECT_TRUE(std::filesystem::exists(results_file()));
}

TEST_F(NoWinnerCli, WithoutCompileOnlyAndWithoutADeviceItFailsTheSame)
{
    const auto spec = spec_with("V = [1, 2, 3]", "V = [3]");
    const auto r = run(spec, "");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("no winner for sm_90, problem N=1024: no variant compiled"));
}

TEST_F(NoWinnerCli, EveryProblemOfASetIsCheckedAndTheLineCountsThoseWithoutAWinner)
{
    const auto spec = spec_with("V = [1, 2, 3]", "V = [3]");
    const auto r = run(spec, "--compile-only --problem N=1024 --problem N=2048");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr("problem N=1024 (and 1 more of the 2 problems)"));
}

TEST_F(NoWinnerCli, SomeVariantsFailingIsStillASuccess)
{
    const auto r = run(test::data_dir() / "broken" / "broken.toml");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(NoWinnerCli, CheckModelWithNothingCompiledExitsOne)
{
    const auto spec = spec_with("V = [1, 2, 3]", "V = [3]");
    const json measured{{"device_name", "NVIDIA GeForce RTX 3090"}, {"kernel_name", "broken"}, {"problem_size", 1},
                        {"tune_params_keys", {"V"}}, {"tune_params", {{"V", {3}}}}, {"objective", "time"},
                        {"cache", {{"3", {{"V", 3}, {"time", 1.0}, {"times", {1.0, 1.0}}}}}}};
    std::ofstream(dir.path() / "measured.json") << measured.dump();
    const auto r = test::run_autotune(fmt::format("check-model {} --measured {} --arch sm_86 --quiet", spec.string(),
                                                  (dir.path() / "measured.json").string()),
                                      dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr("no winner for sm_86"));
    EXPECT_THAT(r.err, HasSubstr("V = 3 is broken on purpose"));
}

// A T1 file whose sizes are fixed (a GlobalSize, no ProblemSize) has no problem variables:
// the line names the spec and the arch, with no empty "problem" between them (BAT's hotspot,
// whose kernel uses a name it never declares, ended "problem : no variant compiled").
TEST_F(NoWinnerCli, AT1FileWithFixedSizesIsNamedWithoutAnEmptyProblem)
{
    std::ofstream(dir.path() / "undeclared.cu")
        << "extern \"C\" __global__ void undeclared(float* out) { out[threadIdx.x] = power_src[0] * BLOCK; }\n";
    const json t1{
        {"General", {{"BenchmarkName", "undeclared"}}},
        {"ConfigurationSpace",
         {{"TuningParameters", {{{"Name", "BLOCK"}, {"Type", "int"}, {"Values", "[32, 64]"}, {"Default", 32}}}}}},
        {"KernelSpecification",
         {{"Language", "CUDA"}, {"KernelName", "undeclared"}, {"KernelFile", "undeclared.cu"},
          {"GlobalSizeType", "CUDA"}, {"LocalSize", {{"X", "BLOCK"}}}, {"GlobalSize", {{"X", "4"}}},
          {"Arguments",
           {{{"Name", "out"}, {"Type", "float"}, {"Size", 256}, {"MemoryType", "Vector"}, {"AccessType", "WriteOnly"},
             {"FillType", "Constant"}, {"FillValue", 0.0}}}}}}};
    std::ofstream(dir.path() / "undeclared.json") << t1.dump(2);
    const auto r = run(dir.path() / "undeclared.json");
    EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr("undeclared.json: no winner for sm_90: no variant compiled (2 compile errors); "
                                 "the first: "));
    EXPECT_THAT(r.err, HasSubstr("power_src"));
    // Without --quiet the progress lines count the errors as they come.
    const auto loud = test::run_autotune(fmt::format("run {} --arch sm_90 --compile-only --out {}",
                                                     (dir.path() / "undeclared.json").string(),
                                                     (dir.path() / "results").string()),
                                         dir.path());
    EXPECT_EQ(loud.exit_code, 1) << loud.err;
    EXPECT_THAT(loud.err, HasSubstr("compiling undeclared for sm_90: 2/2 (100%)"));
    EXPECT_THAT(loud.err, HasSubstr(", 2 compile errors so far\n"));
}

} // namespace
