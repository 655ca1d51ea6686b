// A reference variant instead of a CPU reference (users' kernels have none): its outputs
// become the reference values, it is run first, and when it cannot serve the run says so
// once and goes on with outputs only scanned. The GPU side is tests/gpu/; here the
// decisions run against scripted workers.
#include "measure/measure_job.hpp"
#include "measure/measure_variants.hpp"
#include "measure/measurement_journal.hpp"
#include "measure/verification.hpp"
#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"

#include <cstring>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

std::vector<std::byte> float_bytes(const std::vector<float>& values)
{
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

TEST(ReferenceFromOutput, EveryElementIsAReferenceValue)
{
    const auto output = float_bytes({0.5f, -1.25f, 3.0f});
    const OutputReference reference = reference_from_output(ElementType::f32, output);
    EXPECT_TRUE(reference.problem.empty()) << reference.problem;
    EXPECT_TRUE(reference.values.indices.empty()); // every element, in order
    EXPECT_EQ(reference.values.values, (std::vector<double>{0.5, -1.25, 3.0}));

    // Another variant's output is checked against it like against a CPU reference.
    const Tolerance tolerance = default_tolerance(ElementType::f32, Tolerance::Kind::elementwise);
    const auto same = verify_output(ElementType::f32, output, reference.values, tolerance);
    EXPECT_TRUE(same.ok);
    EXPECT_EQ(same.checked, 3u);
    const auto off = verify_output(ElementType::f32, float_bytes({0.5f, -1.25f, 3.001f}), reference.values, tolerance);
    EXPECT_FALSE(off.ok);
    EXPECT_THAT(off.problem, HasSubstr("element 2"));
}

TEST(ReferenceFromOutput, AnUnwrittenOrNanOutputCannotServe)
{
    std::vector<std::byte> unwritten = float_bytes({1.0f, 2.0f, 3.0f, 4.0f});
    fill_poison(ElementType::f32, std::span(unwritten).subspan(2 * sizeof(float), sizeof(float)));
    const OutputReference poisoned = reference_from_output(ElementType::f32, unwritten);
    EXPECT_THAT(poisoned.problem, HasSubstr("element 2 was never written"));
    EXPECT_TRUE(poisoned.values.values.empty());

    const OutputReference nan = reference_from_output(ElementType::f32, float_bytes({1.0f, std::numeric_limits<float>::quiet_NaN()}));
    EXPECT_THAT(nan.problem, HasSubstr("element 1 is NaN"));
    EXPECT_TRUE(nan.values.values.empty());

    std::vector<std::byte> ints(3 * sizeof(std::int32_t));
    fill_poison(ElementType::i32, ints);
    EXPECT_THAT(reference_from_output(ElementType::i32, ints).problem, HasSubstr("element 0 was never written"));
}

TEST(ReferenceKernelJob, TravelsToTheWorkerAndBack)
{
    MeasureJob job;
    job.variant = 7;
    job.label = "P=7";
    job.cubin_path = "/tmp/a.cubin";
    job.function = "k";
    job.arguments = {{"out", ArgumentKind::buffer, ElementType::f32, 16, 0, BufferAccess::output}};
    EXPECT_TRUE(to_json(job).at("reference_kernel").is_null());
    EXPECT_FALSE(measure_job_from_json(to_json(job)).reference_kernel.has_value());

    job.reference_kernel = ReferenceKernel{2, "P=2", "/tmp/r.cubin", "_Z1kPf", {4, 2, 1}, {32, 8, 1}, 256};
    const MeasureJob back = measure_job_from_json(to_json(job));
    ASSERT_TRUE(back.reference_kernel.has_value());
    EXPECT_EQ(*back.reference_kernel, *job.reference_kernel);

    MeasureReply reply;
    reply.status = "wrong_result";
    reply.reference_failed = true;
    EXPECT_TRUE(measure_reply_from_json(to_json(reply)).reference_failed);
    json old = to_json(MeasureReply{});
    old.erase("reference_failed"); // a reply without the field: the variant's own outcome
    EXPECT_FALSE(measure_reply_from_json(old).reference_failed);
}

TEST(ReferenceVariantNotice, NamesTheSpecTheVariantWhyAndWhatFollows)
{
    KernelSpec spec;
    spec.spec_path = "/specs/blur.toml";
    Variant v;
    v.index = 12;
    v.parameters = {{"block_size_x", 32}, {"use_shared", 0}};
    const std::string line = reference_variant_notice(spec, v, "did not compile: error: expected ';'");
    EXPECT_EQ(line, "/specs/blur.toml: the reference variant #12 (block_size_x=32,use_shared=0) did not compile: "
                    "error: expected ';'; variants are only checked for unwritten elements and NaN, not compared "
                    "(verified_elements 0)");
}

// Workers in sh. Each logs the jobs it receives (one JSON line each) to jobs.log and
// answers ok, except where its script says otherwise for jobs carrying a reference kernel.
const char* const ok_reply =
    R"({"status":"ok","error":"","driver":{"registers":32,"local_bytes":0,"max_threads_per_block":128,"shared_static":0,"constant_bytes":0,"blocks_per_sm":4},"measurement":{"verified":true,"verified_elements":16,"verification_error":0.0,"time_seconds":{"count":10,"median":0.001,"min":0.0009,"max":0.0011,"mean":0.001,"relative_spread":0.1,"median_noise":0.005},"throttled_discarded":0,"converged":true,"sm_clock_mhz":1980.0}})";

std::string worker_script(const std::string& log, const std::string& with_reference)
{
    return "while IFS= read -r line; do\n"
           "  printf '%s\\n' \"$line\" >> '" + log + "'\n"
           "  case \"$line\" in\n"
           "    *'\"reference_kernel\":{'*) " + with_reference + " ;;\n"
           "    *) echo '" + ok_reply + "' ;;\n"
           "  esac\n"
           "done\n";
}

struct ScriptedRun : test::ScriptedVariants {
    test::TempDir dir;
    MeasureSettings settings;
    std::vector<std::string> notices;

    // Variants P = 0..4, all compiled; the reference variant is P = 2.
    explicit ScriptedRun(const std::string& with_reference) : test::ScriptedVariants(test::scripted_variants(5, 128))
    {
        std::ofstream(dir.path() / "worker.sh") << worker_script((dir.path() / "jobs.log").string(), with_reference);
        spec.spec_path = "/specs/t.toml";
        spec.arguments[0].element_type = "float";
        spec.reference.variant = {{"P", 2}};
        settings.worker_argv = {"/bin/sh", (dir.path() / "worker.sh").string()};
        settings.variant_timeout = std::chrono::milliseconds(1500);
        settings.scratch_dir = dir.path();
        settings.journal = dir.path() / "journal.jsonl";
        settings.reference_variant = ReferenceVariantBuild{variants[2], compiled[2]};
        settings.notice = [this](const std::string& line) { notices.push_back(line); };
    }
    std::vector<json> jobs() const
    {
        std::vector<json> out;
        std::ifstream in(dir.path() / "jobs.log");
        for (std::string line; std::getline(in, line);)
            out.push_back(json::parse(line));
        return out;
    }
    std::vector<std::optional<VariantMeasurement>> measure_all()
    {
        return measure_variants(spec, problem, variants, compiled, predictions, settings);
    }
};

TEST(MeasureWithReferenceVariant, ItIsMeasuredFirstOnceAndEveryJobCarriesIt)
{
    ScriptedRun run("echo '" + std::string(ok_reply) + "'");
    const auto results = run.measure_all();
    for (const auto& r : results)
        EXPECT_EQ(r->status, "ok");
    EXPECT_TRUE(run.notices.empty());

    const auto jobs = run.jobs();
    ASSERT_EQ(jobs.size(), 5u); // the reference variant is not measured twice
    EXPECT_EQ(jobs[0].at("variant"), 2);
    const std::size_t order[] = {2, 0, 1, 3, 4};
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        EXPECT_EQ(jobs[i].at("variant"), order[i]);
        const json& reference = jobs[i].at("reference_kernel");
        ASSERT_TRUE(reference.is_object()) << i;
        EXPECT_EQ(reference.at("variant"), 2);
        EXPECT_EQ(reference.at("label"), "P=2");
        EXPECT_EQ(reference.at("function"), "k");
        EXPECT_EQ(test::read_file(reference.at("cubin").get<std::string>()), "cubin 2");
        EXPECT_EQ(jobs[i].at("reference"), ""); // no CPU reference besides
    }
    EXPECT_EQ(read_journal(run.settings.journal).size(), 5u);
}

