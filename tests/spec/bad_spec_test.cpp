// A user's bad spec, one class of mistake at a time: each is one line that starts with the
// spec file and names the field, whether it is found when the spec is read (load_spec) or
// when a problem is set up for tuning (check_problem, reference_variant).
#include "arch/arch_target.hpp"
#include "compile/compile_request.hpp"
#include "measure/measure_job.hpp"
#include "space/check_problem.hpp"
#include "space/enumerate_space.hpp"
#include "space/problem_work.hpp"
#include "space/reference_variant.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <tuple>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

// A Kernel Tuner style kernel: macros, extern "C", a 2-D grid dividing the problem.
const char* const user_spec = R"toml(name = "stencil"

[kernel]
template = "stencil.cu"
function = "stencil"
parameters_as = "preprocessor_definitions"
defines = ["W"]

[parameters]
block_size_x = [16, 32, 64]
block_size_y = [1, 2, 4]

[constraints]
enough_threads = "block_size_x * block_size_y >= 64"
divides = "W % block_size_x == 0 && H % block_size_y == 0"

[problem]
W = 1024
H = 512

[[arguments]]
name = "out"
buffer = "float"
size = "W * H"
access = "output"

[[arguments]]
name = "in"
buffer = "float"
size = "W * H"

[[arguments]]
name = "h"
scalar = "int"
value = "H"

[launch]
grid = ["W / block_size_x", "H / block_size_y"]
block = ["block_size_x", "block_size_y"]

[cost]
flops = "4 * W * H"
bytes = "8 * W * H"

[reference]
variant = { block_size_x = 32, block_size_y = 2 }
)toml";

class BadSpec : public ::testing::Test {
protected:
    std::filesystem::path write(const std::string& text)
    {
        std::ofstream(dir.path() / "stencil.cu") << "extern \"C\" __global__ void stencil(float* out, const float* in, "
                                                    "int h) {}\n";
        const auto path = dir.path() / "stencil.toml";
        std::ofstream(path) << text;
        return path;
    }
    std::filesystem::path write_changed(const std::string& from, const std::string& to)
    {
        std::string text = user_spec;
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos)
            text.replace(at, from.size(), to);
        return write(text);
    }
    // The error of reading the spec, or of setting up `problem` for tuning.
    std::string error_of(const std::filesystem::path& path, const std::string& problem = "")
    {
        try {
            const KernelSpec spec = load_spec(path);
            const std::vector<std::string> requested = problem.empty() ? std::vector<std::string>{}
                                                                       : std::vector<std::string>{problem};
            for (const Problem& p : resolve_problems(spec, requested)) {
                const Space space = enumerate_space(spec, p, SpaceSelection::default_space);
                check_problem(spec, p, space, SpaceSelection::default_space);
                (void)reference_variant(spec, p);
            }
        } catch (const SpecError& e) {
            return e.what();
        }
        return "(no error)";
    }
    // One line, starting with the spec file.
    void expect_one_line_naming_the_spec(const std::string& error, const std::filesystem::path& path)
    {
        EXPECT_THAT(error, StartsWith(path.string()));
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
    // Each of `cases` (a replacement for `from`, the error it must give) is one line naming the spec.
    void expect_errors(const std::string& from, const std::vector<std::pair<std::string, std::string>>& cases)
    {
        for (const auto& [to, expected] : cases) {
            const auto path = write_changed(from, to);
            const std::string error = error_of(path);
            EXPECT_THAT(error, HasSubstr(expected)) << to;
            expect_one_line_naming_the_spec(error, path);
        }
    }
    // Each change (from, to) of the spec gives one line naming the spec that holds `expected`
    // and `also`.
    using Change = std::pair<std::pair<std::string, std::string>, std::string>;
    void expect_changed_errors(const std::vector<Change>& cases, const std::string& also)
    {
        for (const auto& [change, expected] : cases) {
            const auto path = write_changed(change.first, change.second);
            const std::string error = error_of(path);
            EXPECT_THAT(error, HasSubstr(expected)) << change.second;
            EXPECT_THAT(error, HasSubstr(also)) << change.second;
            expect_one_line_naming_the_spec(error, path);
        }
    }
    test::TempDir dir;
};

