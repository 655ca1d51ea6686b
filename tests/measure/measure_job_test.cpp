// Measurement jobs and replies: what crosses to the worker and back, and the arguments
// they carry, evaluated from the spec.
#include "measure/measure_job.hpp"

#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
