// T1 kernel descriptions (JSON): the two shared files as Kernel Tuner tuned them, and
// broken files, each refused in one line naming the file and the field.
#include "measure/element_type.hpp"
#include "measure/verification.hpp"
#include "space/check_problem.hpp"
#include "space/enumerate_space.hpp"
#include "space/reference_variant.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "support/test_support.hpp"

#include <cstring>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

namespace {

std::filesystem::path shared_kernel(const std::string& file)
{
    return test::source_dir() / ".." / "shared" / "data" / "kernels" / file;
}
#define SKIP_WITHOUT_SHARED_KERNEL(file)                                                                  \
    if (!std::filesystem::exists(shared_kernel(file)))                                                   \
    GTEST_SKIP() << "no T1 file at " << shared_kernel(file).string() << " (the shared data is not beside this checkout)"

TEST(T1Spec, PnpolyHasKernelTunersSpaceAndGridAndNoArguments)
{
    SKIP_WITHOUT_SHARED_KERNEL("pnpoly.json");
    const KernelSpec spec = load_spec(shared_kernel("pnpoly.json"));
    EXPECT_EQ(spec.name, "pnpoly");
    EXPECT_EQ(spec.function, "cn_pnpoly");
    EXPECT_EQ(spec.passing, ParameterPassing::preprocessor_definitions);
    EXPECT_THAT(spec.compile_options, ElementsAre("-std=c++11"));
    ASSERT_EQ(spec.parameters.size(), 4u);
    EXPECT_EQ(spec.parameters[1].values.size(), 31u);
    EXPECT_THAT(spec.parameters[2].values, ElementsAre(1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20));
    // The default space is the whole space: the file lists what to tune.
    EXPECT_EQ(spec.parameters[1].default_values, spec.parameters[1].values);
    const Problem problem = resolve_problem(spec, {});
    EXPECT_EQ(problem.to_string(), "problem_size_x=20000000");
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    EXPECT_EQ(space.combinations, 4u * 31 * 11 * 3);
    EXPECT_EQ(space.variants.size(), 4092u);
    // grid.x = ceil(ProblemSize[0] / (block_size_x * tile_size)), not the GlobalSize placeholder.
    const Variant& v = space.variants.back(); // block_size_x = 992, tile_size = 20
    EXPECT_EQ(v.block.x, 992);
    EXPECT_EQ(v.grid.x, (20000000 + 992 * 20 - 1) / (992 * 20));
    EXPECT_EQ(v.grid.y, 1);
    // No Arguments: compiling and predicting work, measuring is refused naming the field.
    EXPECT_TRUE(spec.arguments.empty());
    EXPECT_THAT(spec.not_measurable, HasSubstr("pnpoly.json: KernelSpecification.Arguments is empty"));
    // The T1 Default, valid, is the reference variant.
    const auto reference = reference_variant(spec, problem);
    ASSERT_TRUE(reference.has_value());
    EXPECT_EQ(reference->value("block_size_x"), 32);
    EXPECT_EQ(reference->value("use_method"), 1);
}

TEST(T1Spec, ConvolutionConditionsLeaveKernelTunersCount)
{
    SKIP_WITHOUT_SHARED_KERNEL("convolution.json");
    const KernelSpec spec = load_spec(shared_kernel("convolution.json"));
    const Problem problem = resolve_problem(spec, {});
    EXPECT_EQ(problem.to_string(), "problem_size_x=4096,problem_size_y=4096");
    const SpaceCount count = count_space(spec, problem, SpaceSelection::default_space);
    EXPECT_EQ(count.combinations, 11u * 6 * 1 * 1 * 2 * 8 * 8 * 2);
    EXPECT_EQ(count.valid, 6768u);
    ASSERT_EQ(spec.constraints.size(), 3u);
    ASSERT_EQ(spec.launch.grid.size(), 3u);
    EXPECT_EQ(spec.launch.grid[0], "ceil_div(problem_size_x, (block_size_x) * (tile_size_x))");
    EXPECT_EQ(spec.launch.grid[1], "ceil_div(problem_size_y, (block_size_y) * (tile_size_y))");
    ASSERT_EQ(spec.arguments.size(), 3u);
    EXPECT_EQ(spec.arguments[0].access, BufferAccess::output);
    EXPECT_EQ(spec.arguments[1].access, BufferAccess::input);
    // max(filter_width) is the largest of the parameter's Values.
    EXPECT_EQ(spec.arguments[1].size, "(((problem_size_x + 15) - 1) * ((problem_size_y + 15) - 1))");
    EXPECT_EQ(spec.arguments[2].size, "225");
    EXPECT_EQ(spec.arguments[2].memory, ArgumentMemory::constant);
    EXPECT_TRUE(spec.arguments[2].kernel_parameter);
    // Random with FillValue 1.0: values drawn up to 1.0; the output's Constant 0.0 is poisoned over.
    EXPECT_FALSE(spec.arguments[0].random_upper);
    EXPECT_EQ(spec.arguments[1].random_upper, 1.0);
    EXPECT_EQ(spec.arguments[2].random_upper, 1.0);
    EXPECT_TRUE(spec.not_measurable.empty());
    EXPECT_EQ(spec.reference.variant.size(), spec.parameters.size());
}

// A small valid T1 file, to break one field at a time.
nlohmann::json valid_t1()
{
    return nlohmann::json::parse(R"json({
  "General": {"BenchmarkName": "scale"},
  "ConfigurationSpace": {
    "TuningParameters": [
      {"Name": "block_size_x", "Type": "int", "Values": "[32 * i for i in range(1, 5)]", "Default": 32},
      {"Name": "tile", "Type": "int", "Values": "[1, 2]", "Default": 1}
    ],
    "Conditions": [{"Expression": "block_size_x * tile <= 128 and not tile == 3", "Parameters": ["block_size_x", "tile"]}]
  },
  "KernelSpecification": {
    "Language": "CUDA", "KernelName": "scale", "KernelFile": "scale.cu", "GlobalSizeType": "CUDA",
    "LocalSize": {"X": "block_size_x", "Y": "1", "Z": "1"},
    "GridDivX": ["block_size_x", "tile"], "ProblemSize": [4096], "SharedMemory": 0,
    "Arguments": [
      {"Name": "out", "Type": "float", "MemoryType": "Vector", "AccessType": "WriteOnly", "FillType": "Constant",
       "FillValue": 0.0, "Size": "ProblemSize[0]"},
      {"Name": "in", "Type": "float2", "MemoryType": "Vector", "AccessType": "ReadOnly", "FillType": "Random",
       "Size": "ProblemSize[0]"},
      {"Name": "n", "Type": "int", "MemoryType": "Scalar", "FillValue": "ProblemSize[0]"}
    ]
  }
})json");
}

