// Measurement jobs and replies: what crosses to the worker and back, and the arguments
// they carry, evaluated from the spec.
#include "measure/measure_job.hpp"

#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <tuple>

using namespace autotune;

namespace {

TEST(MeasureJob, ArgumentsAreEvaluatedForTheProblemAndVariant)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    const Problem problem = resolve_problem(spec, {{"M", 256}, {"N", 128}, {"K", 64}});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    const auto arguments = resolve_arguments(spec, problem, space.variants.front());
    ASSERT_EQ(arguments.size(), 6u);
    EXPECT_EQ(arguments[0].name, "A");
    EXPECT_EQ(arguments[0].type, ElementType::f32);
    EXPECT_EQ(arguments[0].count, 256 * 64);
    EXPECT_EQ(arguments[1].count, 64 * 128);
    EXPECT_EQ(arguments[2].count, 256 * 128);
    EXPECT_EQ(arguments[2].access, BufferAccess::output);
    EXPECT_EQ(arguments[3].kind, ArgumentKind::scalar);
    EXPECT_EQ(arguments[3].type, ElementType::i32);
    EXPECT_EQ(arguments[3].value, 256);
    EXPECT_EQ(arguments[5].value, 64);
}

TEST(MeasureJob, AnUnknownArgumentTypeNamesTheArgument)
{
    KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    spec.arguments[0].element_type = "complex";
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    EXPECT_THAT([&] { (void)resolve_arguments(spec, problem, space.variants.front()); },
                ::testing::ThrowsMessage<std::invalid_argument>(::testing::HasSubstr("argument in")));
}

// A float2 buffer is its components (sized, filled and compared one by one); a constant
// buffer travels to the worker with its memory and whether the kernel takes it too, and a
// bounded random fill with its bound.
TEST(MeasureJob, VectorBuffersAreTheirComponentsAndConstantBuffersSaySo)
{
    KernelSpec spec = load_spec(test::source_dir() / "kernels" / "copy.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    const auto scalar = resolve_arguments(spec, problem, space.variants.front());
    spec.arguments[0].element_type = "float2";
    spec.arguments[1].element_type = "int4";
    spec.arguments[0].memory = ArgumentMemory::constant;
    spec.arguments[0].kernel_parameter = false;
    spec.arguments[0].random_upper = 2.5;
    spec.arguments[1].fill_value = -3;
    spec.arguments[0].fill_expression = "i * 2";
    spec.arguments[1].fill_file = "/data/in.bin";
    const auto vector = resolve_arguments(spec, problem, space.variants.front());
    EXPECT_EQ(vector[0].type, ElementType::f32);
    EXPECT_EQ(vector[0].count, 2 * scalar[0].count);
    EXPECT_EQ(vector[1].type, ElementType::i32);
    EXPECT_EQ(vector[1].count, 4 * scalar[1].count);
    EXPECT_TRUE(vector[0].constant);
    EXPECT_FALSE(vector[0].kernel_parameter);
    EXPECT_FALSE(vector[1].constant);
    EXPECT_TRUE(vector[1].kernel_parameter);
    EXPECT_EQ(vector[0].random_upper, 2.5);
    EXPECT_FALSE(vector[1].random_upper);
    EXPECT_FALSE(vector[0].fill_value);
    EXPECT_EQ(vector[1].fill_value, -3);

    MeasureJob job;
    job.arguments = vector;
    const MeasureJob back = measure_job_from_json(to_json(job));
    EXPECT_TRUE(back.arguments[0].constant);
    EXPECT_FALSE(back.arguments[0].kernel_parameter);
    EXPECT_FALSE(back.arguments[1].constant);
    EXPECT_TRUE(back.arguments[1].kernel_parameter);
    EXPECT_EQ(back.arguments[0].random_upper, 2.5);
    EXPECT_FALSE(back.arguments[1].random_upper);
    EXPECT_FALSE(back.arguments[0].fill_value);
    EXPECT_EQ(back.arguments[1].fill_value, -3);
    EXPECT_EQ(back.arguments[0].fill_expression, "i * 2");
    EXPECT_EQ(back.arguments[1].fill_expression, "");
    EXPECT_EQ(back.arguments[0].fill_file, "");
    EXPECT_EQ(back.arguments[1].fill_file, "/data/in.bin"); // a worker reads it

    EXPECT_EQ(parse_buffer_element("double3").components, 3);
    EXPECT_EQ(parse_buffer_element("uint2").component, ElementType::u32);
    EXPECT_EQ(parse_buffer_element("float").components, 1);
    EXPECT_THROW((void)parse_buffer_element("float5"), std::invalid_argument);
    EXPECT_THROW((void)parse_buffer_element("half2"), std::invalid_argument);
}

TEST(MeasureJob, JobsAndRepliesSurviveTheirJsonForm)
{
    MeasureJob job;
    job.variant = 42;
    job.label = "BLOCK=128";
    job.device = 1;
    job.cubin_path = "/tmp/x.cubin";
    job.function = "_Z4copyPKiPix";
    job.grid = {100, 2, 1};
    job.block = {128, 1, 1};
    job.dynamic_shared_bytes = 4096;
    job.arguments = {{"in", ArgumentKind::buffer, ElementType::i32, 1000, 0, BufferAccess::input},
                     {"n", ArgumentKind::scalar, ElementType::i64, 0, 1000, BufferAccess::input}};
    job.problem = {{"N", 1000}};
    job.reference = "copy";
    job.tolerance = {Tolerance::Kind::normwise, 1e-4, 0};
    job.seed = 7;
    job.timing.min_samples = 20;
    const MeasureJob back = measure_job_from_json(nlohmann::json::parse(to_json(job).dump()));
    EXPECT_EQ(to_json(back), to_json(job));
    EXPECT_EQ(back.grid, job.grid);
    EXPECT_EQ(back.arguments[1].type, ElementType::i64);
    EXPECT_EQ(back.tolerance.kind, Tolerance::Kind::normwise);

    MeasureReply reply;
    reply.status = "ok";
    reply.driver = DriverAttributes{80, 0, 256, 4096, 0, 3};
    Measurement m;
    m.verified = true;
    m.time = summarize_samples(std::vector<double>{1e-3, 1.1e-3, 0.9e-3});
    m.sm_clock_mhz = 1980;
    reply.measurement = m;
    const MeasureReply again = measure_reply_from_json(nlohmann::json::parse(to_json(reply).dump()));
    EXPECT_EQ(to_json(again), to_json(reply));
    EXPECT_EQ(again.driver->blocks_per_sm, 3);
    EXPECT_DOUBLE_EQ(again.measurement->time.median, 1e-3);
}

} // namespace

