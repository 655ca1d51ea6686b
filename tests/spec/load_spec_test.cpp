#include "spec/load_spec.hpp"

#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

const char* const valid_spec = R"toml(name = "scale"
description = "y = a * x"

[kernel]
template = "scale.cu"
function = "scale"
parameters_as = "preprocessor_definitions"

[parameters]
BLOCK = { values = [64, 128, 256], default = [128] }
UNROLL = [1, 2]

[derived]
PER_BLOCK = "BLOCK * UNROLL"

[constraints]
fits = "PER_BLOCK <= 512"

[problem]
N = 1000

[[arguments]]
name = "x"
buffer = "float"
size = "N"

[[arguments]]
name = "n"
scalar = "int"
value = "N"

[launch]
grid = ["ceil_div(N, PER_BLOCK)"]
block = ["BLOCK"]

[cost]
flops = "N"
bytes = "8 * N"
)toml";

class SpecFile : public ::testing::Test {
protected:
    std::filesystem::path write(const std::string& text)
    {
        std::ofstream(dir.path() / "scale.cu") << "extern \"C\" __global__ void scale(float* x, int n) {}\n";
        const auto path = dir.path() / "scale.toml";
        std::ofstream(path) << text;
        return path;
    }
    // The valid spec with one substring replaced.
    std::filesystem::path write_changed(const std::string& from, const std::string& to)
    {
        std::string text = valid_spec;
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        return write(text);
    }
    std::string error_of(const std::filesystem::path& path)
    {
        try {
            (void)load_spec(path);
        } catch (const SpecError& e) {
            return e.what();
        }
        return "(no error)";
    }
    test::TempDir dir;
};

TEST_F(SpecFile, ReadsEverySectionInSourceOrder)
{
    const KernelSpec spec = load_spec(write(valid_spec));
    EXPECT_EQ(spec.name, "scale");
    EXPECT_EQ(spec.passing, ParameterPassing::preprocessor_definitions);
    EXPECT_EQ(spec.template_path, std::filesystem::weakly_canonical(dir.path() / "scale.cu"));
    ASSERT_EQ(spec.parameters.size(), 2u);
    EXPECT_EQ(spec.parameters[0].name, "BLOCK"); // source order, not alphabetical
    EXPECT_EQ(spec.parameters[0].values, (std::vector<std::int64_t>{64, 128, 256}));
    EXPECT_EQ(spec.parameters[0].default_values, (std::vector<std::int64_t>{128}));
    EXPECT_EQ(spec.parameters[1].default_values, spec.parameters[1].values);
    ASSERT_EQ(spec.constraints.size(), 1u);
    EXPECT_EQ(spec.constraints[0].name, "fits");
    ASSERT_EQ(spec.arguments.size(), 2u);
    EXPECT_EQ(spec.arguments[0].kind, ArgumentKind::buffer);
    EXPECT_EQ(spec.arguments[1].kind, ArgumentKind::scalar);
    EXPECT_EQ(spec.launch.grid, (std::vector<std::string>{"ceil_div(N, PER_BLOCK)"}));
    EXPECT_EQ(spec.cost.bytes, "8 * N");
}

TEST_F(SpecFile, BuiltInKernelsLoad)
{
    for (const char* name : {"copy", "gemm"}) {
        const KernelSpec spec = load_spec(test::source_dir() / "kernels" / (std::string(name) + ".toml"));
        EXPECT_EQ(spec.name, name);
        EXPECT_TRUE(std::filesystem::is_regular_file(spec.template_path));
        EXPECT_EQ(spec.register_policy.max_threads, "MAX_THREADS");
        EXPECT_EQ(spec.register_policy.maxrregcount, "MAXRREGCOUNT");
    }
}