// valid_t1() with one edit.
template <typename Edit>
nlohmann::json broken(Edit edit)
{
    nlohmann::json doc = valid_t1();
    edit(doc);
    return doc;
}

class BrokenT1 : public ::testing::Test {
protected:
    // Writes `doc` as scale.json beside a scale.cu and returns load_spec's one-line error.
    std::string error_of(const nlohmann::json& doc)
    {
        std::ofstream(dir.path() / "scale.cu") << "extern \"C\" __global__ void scale(float* o, const float2* i, int n) {}\n";
        std::ofstream(dir.path() / "scale.json") << doc.dump(2);
        try {
            (void)load_spec(dir.path() / "scale.json");
        } catch (const SpecError& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
            EXPECT_THAT(message, StartsWith((dir.path() / "scale.json").string() + ": "));
            return message;
        }
        return "no error";
    }
    test::TempDir dir;
};

TEST_F(BrokenT1, TheValidOneLoads)
{
    EXPECT_EQ(error_of(valid_t1()), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_EQ(spec.constraints[0].expression, "(((block_size_x * tile) <= 128) && (!(tile == 3)))");
    EXPECT_EQ(spec.arguments[2].kind, ArgumentKind::scalar);
    EXPECT_EQ(spec.arguments[2].value, "problem_size_x");
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 6u);
    EXPECT_FALSE(spec.arguments[1].random_upper); // Random without a FillValue: the tuner's range
}