TEST_F(BadSpec, TheValidSpecHasNoError)
{
    EXPECT_EQ(error_of(write(user_spec)), "(no error)");
}

TEST_F(BadSpec, MissingRequiredFieldsAreNamed)
{
    const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases{
        {{"function = \"stencil\"\n", ""}, "missing key 'function'"},
        {{"template = \"stencil.cu\"\n", ""}, "missing key 'template'"},
        {{"name = \"stencil\"\n", ""}, "missing key 'name'"},
        {{"[launch]\n", "[launc]\n"}, "unknown key 'launc'"},
        {{"grid = [\"W / block_size_x\", \"H / block_size_y\"]\n", ""}, "missing key 'grid'"},
        {{"bytes = \"8 * W * H\"\n", ""}, "missing key 'bytes'"},
        {{"size = \"W * H\"\naccess = \"output\"", "access = \"output\""}, "missing key 'size'"},
        {{"value = \"H\"\n", ""}, "missing key 'value'"},
    };
    for (const auto& [change, expected] : cases) {
        const auto path = write_changed(change.first, change.second);
        const std::string error = error_of(path);
        EXPECT_THAT(error, HasSubstr(expected)) << change.first;
        expect_one_line_naming_the_spec(error, path);
    }
    std::string no_arguments = user_spec;
    no_arguments.erase(no_arguments.find("[[arguments]]"), no_arguments.find("[launch]") - no_arguments.find("[[arguments]]"));
    const auto path = write(no_arguments);
    EXPECT_THAT(error_of(path), AllOf(StartsWith(path.string()), HasSubstr("missing [[arguments]]")));
}

TEST_F(BadSpec, AnEmptySpaceNamesTheRuleThatRemovedMost)
{
    const auto path = write_changed(">= 64", ">= 4096");
    const std::string error = error_of(path);
    EXPECT_THAT(error, AllOf(HasSubstr("problem W=1024,H=512"), HasSubstr("no valid variant"),
                             HasSubstr("9 of 9 combinations removed by constraint enough_threads")));
    expect_one_line_naming_the_spec(error, path);
}

TEST_F(BadSpec, AnEmptyDefaultSpacePointsAtTheFullOne)
{
    const auto path = write_changed("block_size_x = [16, 32, 64]", "block_size_x = { values = [16, 32, 64], default = [16] }");
    EXPECT_THAT(error_of(path, "H=1"), AllOf(HasSubstr("no valid variant"), HasSubstr("--space full has valid variants")));
}

TEST_F(BadSpec, UnknownNamesInExpressionsAreNamedWithTheirField)
{
    const std::vector<Change> cases{
        {{"W / block_size_x\"", "W / block_sise_x\""}, "launch.grid[0]"},
        {{"block = [\"block_size_x\", \"block_size_y\"]", "block = [\"block_size_x\", \"BY\"]"}, "launch.block[1]"},
        {{">= 64", ">= threads"}, "constraint enough_threads"},
        {{"size = \"W * H\"", "size = \"W * HEIGHT\""}, "argument out"},
        {{"value = \"H\"", "value = \"height\""}, "argument h"},
        {{"defines = [\"W\"]", "defines = [\"WIDTH\"]"}, "defines.WIDTH"},
        {{"defines = [\"W\"]", "defines = { TILE = \"block_size_x * K\" }"}, "defines.TILE"},
        {{"flops = \"4 * W * H\"", "flops = \"4 * W * H * block_sise_x\""}, "cost.flops"},
        {{"block = [\"block_size_x\", \"block_size_y\"]", "block = [\"block_size_x\", \"block_size_y\"]\n"
                                                         "static_shared_bytes = \"4 * block_sise_x\""},
         "launch.static_shared_bytes"},
    };
    expect_changed_errors(cases, "uses unknown name");
}

TEST_F(BadSpec, ACostThatDiffersBetweenVariantsIsRefusedNamingTwoOfThem)
{
    const auto path = write_changed("flops = \"4 * W * H\"", "flops = \"4 * W * H * block_size_x\"");
    const std::string error = error_of(path);
    EXPECT_THAT(error, AllOf(HasSubstr("problem W=1024,H=512: cost.flops '4 * W * H * block_size_x' is"),
                             HasSubstr("for variant block_size_x=16,block_size_y=4 but"),
                             HasSubstr("for variant block_size_x=32,block_size_y=2"),
                             HasSubstr("the same for every variant")));
    expect_one_line_naming_the_spec(error, path);
}

