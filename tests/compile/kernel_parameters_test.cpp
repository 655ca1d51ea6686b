// The kernel's parameters as its PTX declares them, set against the spec's arguments: a
// kernel built for other arguments than the launch passes is found before anything runs.
#include "compile/kernel_parameters.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

// Two entries, as NVRTC writes them (CUDA 13.0), the second with the forms other
// toolkits and aggregates give: .ptr attributes, an aligned byte array.
const char* const ptx = R"ptx(
.version 9.0
.target sm_86
.address_size 64

.visible .entry triad(
	.param .u64 triad_param_0,
	.param .u64 triad_param_1,
	.param .u64 triad_param_2,
	.param .f32 triad_param_3,
	.param .u32 triad_param_4
)
{
	ret;
}

.visible .entry _Z5otherPfS_(
	.param .u64 .ptr .global .align 4 _Z5otherPfS__param_0,
	.param .align 8 .b8 _Z5otherPfS__param_1[24],
	.param .b32 _Z5otherPfS__param_2,
	.param .f64 _Z5otherPfS__param_3
)
{
	ret;
}

.visible .entry none()
{
	ret;
}
)ptx";

KernelArgument buffer(std::string name, std::string type, bool kernel_parameter = true)
{
    KernelArgument a;
    a.name = std::move(name);
    a.kind = ArgumentKind::buffer;
    a.element_type = std::move(type);
    a.size = "N";
    a.kernel_parameter = kernel_parameter;
    if (!kernel_parameter)
        a.memory = ArgumentMemory::constant;
    return a;
}

KernelArgument scalar(std::string name, std::string type)
{
    KernelArgument a;
    a.name = std::move(name);
    a.kind = ArgumentKind::scalar;
    a.element_type = std::move(type);
    a.value = "1";
    return a;
}

KernelSpec triad_spec(const std::string& s_type)
{
    KernelSpec spec;
    spec.arguments = {buffer("A", "float"), buffer("B", "float"), buffer("C", "float"), scalar("s", s_type),
                      scalar("n", "int")};
    return spec;
}

TEST(KernelParameters, EachParameterHasTheBytesAndKindItsDeclarationGives)
{
    const auto triad = ptx_entry_parameters(ptx, "triad");
    ASSERT_EQ(triad.size(), 5u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(triad[i].bytes, 8u);
        EXPECT_EQ(triad[i].kind, 'u');
    }
    EXPECT_EQ(triad[3].bytes, 4u);
    EXPECT_EQ(triad[3].kind, 'f');
    EXPECT_EQ(triad[4].bytes, 4u);
    EXPECT_EQ(triad[4].kind, 'u');

    const auto other = ptx_entry_parameters(ptx, "_Z5otherPfS_");
    ASSERT_EQ(other.size(), 4u);
    EXPECT_EQ(other[0].bytes, 8u); // .u64 .ptr .global .align 4
    EXPECT_EQ(other[0].kind, 'u');
    EXPECT_EQ(other[1].bytes, 24u); // .align 8 .b8 [24]: an aggregate passed by value
    EXPECT_EQ(other[1].kind, 'b');
    EXPECT_EQ(other[2].bytes, 4u);
    EXPECT_EQ(other[2].kind, 'b');
    EXPECT_EQ(other[3].bytes, 8u);
    EXPECT_EQ(other[3].kind, 'f');

    EXPECT_TRUE(ptx_entry_parameters(ptx, "none").empty());
    EXPECT_EQ(ptx_entry_parameters(ptx, "").size(), 5u); // the first entry
    EXPECT_THROW((void)ptx_entry_parameters(ptx, "missing"), std::invalid_argument);
}

TEST(KernelParameters, ArgumentsThatFitTheParametersPass)
{
    EXPECT_EQ(parameter_mismatch(triad_spec("float"), ptx_entry_parameters(ptx, "triad")), std::nullopt);
    // Untyped bits take any value of their size; a constant buffer that is only the
    // module's __constant__ variable is no parameter.
    KernelSpec other;
    other.arguments = {buffer("out", "float"), buffer("filter", "float", false), scalar("x", "double")};
    std::vector<PtxParameter> parameters = ptx_entry_parameters(ptx, "_Z5otherPfS_");
    parameters.erase(parameters.begin() + 1, parameters.begin() + 3); // out, x
    EXPECT_EQ(parameter_mismatch(other, parameters), std::nullopt);
    other.arguments[2] = scalar("x", "long long"); // 8 bytes, but an integer where .f64 is declared
    EXPECT_THAT(parameter_mismatch(other, parameters).value_or(""),
                HasSubstr("parameter 2 is 8 bytes (.f64), and the spec's argument x (long long) gives 8 bytes (.u64)"));
    // A spec that describes no arguments (a T1 file without Arguments) has nothing to check.
    EXPECT_EQ(parameter_mismatch(KernelSpec{}, parameters), std::nullopt);
}

// BAT's TRIAD T1 file declares its scalar double; its kernel, built for float, takes 4 bytes.
TEST(KernelParameters, AScalarOfAnotherSizeIsNamedWithItsPosition)
{
    EXPECT_EQ(parameter_mismatch(triad_spec("double"), ptx_entry_parameters(ptx, "triad")),
              "the kernel's parameter 4 is 4 bytes (.f32), and the spec's argument s (double) gives 8 bytes (.f64)");
    EXPECT_THAT(parameter_mismatch(triad_spec("int"), ptx_entry_parameters(ptx, "triad")).value_or(""),
                HasSubstr("parameter 4 is 4 bytes (.f32), and the spec's argument s (int) gives 4 bytes (.u32)"));
    KernelSpec buffers_where_scalars_are = triad_spec("float");
    buffers_where_scalars_are.arguments[4] = buffer("n", "int");
    EXPECT_THAT(parameter_mismatch(buffers_where_scalars_are, ptx_entry_parameters(ptx, "triad")).value_or(""),
                HasSubstr("parameter 5 is 4 bytes (.u32), and the spec's argument n (int buffer: a pointer) gives 8"));
}

TEST(KernelParameters, ADifferentCountListsTheArguments)
{
    KernelSpec spec = triad_spec("float");
    spec.arguments.pop_back();
    EXPECT_EQ(parameter_mismatch(spec, ptx_entry_parameters(ptx, "triad")),
              "the kernel takes 5 parameters and the spec's arguments give 4 (A, B, C, s)");
}

} // namespace