TEST_F(BrokenT1, ARandomFillValueIsTheUpperEndOfTheRangeOrRefused)
{
    auto with_fill_value = [](const nlohmann::json& value, const std::string& type = "float2") {
        nlohmann::json doc = valid_t1();
        doc["KernelSpecification"]["Arguments"][1]["FillValue"] = value;
        doc["KernelSpecification"]["Arguments"][1]["Type"] = type;
        return doc;
    };
    EXPECT_EQ(error_of(with_fill_value(4.0)), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").arguments[1].random_upper, 4.0);
    EXPECT_EQ(error_of(with_fill_value(1e-3, "double")), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").arguments[1].random_upper, 1e-3);
    const std::string at = "KernelSpecification.Arguments[1].FillValue ";
    EXPECT_THAT(error_of(with_fill_value(10, "int")),
                AllOf(HasSubstr(at + "bounds a Random fill"), HasSubstr("float and double buffers only")));
    EXPECT_THAT(error_of(with_fill_value(-1.0)), HasSubstr(at + "-1.0 cannot bound a Random fill of float"));
    EXPECT_THAT(error_of(with_fill_value(0)), HasSubstr(at + "0 cannot bound"));
    EXPECT_THAT(error_of(with_fill_value(1e300)), HasSubstr(at + "1e+300 cannot bound a Random fill of float"));
    EXPECT_THAT(error_of(with_fill_value("N")), HasSubstr(at + "\"N\" is not a number"));
}

// GlobalSize without GridDiv: blocks where GlobalSizeType is CUDA (or Vulkan), threads
// where it is OpenCL (KTT's way), the grid then rounded up.
TEST_F(BrokenT1, GlobalSizeCountsBlocksOrThreadsByItsType)
{
    using nlohmann::json;
    const auto grid_x = [&](const std::string& type) {
        const json doc = broken([&](json& d) {
            auto& k = d["KernelSpecification"];
            k.erase("GridDivX");
            k.erase("ProblemSize");
            k["GlobalSize"] = {{"X", "1000"}};
            k["GlobalSizeType"] = type;
            k["Arguments"] = json::array({{{"Name", "out"}, {"Type", "float"}, {"AccessType", "WriteOnly"}, {"Size", 1000}}});
        });
        EXPECT_EQ(error_of(doc), "no error") << type;
        const KernelSpec spec = load_spec(dir.path() / "scale.json");
        const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
        std::vector<std::pair<std::int64_t, std::int64_t>> grids; // (block, grid) of each variant
        for (const auto& v : space.variants)
            grids.emplace_back(v.block.x, v.grid.x);
        return grids;
    };
    EXPECT_THAT(grid_x("CUDA"), testing::Each(testing::Field(&std::pair<std::int64_t, std::int64_t>::second, 1000)));
    EXPECT_THAT(grid_x("Vulkan"), testing::Each(testing::Field(&std::pair<std::int64_t, std::int64_t>::second, 1000)));
    for (const auto& [block, grid] : grid_x("OpenCL"))
        EXPECT_EQ(grid, (1000 + block - 1) / block) << "block " << block;
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["GlobalSizeType"] = "SYCL"; })),
                HasSubstr("KernelSpecification.GlobalSizeType 'SYCL' is not one of: CUDA, OpenCL, Vulkan"));
}

// Kernel Tuner pads ProblemSize to three sizes with 1: a GridDiv of a dimension the file's
// ProblemSize does not give divides 1, one block whatever it names (Kernel Tuner's own test
// file divides Y of a 1-D problem by a block_size_y it does not tune).
TEST_F(BrokenT1, AGridDivOfADimensionProblemSizeDoesNotGiveIsOneBlock)
{
    using nlohmann::json;
    const json doc = broken([](json& d) {
        d["KernelSpecification"]["GridDivY"] = {"block_size_y"};
        d["KernelSpecification"]["GridDivZ"] = json::array();
    });
    ASSERT_EQ(error_of(doc), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
    ASSERT_EQ(space.variants.size(), 6u);
    for (const auto& v : space.variants) {
        const std::int64_t per_block = v.block.x * v.value("tile");
        EXPECT_EQ(v.grid.x, (4096 + per_block - 1) / per_block) << v.key();
        EXPECT_EQ(v.grid.y, 1);
        EXPECT_EQ(v.grid.z, 1);
    }
    // Its names are not read, but it is still a list of expressions.
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["GridDivY"] = "block_size_y"; })),
                HasSubstr("KernelSpecification.GridDivY must be an array of expressions"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["GridDivZ"] = {json::object()}; })),
                HasSubstr("KernelSpecification.GridDivZ[0]"));
}