TEST(MeasureWithReferenceVariant, AReferenceThatFailsWhenRunIsDroppedOnceAndTheVariantsGoOn)
{
    ScriptedRun run(R"sh(echo '{"status":"wrong_result","error":"reference variant 2 (P=2): out: element 5 was never written (still poisoned)","reference_failed":true,"driver":null,"measurement":null}')sh");
    VariantMeasurer measurer(run.spec, run.problem, run.settings);
    std::vector<VariantMeasurement> results;
    for (std::size_t i = 0; i < 5; ++i)
        results.push_back(measurer.measure(run.variants[i], run.compiled[i], run.predictions[i].prediction));
    EXPECT_FALSE(measurer.reference_variant_serves());
    ASSERT_EQ(run.notices.size(), 1u);
    EXPECT_THAT(run.notices[0], HasSubstr("/specs/t.toml: the reference variant #2 (P=2) failed when run"));
    EXPECT_THAT(run.notices[0], HasSubstr("element 5 was never written"));
    EXPECT_THAT(run.notices[0], HasSubstr("only checked for unwritten elements and NaN"));
    for (const auto& r : results)
        EXPECT_EQ(r.status, "ok") << r.error; // not blamed for the reference's failure

    // The reference variant's job, then the same variant again without it, then the rest
    // without it: each variant once.
    const auto jobs = run.jobs();
    ASSERT_EQ(jobs.size(), 6u);
    EXPECT_EQ(jobs[0].at("variant"), 2);
    EXPECT_TRUE(jobs[0].at("reference_kernel").is_object());
    EXPECT_EQ(jobs[1].at("variant"), 2);
    for (std::size_t i = 1; i < jobs.size(); ++i)
        EXPECT_TRUE(jobs[i].at("reference_kernel").is_null()) << i;
}