TEST_F(BadSpec, ACostMayUseAParameterWithOneValueAndDerivedValues)
{
    // Kernel Tuner's convolution: the filter's size is a tuning parameter with one value.
    std::string text = user_spec;
    const auto change = [&](const std::string& from, const std::string& to) {
        ASSERT_NE(text.find(from), std::string::npos) << from;
        text.replace(text.find(from), from.size(), to);
    };
    change("[constraints]", "filter = [5]\n\n[derived]\nhalf_filter = \"filter / 2\"\n\n[constraints]");
    change("flops = \"4 * W * H\"", "flops = \"2 * W * H * filter * filter\"");
    change("bytes = \"8 * W * H\"", "bytes = \"4 * (W + 2 * half_filter) * H + 4 * W * H\"");
    change("block_size_y = 2 }", "block_size_y = 2, filter = 5 }");
    const auto path = write(text);
    EXPECT_EQ(error_of(path), "(no error)");
    const KernelSpec spec = load_spec(path);
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    ASSERT_FALSE(space.variants.empty());
    const ProblemWork work = problem_work(spec, problem, space.variants);
    EXPECT_DOUBLE_EQ(work.flops, 2.0 * 1024 * 512 * 25);
    EXPECT_DOUBLE_EQ(work.bytes, 4.0 * (1024 + 5) * 512 + 4.0 * 1024 * 512); // half_filter is 2.5, not 2
    EXPECT_DOUBLE_EQ(problem_work(spec, problem, {}).flops, work.flops); // no variant: the first values
}

TEST_F(BadSpec, AMissingTemplateFileIsNamedWithWhereItWasLookedFor)
{
    const auto path = write_changed("template = \"stencil.cu\"", "template = \"kernels/stencil.cu\"");
    const std::string error = error_of(path);
    EXPECT_THAT(error, AllOf(HasSubstr("template 'kernels/stencil.cu' not found"),
                             HasSubstr((dir.path() / "kernels" / "stencil.cu").string())));
    expect_one_line_naming_the_spec(error, path);
}

TEST_F(BadSpec, OverflowingAndInsaneSizesAreRefusedBeforeAnythingIsCompiled)
{
    const auto path = write(user_spec);
    // 8 · 2^32 · 2^32 bytes: beyond 2^53, an overflow in any integer type a kernel uses.
    const std::string overflow = error_of(path, "W=4294967296,H=4294967296");
    EXPECT_THAT(overflow, AllOf(HasSubstr("cost.bytes '8 * W * H'"), HasSubstr("too large")));
    expect_one_line_naming_the_spec(overflow, path);
    // 2^40 floats: 4 TiB, more than any GPU holds.
    const std::string huge = error_of(path, "W=1048576,H=1048576");
    EXPECT_THAT(huge, AllOf(HasSubstr("argument out: size 'W * H' = 1099511627776 elements is 4 TiB"),
                            HasSubstr("more than any GPU holds")));
    expect_one_line_naming_the_spec(huge, path);
    // A buffer size beyond 2^53 whatever the cost model says.
    const std::string elements = error_of(write_changed("size = \"W * H\"\naccess", "size = \"W * H * 2^40\"\naccess"));
    EXPECT_THAT(elements, AllOf(HasSubstr("argument out size"), HasSubstr("too large (beyond 2^53")));
    const std::string empty = error_of(write_changed("size = \"W * H\"\naccess", "size = \"W - W\"\naccess"));
    EXPECT_THAT(empty, HasSubstr("a buffer needs at least one element"));
    const std::string type = error_of(write_changed("buffer = \"float\"", "buffer = \"flaot\""));
    EXPECT_THAT(type, AllOf(HasSubstr("argument out"), HasSubstr("flaot")));
}