// A Constant fill of an input: every element the FillValue, which its type must hold.
// The schema's width-named types are the CUDA types of the same width.
TEST_F(BrokenT1, WidthNamedTypesAreTheirCudaTypes)
{
    using nlohmann::json;
    EXPECT_EQ(error_of(broken([](json& d) {
                  auto& args = d["KernelSpecification"]["Arguments"];
                  args[2]["Type"] = "int32";
                  args[1]["Type"] = "uint32";
              })),
              "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_EQ(spec.arguments[2].element_type, "int32_t");
    EXPECT_EQ(spec.arguments[1].element_type, "uint32_t");
    EXPECT_EQ(parse_element_type(spec.arguments[2].element_type), ElementType::i32);
    // Every integer width T1 names is a CUDA type; bool (T1's, of no fixed width) is not.
    for (const auto& [t1, cuda] : std::vector<std::pair<std::string, ElementType>>{
             {"int8", ElementType::i8}, {"uint8", ElementType::u8}, {"int16", ElementType::i16},
             {"uint16", ElementType::u16}, {"int64", ElementType::i64}, {"uint64", ElementType::u64}}) {
        EXPECT_EQ(error_of(broken([&](json& d) { d["KernelSpecification"]["Arguments"][1]["Type"] = t1; })), "no error")
            << t1;
        EXPECT_EQ(parse_element_type(load_spec(dir.path() / "scale.json").arguments[1].element_type), cuda) << t1;
    }
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][1]["Type"] = "bool"; })),
                AllOf(HasSubstr("KernelSpecification.Arguments[1].Type"), HasSubstr("\"bool\"")));
}