namespace {

TEST(MeasureJob, TheReferenceSeesInputsInputOutputStartsAndScalarsAsPassed)
{
    MeasureJob job;
    job.arguments = {{"in", ArgumentKind::buffer, ElementType::f32, 4, 0, BufferAccess::input},
                     {"acc", ArgumentKind::buffer, ElementType::f32, 1, 0, BufferAccess::input_output},
                     {"res", ArgumentKind::buffer, ElementType::f32, 4, 0, BufferAccess::output},
                     {"s", ArgumentKind::scalar, ElementType::f32, 0, 0.1, BufferAccess::input},
                     {"n", ArgumentKind::scalar, ElementType::i64, 0, 4, BufferAccess::input}};
    job.problem = {{"N", 4}};
    job.reference = "triad";
    job.seed = 9;
    const std::vector<HostBuffer> host(5);

    const ReferenceRequest request = reference_request(job, host, 2);
    EXPECT_EQ(request.name, "triad");
    EXPECT_EQ(request.output, "res");
    EXPECT_EQ(request.problem, job.problem);
    EXPECT_EQ(request.seed, 9u);
    // The input and the input_output buffer (its content before the launch), not the output.
    ASSERT_EQ(request.inputs.size(), 2u);
    EXPECT_EQ(request.inputs.at("in"), &host[0]);
    EXPECT_EQ(request.inputs.at("acc"), &host[1]);
    // A float scalar as the kernel receives it: 0.1 rounded to float, not the double 0.1.
    ASSERT_EQ(request.scalars.size(), 2u);
    EXPECT_EQ(request.scalars.at("s"), static_cast<double>(0.1f));
    EXPECT_NE(request.scalars.at("s"), 0.1);
    EXPECT_EQ(request.scalars.at("n"), 4.0);

    EXPECT_EQ(reference_request(job, host, 1).output, "acc");
    EXPECT_THROW((void)reference_request(job, std::vector<HostBuffer>(4), 2), std::invalid_argument);
}

TEST(MeasureJob, ScalarBytesAreTheDeclaredType)
{
    const auto bytes = [](ElementType type, double value) {
        return scalar_argument_bytes({"x", ArgumentKind::scalar, type, 0, value, BufferAccess::input});
    };
    float f;
    std::memcpy(&f, bytes(ElementType::f32, 0.1).data(), sizeof f);
    EXPECT_EQ(f, 0.1f);
    std::int64_t big;
    std::memcpy(&big, bytes(ElementType::i64, 268435456).data(), sizeof big);
    EXPECT_EQ(big, 268435456);
    EXPECT_THAT([&] { (void)bytes(ElementType::f16, 1); },
                ::testing::ThrowsMessage<std::invalid_argument>(::testing::HasSubstr("scalar argument x")));
}

// A value the declared type cannot hold is refused, never wrapped or truncated by a cast.
TEST(MeasureJob, ScalarBytesRefuseAValueOutsideTheType)
{
    const auto bytes = [](ElementType type, double value) {
        return scalar_argument_bytes({"x", ArgumentKind::scalar, type, 0, value, BufferAccess::input});
    };
    const std::vector<std::tuple<ElementType, double, std::string>> cases{
        {ElementType::i32, 3e9, "3000000000 is outside int's range -2147483648 to 2147483647"},
        {ElementType::i32, 2.5, "2.5 is not an integer"},
        {ElementType::u32, -1, "-1 is outside unsigned's range 0 to 4294967295"},
        {ElementType::i8, 128, "128 is outside signed char's range -128 to 127"},
        {ElementType::i64, 0x1p60, "is outside long long's range"},
        {ElementType::f32, 1e39, "1e+39 is outside float's range"},
    };
    for (const auto& [type, value, expected] : cases)
        EXPECT_THAT([&] { (void)bytes(type, value); },
                    ::testing::ThrowsMessage<std::invalid_argument>(::testing::HasSubstr(expected)))
            << to_string(type) << " " << value;
    std::int32_t edge;
    std::memcpy(&edge, bytes(ElementType::i32, -2147483648.0).data(), sizeof edge);
    EXPECT_EQ(edge, std::numeric_limits<std::int32_t>::min());
}

} // namespace