TEST(MeasureWithReferenceVariant, AReferenceThatCrashesTheWorkerIsDroppedAndTheRunGoesOn)
{
    ScriptedRun run("kill -SEGV $$");
    const auto results = run.measure_all();
    ASSERT_EQ(run.notices.size(), 1u);
    EXPECT_THAT(run.notices[0], HasSubstr("failed when run (fault"));
    EXPECT_EQ(results[2]->status, "fault"); // the reference variant itself crashed
    for (std::size_t i : {0, 1, 3, 4})
        EXPECT_EQ(results[i]->status, "ok") << results[i]->error;
    for (const auto& job : run.jobs())
        if (job.at("variant") != 2)
            EXPECT_TRUE(job.at("reference_kernel").is_null());
}

TEST(MeasureWithReferenceVariant, AReferenceThatDidNotCompileIsSaidOnceAndNothingCarriesIt)
{
    ScriptedRun run("echo '" + std::string(ok_reply) + "'");
    run.settings.reference_variant->compiled.status = CompileStatus::compile_error;
    run.settings.reference_variant->compiled.error = "kernel.cu(3): error: identifier \"tile\" is undefined";
    run.compiled[2] = run.settings.reference_variant->compiled;
    const auto results = run.measure_all();
    ASSERT_EQ(run.notices.size(), 1u);
    EXPECT_THAT(run.notices[0], HasSubstr("#2 (P=2) did not compile: kernel.cu(3): error: identifier \"tile\""));
    EXPECT_FALSE(results[2].has_value()); // did not compile: not measured
    const auto jobs = run.jobs();
    ASSERT_EQ(jobs.size(), 4u);
    for (const auto& job : jobs)
        EXPECT_TRUE(job.at("reference_kernel").is_null());
}

TEST(MeasureWithReferenceVariant, ASpecWithAReferenceVariantNeedsItBuilt)
{
    ScriptedRun run("echo '" + std::string(ok_reply) + "'");
    run.settings.reference_variant.reset();
    EXPECT_THAT([&] { (void)run.measure_all(); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("names a reference variant")));
}

} // namespace