TEST_F(BrokenT1, AConstantFillOfAnInputIsItsValueOrRefused)
{
    auto with_constant = [](const nlohmann::json& value, const std::string& type = "float2",
                            const std::string& access = "ReadOnly") {
        nlohmann::json doc = valid_t1();
        auto& a = doc["KernelSpecification"]["Arguments"][1];
        a["FillType"] = "Constant";
        a["Type"] = type;
        a["AccessType"] = access;
        if (!value.is_null())
            a["FillValue"] = value;
        return doc;
    };
    EXPECT_EQ(error_of(with_constant(1.5)), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").arguments[1].fill_value, 1.5);
    EXPECT_FALSE(load_spec(dir.path() / "scale.json").arguments[1].random_upper);
    EXPECT_EQ(error_of(with_constant(3, "int", "ReadWrite")), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").arguments[1].fill_value, 3);
    // The least traffic: the WriteOnly float written once, the ReadWrite int read and written.
    EXPECT_EQ(load_spec(dir.path() / "scale.json").cost.bytes, "4 * (problem_size_x) + 8 * (problem_size_x)");
    EXPECT_EQ(error_of(with_constant(3, "int", "ReadOnly")), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").cost.bytes, "4 * (problem_size_x) + 4 * (problem_size_x)");
    EXPECT_FALSE(load_spec(dir.path() / "scale.json").arguments[0].fill_value); // an output's Constant: poisoned
    const std::string at = "KernelSpecification.Arguments[1].FillValue ";
    EXPECT_THAT(error_of(with_constant(2.5, "int")), HasSubstr(at + "2.5 does not fit a buffer of int: not a whole number"));
    EXPECT_THAT(error_of(with_constant("x")), HasSubstr(at + "\"x\" is not a number"));
    EXPECT_THAT(error_of(with_constant(nullptr)), HasSubstr("KernelSpecification.Arguments[1].FillValue is missing"));
}

// KTT's Generator fill (BAT's TRIAD): element i of an input is its DataSource, a Python
// expression of i; one a buffer of its type cannot hold is refused before anything compiles.
TEST_F(BrokenT1, AGeneratorFillIsAnExpressionOfTheIndexOrRefused)
{
    auto with_generator = [](const nlohmann::json& source, const std::string& type = "float") {
        nlohmann::json doc = valid_t1();
        auto& a = doc["KernelSpecification"]["Arguments"][1];
        a["FillType"] = "Generator";
        a["Type"] = type;
        if (!source.is_null())
            a["DataSource"] = source;
        return doc;
    };
    EXPECT_EQ(error_of(with_generator("i")), "no error");
    EXPECT_EQ(load_spec(dir.path() / "scale.json").arguments[1].fill_expression, "i");
    EXPECT_EQ(error_of(with_generator("i // 2 * 3", "int")), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    std::vector<std::byte> bytes(4 * sizeof(std::int32_t));
    fill_generated_input(ElementType::i32, bytes, spec.arguments[1].fill_expression);
    std::vector<std::int32_t> values(4);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    EXPECT_THAT(values, ElementsAre(0, 0, 3, 3));
    EXPECT_FALSE(spec.arguments[1].fill_value);
    EXPECT_FALSE(spec.arguments[1].random_upper);
    const std::string at = "KernelSpecification.Arguments[1].";
    EXPECT_THAT(error_of(with_generator(nullptr)), HasSubstr(at + "DataSource is missing"));
    EXPECT_THAT(error_of(with_generator("i", "float2")),
                HasSubstr(at + "FillType Generator fills buffers of scalar elements only"));
    EXPECT_THAT(error_of(with_generator("i / 2", "int")),
                HasSubstr(at + "DataSource 'i / 2': element 1: 0.5 does not fit a buffer of int"));
    EXPECT_THAT(error_of(with_generator("j")), AllOf(HasSubstr(at + "DataSource"), HasSubstr("unknown name 'j'")));
}

// KTT's BinaryRaw fill: an input is the bytes of its DataSource, a file beside the T1
// file. Only a measurement reads it, so a file not there yet does not stop a compile.
TEST_F(BrokenT1, ABinaryRawFillIsAFileReadWhenTheBufferIsFilled)
{
    auto with_file = [](const nlohmann::json& source) {
        nlohmann::json doc = valid_t1();
        auto& a = doc["KernelSpecification"]["Arguments"][1];
        a["FillType"] = "BinaryRaw";
        if (!source.is_null())
            a["DataSource"] = source;
        return doc;
    };
    EXPECT_EQ(error_of(with_file("data/in.bin")), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_EQ(spec.arguments[1].fill_file, std::filesystem::weakly_canonical(dir.path() / "data/in.bin").string());
    EXPECT_TRUE(spec.arguments[1].fill_expression.empty());
    EXPECT_FALSE(spec.arguments[1].fill_value);
    EXPECT_THAT(error_of(with_file(nullptr)), HasSubstr("KernelSpecification.Arguments[1].DataSource is missing"));

    // The file's bytes, exactly the buffer's size.
    std::filesystem::create_directories(dir.path() / "data");
    const std::vector<float> values{1.5f, -2.0f, 3.25f, 0.0f};
    std::ofstream(dir.path() / "data/in.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    fill_input_from_file(bytes, spec.arguments[1].fill_file);
    std::vector<float> read(values.size());
    std::memcpy(read.data(), bytes.data(), bytes.size());
    EXPECT_EQ(read, values);
    std::vector<std::byte> larger(bytes.size() + 4);
    try {
        fill_input_from_file(larger, spec.arguments[1].fill_file);
        ADD_FAILURE() << "a file of another size was read";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("in.bin' holds 16 bytes; the buffer is 20 bytes"));
    }
    EXPECT_THROW(fill_input_from_file(bytes, dir.path() / "data/missing.bin"), std::invalid_argument);
}

// T1 makes an argument's Name optional (KTT's tutorials leave it out): the kernel takes its
// arguments by position. A constant-memory argument still needs the symbol it fills.
TEST_F(BrokenT1, AnArgumentWithoutANameIsCalledAfterItsPosition)
{
    EXPECT_EQ(error_of(broken([](nlohmann::json& d) { d["KernelSpecification"]["Arguments"][1].erase("Name"); })),
              "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    ASSERT_EQ(spec.arguments.size(), 3u);
    EXPECT_EQ(spec.arguments[0].name, "out");
    EXPECT_EQ(spec.arguments[1].name, "arg1");
    EXPECT_THAT(error_of(broken([](nlohmann::json& d) {
                    auto& a = d["KernelSpecification"]["Arguments"][1];
                    a.erase("Name");
                    a["MemType"] = "Constant";
                })),
                HasSubstr("KernelSpecification.Arguments[1].Name is missing: a constant-memory argument fills the "
                          "__constant__ variable it names"));
}

TEST_F(BrokenT1, EachFieldItCannotHonourIsNamed)
{
    using nlohmann::json;
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"].erase("KernelName"); })),
                HasSubstr("KernelSpecification.KernelName is missing"));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[1, 2"; })),
                AllOf(HasSubstr("ConfigurationSpace.TuningParameters[1].Values: cannot parse '[1, 2'")));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[1.5]"; })),
                HasSubstr("ConfigurationSpace.TuningParameters[1].Values: '[1.5]' holds 1.5"));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][0]["Type"] = "string"; })),
                HasSubstr("ConfigurationSpace.TuningParameters[0].Type 'string' is not supported"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][1]["Type"] = "complex"; })),
                AllOf(HasSubstr("KernelSpecification.Arguments[1].Type"), HasSubstr("complex")));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["Conditions"][0]["Expression"] = "tile >"; })),
                HasSubstr("ConfigurationSpace.Conditions[0].Expression: cannot parse 'tile >'"));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["Conditions"][0]["Expression"] = "tiles > 1"; })),
                AllOf(HasSubstr("ConfigurationSpace.Conditions[0].Expression"), HasSubstr("unknown name 'tiles'")));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["KernelFile"] = "missing.cu"; })),
                HasSubstr("KernelSpecification.KernelFile 'missing.cu' not found"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Language"] = "OpenCL"; })),
                HasSubstr("KernelSpecification.Language 'OpenCL' is not supported (CUDA only)"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][1]["FillType"] = "BinaryFile"; })),
                HasSubstr("KernelSpecification.Arguments[1].FillType 'BinaryFile' is not supported"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["ProblemSize"] = {"tile * 64"}; })),
                AllOf(HasSubstr("KernelSpecification.ProblemSize[0]"), HasSubstr("unknown name 'tile'"),
                      HasSubstr("(sizes that depend on parameters are not supported)")));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["ProblemSize"] = {"4096 +"}; })),
                AllOf(HasSubstr("KernelSpecification.ProblemSize[0]: cannot parse '4096 +'"),
                      testing::Not(HasSubstr("depend on parameters"))));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][1]["MemoryType"] = "Local"; })),
                HasSubstr("KernelSpecification.Arguments[1].MemoryType 'Local' is not supported (OpenCL's __local "
                          "arguments; a CUDA kernel's dynamic shared memory is KernelSpecification.SharedMemory"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][1]["MemType"] = "Texture"; })),
                HasSubstr("KernelSpecification.Arguments[1].MemType 'Texture' is not supported"));
}