TEST_F(SpecFile, ErrorsStartWithTheFileAndLineAndSayWhatIsWrong)
{
    const auto path = write_changed("UNROLL = [1, 2]", "UNROLL = [1, 2");
    EXPECT_THAT(error_of(path), StartsWith(path.string() + ":"));

    EXPECT_THAT(error_of(write_changed("PER_BLOCK <= 512", "PER_BLOK <= 512")),
                AllOf(HasSubstr("constraint fits"), HasSubstr("'PER_BLOK'")));
    EXPECT_THAT(error_of(write_changed("template = \"scale.cu\"", "template = \"missing.cu\"")),
                HasSubstr("template 'missing.cu' not found"));
    EXPECT_THAT(error_of(write_changed("UNROLL = [1, 2]", "UNROLL = [1, 1]")), HasSubstr("lists 1 twice"));
    EXPECT_THAT(error_of(write_changed("default = [128]", "default = [96]")),
                HasSubstr("default value 96 is not among its values"));
    EXPECT_THAT(error_of(write_changed("UNROLL = [1, 2]", "UNROLL = [1.5]")), HasSubstr("integers"));
    EXPECT_THAT(error_of(write_changed("preprocessor_definitions", "macros")), HasSubstr("parameters_as = 'macros'"));
    EXPECT_THAT(error_of(write_changed("grid = [\"ceil_div(N, PER_BLOCK)\"]", "grid = []")),
                HasSubstr("1 to 3 expressions"));
    EXPECT_THAT(error_of(write_changed("buffer = \"float\"", "pointer = \"float\"")),
                HasSubstr("exactly one of buffer"));
    EXPECT_THAT(error_of(write_changed("[cost]\nflops = \"N\"\n", "[cost]\n")), HasSubstr("missing key 'flops'"));
    EXPECT_THAT(error_of(write_changed("name = \"scale\"", "name = \"my kernel\"")), HasSubstr("not a valid identifier"));
    EXPECT_THAT(error_of(dir.path() / "absent.toml"), HasSubstr("spec file not found"));
}

TEST_F(SpecFile, RegisterPolicyMustNameParameters)
{
    const auto path = write(std::string(valid_spec) + "\n[register_policy]\nmax_threads = \"MAXT\"\n");
    EXPECT_THAT(error_of(path), HasSubstr("'MAXT', which is not a parameter"));
    const auto unknown = write(std::string(valid_spec) + "\n[register_policy]\nmax_thread = \"BLOCK\"\n");
    EXPECT_THAT(error_of(unknown), HasSubstr("unknown key 'max_thread'"));
}

TEST_F(SpecFile, TemplateArgumentsAreRequiredForTemplatesAndMustBeKnownNames)
{
    const auto missing = write_changed("preprocessor_definitions", "template_arguments");
    EXPECT_THAT(error_of(missing), HasSubstr("needs template_arguments"));
    const auto unknown = write_changed("parameters_as = \"preprocessor_definitions\"",
                                       "parameters_as = \"template_arguments\"\ntemplate_arguments = [\"BLOCK\", \"X\"]");
    EXPECT_THAT(error_of(unknown), HasSubstr("template_arguments names 'X'"));
}

TEST_F(SpecFile, NamesMayNotCollideAcrossProblemParametersAndDerivedValues)
{
    EXPECT_THAT(error_of(write_changed("N = 1000", "BLOCK = 1000")), HasSubstr("'BLOCK' is defined twice"));
}

} // namespace

namespace {

TEST_F(SpecFile, TheCostModelMayUseParametersAndDerivedValuesButNoUnknownName)
{
    EXPECT_EQ(error_of(write_changed("flops = \"N\"", "flops = \"N * UNROLL + PER_BLOCK\"")), "(no error)");
    const auto unknown = write_changed("flops = \"N\"", "flops = \"N * UNROLLS\"");
    const std::string error = error_of(unknown);
    EXPECT_THAT(error, AllOf(StartsWith(unknown.string()), HasSubstr("cost.flops: 'N * UNROLLS' uses unknown name 'UNROLLS'")));
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_THAT(error_of(write_changed("bytes = \"8 * N\"", "bytes = \"8 * N\"\nprecision = \"fp8\"")),
                HasSubstr("[cost] precision 'fp8' is not one of"));
}

} // namespace