TEST_F(BadSpec, UnknownKeysAreRefusedAtEveryLevel)
{
    const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases{
        {{"name = \"stencil\"", "name = \"stencil\"\nversion = 2"}, "unknown key 'version'"},
        {{"[problem]", "[problems_]"}, "unknown key 'problems_'"},
        {{"parameters_as", "parameter_as"}, "[kernel] has unknown key 'parameter_as'"},
        {{"block = [", "blocks = ["}, "[launch] has unknown key 'blocks'"},
        {{"bytes =", "byte ="}, "[cost] has unknown key 'byte'"},
        {{"access = \"output\"", "acess = \"output\""}, "argument out has unknown key 'acess'"},
        {{"variant = {", "variants = {"}, "[reference] has unknown key 'variants'"},
    };
    for (const auto& [change, expected] : cases) {
        const auto path = write_changed(change.first, change.second);
        const std::string error = error_of(path);
        EXPECT_THAT(error, HasSubstr(expected)) << change.second;
        expect_one_line_naming_the_spec(error, path);
    }
}

TEST_F(BadSpec, AProblemVariablesMatchIsExactOrNearestAndItNeedsADefault)
{
    const auto good = write_changed("H = 512", "H = { default = 512, match = \"exact\" }");
    const KernelSpec spec = load_spec(good);
    ASSERT_EQ(spec.problem.size(), 2u);
    EXPECT_FALSE(spec.problem[0].exact);
    EXPECT_TRUE(spec.problem[1].exact);
    EXPECT_EQ(spec.problem[1].default_value, 512);
    EXPECT_FALSE(load_spec(write_changed("H = 512", "H = { default = 512, match = \"nearest\" }")).problem[1].exact);

    expect_errors("H = 512", {
        {"H = { default = 512, match = \"exactly\" }", "problem variable H: match must be \"exact\" or \"nearest\""},
        {"H = { match = \"exact\" }", "problem variable H needs a default"},
        {"H = { default = 512, macth = \"exact\" }", "problem variable H has unknown key 'macth'"},
        {"H = { default = \"512\" }", "problem variable H must have an integer default"},
    });
}

TEST_F(BadSpec, ABadReferenceVariantIsNamed)
{
    expect_errors("variant = { block_size_x = 32, block_size_y = 2 }", {
        {"variant = { block_size_x = 32, block_size_y = 2, block_size_z = 1 }",
         "[reference] variant sets 'block_size_z', which is not a parameter"},
        {"variant = { block_size_x = 48, block_size_y = 2 }",
         "[reference] variant block_size_x = 48 is not among the parameter's values (16, 32, 64)"},
        {"variant = { block_size_x = 32 }", "[reference] variant gives no value for block_size_y"},
        {"variant = { block_size_x = 32, block_size_y = \"2\" }", "[reference] variant block_size_y must be an integer"},
        {"variant = [32, 2]", "[reference] variant must be a table of parameter values"},
        {"cpu = \"copy\"\nvariant = { block_size_x = 32, block_size_y = 2 }", "names both cpu and variant"},
    });
}

TEST_F(BadSpec, AReferenceVariantTheConstraintsRemoveIsNamedWithTheProblemAndTheRule)
{
    // 16 × 2 = 32 threads: among the values, but enough_threads removes it.
    const auto path = write_changed("variant = { block_size_x = 32, block_size_y = 2 }",
                                    "variant = { block_size_x = 16, block_size_y = 2 }");
    const std::string error = error_of(path);
    EXPECT_THAT(error, AllOf(HasSubstr("[reference] variant block_size_x=16,block_size_y=2 is not a valid variant for "
                                       "problem W=1024,H=512"),
                             HasSubstr("constraint enough_threads")));
    expect_one_line_naming_the_spec(error, path);
    // Valid for the default problem, not for one the grid cannot divide.
    const auto valid = write(user_spec);
    EXPECT_EQ(error_of(valid), "(no error)");
    EXPECT_THAT(error_of(valid, "W=1024,H=3"),
                AllOf(HasSubstr("is not a valid variant for problem W=1024,H=3"), HasSubstr("constraint divides")));
}