// A Default only names the reference variant. Benchmark files carry ones that are not among
// their Values (BAT's MAX_THREADS = [1024] with Default 1) or wrap them in a list: the run
// goes on, the first noted and without a reference variant, the second read as its value.
TEST_F(BrokenT1, ADefaultThatIsNoValueIsNotedAndLeavesNoReference)
{
    using nlohmann::json;
    const std::string file = (dir.path() / "scale.json").string() + ": ";
    ASSERT_EQ(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][1]["Default"] = 3; })), "no error");
    KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_THAT(spec.notes, ElementsAre(file + "ConfigurationSpace.TuningParameters[1].Default is not used (3 is not "
                                               "among the Values: no reference variant)"));
    EXPECT_TRUE(spec.reference.variant.empty());
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 6u);

    ASSERT_EQ(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][0]["Default"] = "wide"; })),
              "no error");
    spec = load_spec(dir.path() / "scale.json");
    EXPECT_THAT(spec.notes, ElementsAre(file + "ConfigurationSpace.TuningParameters[0].Default is not used (\"wide\" is "
                                               "not an integer: no reference variant)"));
    EXPECT_TRUE(spec.reference.variant.empty());

    ASSERT_EQ(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][1]["Default"] = {2}; })),
              "no error");
    spec = load_spec(dir.path() / "scale.json");
    EXPECT_TRUE(spec.notes.empty());
    ASSERT_EQ(spec.reference.variant.size(), 2u);
    EXPECT_EQ(spec.reference.variant[1], (std::pair<std::string, std::int64_t>("tile", 2)));
}

// How to tune (search, budget, repetitions, device) is the command line's to say: such
// fields load, each noted once naming the file and the field, and the space is the same.
TEST_F(BrokenT1, TuningSettingsAreNotedAndTheSpaceIsUnchanged)
{
    using nlohmann::json;
    const json doc = broken([](json& d) {
        d["Budget"] = json::array({{{"Type", "ConfigurationFraction"}, {"BudgetValue", 0.1}}});
        d["Search"] = {{"Name", "Random"}};
        d["SearchSettings"] = {{"TunerName", "optuna"}, {"Trials", 10}};
        d["BenchmarkConfig"] = {{"iterations", 1000}};
        d["KernelSpecification"]["Device"] = {{"Id", 0}, {"Name", "RTX 3090"}};
        d["KernelSpecification"]["Profiling"] = false;
        d["KernelSpecification"]["Arguments"][1]["RandomSeed"] = 7;
        d["KernelSpecification"]["Misc"] = {{"jitify", true}};
        d["verification"] = {{"type", "reference_CPU"}, {"path", "/path/reference.cpp"}};
    });
    EXPECT_EQ(error_of(doc), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    const std::string file = (dir.path() / "scale.json").string() + ": ";
    EXPECT_THAT(spec.notes, ElementsAre(file + "Budget is not used (a run's budget is --budget, with a --strategy that searches)",
                                        file + "Search is not used (the search is --strategy)",
                                        file + "SearchSettings is not used (the search is --strategy)",
                                        HasSubstr(file + "verification is not used (outputs are checked against"),
                                        HasSubstr(file + "BenchmarkConfig is not used"),
                                        HasSubstr(file + "KernelSpecification.Device is not used"),
                                        HasSubstr(file + "KernelSpecification.Profiling is not used"),
                                        HasSubstr(file + "KernelSpecification.Misc is not used (a writer's own "
                                                         "settings, such as Kernel Tuner's jitify"),
                                        HasSubstr(file + "KernelSpecification.Arguments[1].RandomSeed is not used")));
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 6u);
    EXPECT_EQ(error_of(valid_t1()), "no error");
    EXPECT_TRUE(load_spec(dir.path() / "scale.json").notes.empty());
    // A field a typo away from a known one is refused: the one meant would be missing.
    EXPECT_THAT(error_of(broken([](json& d) { d["Serach"] = json::object(); })),
                HasSubstr("Serach is not a T1 field autotune knows (did you mean 'Search'?"));
}