TEST_F(BadSpec, DefinesMustBeNamesOrExpressionsAndNotRepeatMacros)
{
    EXPECT_THAT(error_of(write_changed("defines = [\"W\"]", "defines = [\"W\", \"W\"]")), HasSubstr("defines names 'W' twice"));
    EXPECT_THAT(error_of(write_changed("defines = [\"W\"]", "defines = [\"block_size_x\"]")),
                HasSubstr("defines.block_size_x: block_size_x is already a macro"));
    EXPECT_THAT(error_of(write_changed("defines = [\"W\"]", "defines = [\"2W\"]")), HasSubstr("not a valid identifier"));
    EXPECT_THAT(error_of(write_changed("defines = [\"W\"]", "defines = \"W\"")), HasSubstr("defines must be"));
    EXPECT_EQ(error_of(write_changed("defines = [\"W\"]", "defines = { WIDTH = \"W\", TILE = 4 }")), "(no error)");
}

// Every table whose keys are fixed refuses one it does not know, inline or not, and says
// which known key was probably meant.
TEST_F(BadSpec, AMisspeltKeyInAnyTableIsRefusedNamingTheTableAndTheClosestKey)
{
    expect_errors("block_size_x = [16, 32, 64]", {
        {"block_size_x = { values = [16, 32, 64], defualt = [32] }",
         "[parameters.block_size_x] has unknown key 'defualt' (did you mean 'default'? known: values, default)"},
        {"block_size_x = { value = [16, 32, 64] }", "[parameters.block_size_x] has unknown key 'value' (did you mean 'values'?"},
    });
    expect_errors("parameters_as", {{"parameter_as", "[kernel] has unknown key 'parameter_as' (did you mean 'parameters_as'?"}});
    expect_errors("[launch]", {{"[lanch]", "unknown key 'lanch' (did you mean 'launch'?"}});
    expect_errors("bytes =", {{"bytse =", "[cost] has unknown key 'bytse' (did you mean 'bytes'?"}});
    // A buffer's keys on a scalar, and a scalar's on a buffer, are as ignored as misspelt ones.
    expect_errors("value = \"H\"", {{"value = \"H\"\naccess = \"output\"", "argument h has unknown key 'access'"},
                                    {"value = \"H\"\nsize = \"1\"", "argument h has unknown key 'size'"}});
    expect_errors("size = \"W * H\"\naccess = \"output\"",
                  {{"size = \"W * H\"\naccess = \"output\"\nvalue = \"1\"", "argument out has unknown key 'value'"}});
    // Names outside fixed tables get the same help.
    expect_errors("variant = { block_size_x = 32, block_size_y = 2 }",
                  {{"variant = { block_size_x = 32, block_sise_y = 2 }",
                    "[reference] variant sets 'block_sise_y', which is not a parameter (did you mean 'block_size_y'?"}});
    expect_errors(">= 64", {{">= block_sise_x", "uses unknown name 'block_sise_x' (did you mean 'block_size_x'?"}});
}

// The spec gives the register policy's parameters; each value is 0 (none) or one some
// architecture can honour, checked when the spec is read.
TEST_F(BadSpec, RegisterCapsAndLaunchBoundsOutOfRangeAreRefusedWhenTheSpecIsRead)
{
    const std::vector<std::tuple<std::string, std::string, std::string>> cases{
        {"maxrregcount", "-16", "0 for none, or 1 to 255 registers"},
        {"maxrregcount", "256", "0 for none, or 1 to 255 registers"},
        {"maxnreg", "-1", "0 for none, or 1 to 255 registers"},
        {"maxnreg", "300", "0 for none, or 1 to 255 registers"},
        {"max_threads", "-128", "0 for none, or 1 to 1024 threads"},
        {"max_threads", "2048", "0 for none, or 1 to 1024 threads"},
        {"min_blocks", "-1", "0 for none, or 1 to 32 blocks per SM"},
        {"min_blocks", "33", "0 for none, or 1 to 32 blocks per SM"},
    };
    for (const auto& [role, value, accepted] : cases) {
        // min_blocks needs max_threads beside it.
        const std::string policy = role == "min_blocks" ? "max_threads = \"BOUND\"\nmin_blocks = \"POLICY\""
                                                        : role + " = \"POLICY\"";
        std::string text = user_spec;
        const auto change = [&](const std::string& from, const std::string& to) {
            ASSERT_NE(text.find(from), std::string::npos) << from;
            text.replace(text.find(from), from.size(), to);
        };
        change("block_size_y = [1, 2, 4]",
               fmt::format("block_size_y = [1, 2, 4]\nPOLICY = [0, {}]\nBOUND = [0, 256]\n\n[register_policy]\n{}", value,
                           policy));
        change("block_size_y = 2 }", "block_size_y = 2, POLICY = 0, BOUND = 0 }");
        const auto path = write(text);
        const std::string error = error_of(path);
        EXPECT_THAT(error, HasSubstr(fmt::format("parameter POLICY value {} is out of range for [register_policy] {} "
                                                 "(accepted: {})", value, role, accepted)));
        expect_one_line_naming_the_spec(error, path);
        EXPECT_THROW((void)load_spec(path), SpecError) << "found only after loading: " << role << " " << value;
    }
}