// T1's schema allows fields beyond its own, and writers add theirs (BAT's T1 files carry
// KernelSpecification.BenchmarkPath and SharedMemoryOriginal): each is noted once, naming
// the file and the field, and the space is the same.
TEST_F(BrokenT1, AnotherWritersFieldIsNotedAndTheSpaceIsUnchanged)
{
    using nlohmann::json;
    const json doc = broken([](json& d) {
        d["KernelSpecification"]["BenchmarkPath"] = "benchmarks/scale";
        d["KernelSpecification"]["SharedMemoryOriginal"] = "0";
        d["ConfigurationSpace"]["TuningParameters"][0]["Comment"] = "threads";
        d["KernelSpecification"]["LocalSize"]["Note"] = "x only";
    });
    EXPECT_EQ(error_of(doc), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    const std::string file = (dir.path() / "scale.json").string() + ": ";
    const std::string unknown = " is not used (not a T1 field autotune knows)";
    EXPECT_THAT(spec.notes, UnorderedElementsAre(file + "KernelSpecification.BenchmarkPath" + unknown,
                                                 file + "KernelSpecification.SharedMemoryOriginal" + unknown,
                                                 file + "ConfigurationSpace.TuningParameters[0].Comment" + unknown,
                                                 file + "KernelSpecification.LocalSize.Note" + unknown));
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 6u);
}

// Constraints, as some writers call Conditions, as objects or as bare expressions; uint
// parameters are integers that cannot be negative; Values may be list(range(...)).
TEST_F(BrokenT1, ConstraintsUintAndListValuesAreRead)
{
    using nlohmann::json;
    const json doc = broken([](json& d) {
        d["ConfigurationSpace"]["TuningParameters"][0]["Values"] = "[32] + list(range(64, 128+1, 32))";
        d["ConfigurationSpace"]["TuningParameters"][1]["Type"] = "uint";
        d["ConfigurationSpace"]["Constraints"] = json::array(
            {"block_size_x != 64", {{"Expression", "tile == 1 or block_size_x == 32"}, {"Parameters", {"tile"}}}});
    });
    EXPECT_EQ(error_of(doc), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_THAT(spec.parameters[0].values, ElementsAre(32, 64, 96, 128));
    ASSERT_EQ(spec.constraints.size(), 3u);
    // Conditions: block_size_x * tile <= 128; the two constraints drop 64 and tile 2 beyond 32:
    // (32, 1), (32, 2), (96, 1), (128, 1).
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 4u);
    EXPECT_THAT(error_of(broken([](json& d) {
                    d["ConfigurationSpace"]["TuningParameters"][1]["Type"] = "uint";
                    d["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[-1, 1]";
                })),
                HasSubstr("ConfigurationSpace.TuningParameters[1].Values holds -1, which a uint parameter cannot take"));
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["Constraints"] = json::array({"tiles > 1"}); })),
                AllOf(HasSubstr("ConfigurationSpace.Constraints[0]"), HasSubstr("unknown name 'tiles'")));
}

// A misspelt field is named with the one probably meant, as in a TOML spec.
TEST_F(BrokenT1, AMisspeltFieldSaysWhichWasMeant)
{
    using nlohmann::json;
    EXPECT_THAT(error_of(broken([](json& d) {
                    d["ConfigurationSpace"]["TuningParameters"][1]["Defualt"] = d["ConfigurationSpace"]["TuningParameters"][1]["Default"];
                    d["ConfigurationSpace"]["TuningParameters"][1].erase("Default");
                })),
                HasSubstr("ConfigurationSpace.TuningParameters[1].Defualt is not a T1 field autotune knows (did you mean "
                          "'Default'?"));
}

// The ranges a TOML spec's values are checked against apply to a T1 file's as well.
TEST_F(BrokenT1, ValuesOutOfRangeAreRefusedAsInATomlSpec)
{
    using nlohmann::json;
    EXPECT_THAT(error_of(broken([](json& d) { d["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[1, 2**60]"; })),
                HasSubstr("parameter tile value 1152921504606846976 is out of range"));
    EXPECT_THAT(error_of(broken([](json& d) { d["KernelSpecification"]["Arguments"][2]["Type"] = "half"; })),
                HasSubstr("argument n: half scalars are not supported"));
}

TEST_F(BrokenT1, AScalarFillValueThatDoesNotFitItsTypeIsRefusedBeforeCompiling)
{
    nlohmann::json doc = valid_t1();
    doc["KernelSpecification"]["Arguments"][2]["FillValue"] = "ProblemSize[0] * 1000000";
    ASSERT_EQ(error_of(doc), "no error");
    const KernelSpec spec = load_spec(dir.path() / "scale.json");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    EXPECT_THAT([&] { check_problem(spec, problem, space, SpaceSelection::default_space); },
                ::testing::ThrowsMessage<SpecError>(AllOf(StartsWith((dir.path() / "scale.json").string()),
                                                          HasSubstr("argument n: value '"),
                                                          HasSubstr("4096000000 is outside int's range"))));
}

// Kernel Tuner's NVML observer sets the GPU's clocks and power limit from tuning parameters
// named for them; autotune sets none: such a space compiles and predicts (at each variant's
// graphics clock), measuring it is refused naming the parameter, and a clock no GPU runs at
// is refused when the file is read.
TEST_F(BrokenT1, ParametersThatSetTheGpuAreNotMeasurableAndAClockIsOneAGpuRunsAt)
{
    using nlohmann::json;
    const auto with = [](json parameter) {
        return broken([&](json& d) { d["ConfigurationSpace"]["TuningParameters"].push_back(parameter); });
    };
    const std::string file = (dir.path() / "scale.json").string() + ": ";
    ASSERT_EQ(error_of(with({{"Name", "nvml_gr_clock"}, {"Type", "int"}, {"Values", "[1000, 1500]"}})), "no error");
    KernelSpec spec = load_spec(dir.path() / "scale.json");
    EXPECT_EQ(spec.sm_clock_parameter, "nvml_gr_clock");
    EXPECT_EQ(spec.not_measurable,
              file + "tuning parameter nvml_gr_clock sets the GPU's graphics clock before each configuration runs "
                     "(Kernel Tuner's NVML observer), which autotune does not do: measured, every configuration would "
                     "run at the GPU's own (compiling and predicting work: --compile-only)");
    EXPECT_TRUE(spec.notes.empty());
    EXPECT_EQ(count_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space).valid, 12u);

    // The power limit is not a term of the model: noted, and still not measurable.
    ASSERT_EQ(error_of(with({{"Name", "nvml_pwr_limit"}, {"Type", "int"}, {"Values", "[250]"}})), "no error");
    spec = load_spec(dir.path() / "scale.json");
    EXPECT_TRUE(spec.sm_clock_parameter.empty());
    EXPECT_THAT(spec.notes, ElementsAre(file + "tuning parameter nvml_pwr_limit is not used (predictions are at the "
                                               "device's own power limit: the model has no power term)"));
    EXPECT_THAT(spec.not_measurable, StartsWith(file + "tuning parameter nvml_pwr_limit sets the GPU's power limit"));

    // An ordinary parameter of a similar name is the kernel's.
    ASSERT_EQ(error_of(with({{"Name", "gr_clock"}, {"Type", "int"}, {"Values", "[1]"}})), "no error");
    spec = load_spec(dir.path() / "scale.json");
    EXPECT_TRUE(spec.sm_clock_parameter.empty());
    EXPECT_TRUE(spec.not_measurable.empty());

    EXPECT_EQ(error_of(with({{"Name", "nvml_gr_clock"}, {"Type", "int"}, {"Values", "[0, 1500]"}})),
              file + "tuning parameter nvml_gr_clock holds 0, which no GPU's clock is (MHz above 0 and at most 10000)");
    EXPECT_THAT(error_of(with({{"Name", "tegra_gr_clock"}, {"Type", "int"}, {"Values", "[20000]"}})),
                HasSubstr("tuning parameter tegra_gr_clock holds 20000, which no GPU's clock is"));
    json both = with({{"Name", "nvml_gr_clock"}, {"Type", "int"}, {"Values", "[1000]"}});
    both["ConfigurationSpace"]["TuningParameters"].push_back({{"Name", "tegra_gr_clock"}, {"Type", "int"}, {"Values", "[900]"}});
    EXPECT_EQ(error_of(both),
              file + "tuning parameters nvml_gr_clock and tegra_gr_clock both set the graphics clock");
}

} // namespace