TEST_F(BadSpec, ProblemSizesParameterValuesAndTolerancesOutOfRangeAreRefused)
{
    expect_errors("H = 512", {
        {"H = 0", "[problem] H = 0 is out of range (accepted: 1 to 2^53)"},
        {"H = -512", "[problem] H = -512 is out of range"},
        {"H = { default = 0, match = \"exact\" }", "[problem] H = 0 is out of range"},
        {"H = 1152921504606846976", "[problem] H = 1152921504606846976 is out of range"},
        {"H = 512\n\n[[problems]]\nH = 1152921504606846976", "[[problems]] H = 1152921504606846976 is out of range"},
    });
    expect_errors("block_size_y = [1, 2, 4]",
                  {{"block_size_y = [1, 2, 1152921504606846976]",
                    "parameter block_size_y value 1152921504606846976 is out of range (accepted: -2^53 to 2^53"}});
    expect_errors("[reference]\n", {{"[reference]\nrelative = nan\n", "[reference] relative = nan is out of range"},
                                   {"[reference]\nrelative = inf\n", "[reference] relative = inf is out of range"}});
}

TEST_F(BadSpec, AnUnknownCpuReferenceIsRefusedWhenTheSpecIsReadListingTheBuiltIns)
{
    const auto path = write_changed("variant = { block_size_x = 32, block_size_y = 2 }", "cpu = \"fft\"");
    try {
        (void)load_spec(path);
        FAIL() << "cpu = \"fft\" was accepted when the spec was read";
    } catch (const SpecError& e) {
        EXPECT_THAT(e.what(), HasSubstr("[reference] cpu = 'fft' is not a built-in reference (built-in: copy, gemm, "
                                        "triad, transpose, reduce, gemm_bf16"));
        expect_one_line_naming_the_spec(e.what(), path);
    }
}

// Every scalar type's range, before anything is compiled: a cast would wrap, truncate or
// overflow silently.
TEST_F(BadSpec, AScalarArgumentWhoseValueDoesNotFitItsTypeIsRefusedNamingTheArgument)
{
    const std::string from = "scalar = \"int\"\nvalue = \"H\"";
    const std::vector<std::pair<std::string, std::string>> cases{
        {"scalar = \"int\"\nvalue = \"3e9\"", "argument h: value '3e9': 3000000000 is outside int's range -2147483648 to 2147483647"},
        {"scalar = \"int\"\nvalue = \"-H * 10000000\"", "is outside int's range"},
        {"scalar = \"int\"\nvalue = \"H / 3\"", "argument h: value 'H / 3': 170.6"},
        {"scalar = \"unsigned\"\nvalue = \"-1\"", "-1 is outside unsigned's range 0 to 4294967295"},
        {"scalar = \"unsigned\"\nvalue = \"2^32\"", "4294967296 is outside unsigned's range"},
        {"scalar = \"int8_t\"\nvalue = \"200\"", "200 is outside signed char's range -128 to 127"},
        {"scalar = \"uint8_t\"\nvalue = \"256\"", "256 is outside unsigned char's range 0 to 255"},
        {"scalar = \"int16_t\"\nvalue = \"-40000\"", "-40000 is outside short's range -32768 to 32767"},
        {"scalar = \"uint16_t\"\nvalue = \"-1\"", "-1 is outside unsigned short's range 0 to 65535"},
        {"scalar = \"uint64_t\"\nvalue = \"-1\"", "-1 is outside unsigned long long's range 0 to"},
        {"scalar = \"long long\"\nvalue = \"2^60\"", "is outside long long's range"},
        {"scalar = \"float\"\nvalue = \"1e39\"", "1e+39 is outside float's range"},
        {"scalar = \"int\"\nvalue = \"block_size_x * 100000000\"", "(variant block_size_x=32"},
    };
    for (const auto& [to, expected] : cases) {
        const auto path = write_changed(from, to);
        const std::string error = error_of(path);
        EXPECT_THAT(error, HasSubstr(expected)) << to;
        expect_one_line_naming_the_spec(error, path);
    }
    // A type the tuner cannot pass as a scalar is refused when the spec is read.
    const auto half = write_changed(from, "scalar = \"__half\"\nvalue = \"1\"");
    EXPECT_THAT([&] { (void)load_spec(half); },
                ::testing::ThrowsMessage<SpecError>(HasSubstr("argument h: __half scalars are not supported")));
    EXPECT_EQ(error_of(write_changed(from, "scalar = \"long long\"\nvalue = \"2^40\"")), "(no error)");
}

// An expression that fails for a problem's values names the spec file, the problem and the
// field, wherever it is evaluated: the space, the compile request's defines, the arguments.
TEST_F(BadSpec, EveryExpressionErrorNamesTheSpecFileAndTheField)
{
    const std::vector<Change> cases{
        {{"block = [\"block_size_x\", \"block_size_y\"]", "block = [\"block_size_x / 3\", \"block_size_y\"]"},
         "launch.block[0]: 'block_size_x / 3' = 5.33"},
        {{"grid = [\"W / block_size_x\"", "grid = [\"W * 2^50 / block_size_x\""}, "launch.grid[0]"},
        {{"divides = \"", "by_zero = \"W % (block_size_x - 16) == 0\"\ndivides = \""}, "constraint by_zero"},
        {{"[constraints]", "[derived]\nratio = \"W / (block_size_x - 16)\"\n\n[constraints]"}, "derived ratio"},
    };
    expect_changed_errors(cases, "problem W=1024,H=512");
    // Defines are checked for every variant before anything is compiled, and named again
    // where they are evaluated, when a variant's compile request is made; arguments when it is measured.
    const auto defines = write_changed("defines = [\"W\"]", "defines = { THIRD = \"W / 3\" }");
    EXPECT_THAT(error_of(defines), HasSubstr("problem W=1024,H=512: defines.THIRD: 'W / 3' = 341.3"));
    const KernelSpec spec = load_spec(defines);
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    ASSERT_FALSE(space.variants.empty());
    try {
        (void)make_compile_request(spec, problem, space.variants.front(), parse_arch("sm_90"));
        FAIL() << "defines THIRD = W / 3 was accepted";
    } catch (const std::exception& e) {
        EXPECT_THAT(e.what(), HasSubstr("defines.THIRD: 'W / 3'"));
        expect_one_line_naming_the_spec(e.what(), defines);
    }
    const auto size = write_changed("size = \"W * H\"\naccess", "size = \"W * H / 3\"\naccess");
    const KernelSpec sized = load_spec(size);
    try {
        (void)resolve_arguments(sized, problem, space.variants.front());
        FAIL() << "a size of W * H / 3 was accepted";
    } catch (const std::exception& e) {
        EXPECT_THAT(e.what(), HasSubstr("argument out size: 'W * H / 3'"));
        expect_one_line_naming_the_spec(e.what(), size);
    }
}

// CUDA's vector types are buffer types (kernels/README.md): checking a problem reads them as
// such, and a buffer's bytes count every component.
TEST_F(BadSpec, AVectorBufferIsAcceptedAndItsSizeCountsEveryComponent)
{
    const auto path = write_changed("buffer = \"float\"", "buffer = \"float4\"");
    EXPECT_EQ(error_of(path), "(no error)");
    // 2^37 float4 elements are 2 TiB (as floats they would be 512 GiB, which a GPU may hold).
    EXPECT_THAT(error_of(path, "W=524288,H=262144"), HasSubstr("argument out: size 'W * H' = 137438953472 elements is 2 TiB"));
}

} // namespace
