// The tuner's side of measuring, against a scripted worker (no GPU): every runnable
// variant gets an outcome, a worker that crashes or hangs marks only its variant
// `fault`, the run goes on, and each outcome is in the journal as it happens.
#include "measure/measure_variants.hpp"

#include "measure/measurement_journal.hpp"
#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

// A worker in sh: answers each job with a canned reply chosen by the job's variant index:
// 1 → wrong_result, 2 → the worker kills itself with SIGSEGV, 3 → it hangs, others → ok
// with registers 32 and 4 blocks per SM.
const char* const scripted_worker = R"sh(
while IFS= read -r line; do
  case "$line" in
    *'"variant":1'[,}]*) echo '{"status":"wrong_result","error":"out: element 5 was never written (still poisoned)","driver":null,"measurement":null}' ;;
    *'"variant":2'[,}]*) kill -SEGV $$ ;;
    *'"variant":3'[,}]*) exec sleep 60 ;;
    *) echo '{"status":"ok","error":"","driver":{"registers":32,"local_bytes":0,"max_threads_per_block":128,"shared_static":0,"constant_bytes":0,"blocks_per_sm":4},"measurement":{"verified":true,"verified_elements":10,"verification_error":0.0,"time_seconds":{"count":10,"median":0.001,"min":0.0009,"max":0.0011,"mean":0.001,"relative_spread":0.1,"median_noise":0.005},"throttled_discarded":0,"converged":true,"sm_clock_mhz":1980.0}}' ;;
  esac
done
)sh";

struct Fixture : test::ScriptedVariants {
    test::TempDir dir;
    MeasureSettings settings;

    Fixture() : test::ScriptedVariants(test::scripted_variants(6, 128))
    {
        std::ofstream(dir.path() / "worker.sh") << scripted_worker;
        compiled[5].status = CompileStatus::compile_error; // 5 never reaches a worker
        compiled[4].resources.registers = 40;             // 4: the driver will disagree
        settings.worker_argv = {"/bin/sh", (dir.path() / "worker.sh").string()};
        settings.variant_timeout = std::chrono::milliseconds(1500);
        settings.scratch_dir = dir.path();
        settings.journal = dir.path() / "journal.jsonl";
    }
};

TEST(MeasureVariants, FaultsAndHangsCostOnlyTheirVariantAndTheRunGoesOn)
{
    Fixture f;
    const auto results = measure_variants(f.spec, f.problem, f.variants, f.compiled, f.predictions, f.settings);
    ASSERT_EQ(results.size(), 6u);
    EXPECT_EQ(results[0]->status, "ok");
    EXPECT_DOUBLE_EQ(results[0]->measurement->time.median, 0.001);
    EXPECT_EQ(results[1]->status, "wrong_result");
    EXPECT_THAT(results[1]->error, HasSubstr("never written"));
    EXPECT_EQ(results[2]->status, "fault");
    EXPECT_THAT(results[2]->error, HasSubstr("SIGSEGV"));
    EXPECT_EQ(results[3]->status, "fault");
    EXPECT_THAT(results[3]->error, HasSubstr("no reply"));
    EXPECT_EQ(results[4]->status, "ok"); // after two dead workers, a third one answers
    EXPECT_FALSE(results[5].has_value()); // did not compile: not measured
}

TEST(MeasureVariants, TheDriverDisagreeingWithTheTunerIsRecorded)
{
    Fixture f;
    const auto results = measure_variants(f.spec, f.problem, f.variants, f.compiled, f.predictions, f.settings);
    EXPECT_THAT(results[0]->disagreements, ::testing::IsEmpty());
    ASSERT_EQ(results[4]->disagreements.size(), 1u);
    EXPECT_THAT(results[4]->disagreements[0], HasSubstr("the driver reports 32 registers, ptxas 40"));
}

TEST(MeasureVariants, EveryOutcomeIsInTheJournalInOrder)
{
    Fixture f;
    (void)measure_variants(f.spec, f.problem, f.variants, f.compiled, f.predictions, f.settings);
    const auto records = read_journal(f.settings.journal);
    ASSERT_EQ(records.size(), 5u);
    const char* statuses[] = {"ok", "wrong_result", "fault", "fault", "ok"};
    for (std::size_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ(records[i].at("index"), i);
        EXPECT_EQ(records[i].at("status"), statuses[i]);
    }
}

TEST(MeasureVariants, AnUnknownCpuReferenceIsRefusedBeforeAnyWork)
{
    Fixture f;
    f.spec.reference.cpu = "fft";
    EXPECT_THAT([&] { (void)measure_variants(f.spec, f.problem, f.variants, f.compiled, f.predictions, f.settings); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("cpu = 'fft' is not a CPU reference")));
    EXPECT_FALSE(std::filesystem::exists(f.settings.journal));
}

} // namespace

namespace {

TEST(MeasureVariants, ARerunResumesFromTheJournalAndMeasuresNothingTwice)
{
    Fixture f;
    // The first run is cut short after two variants (as by SIGKILL): its journal holds them.
    {
        std::vector<Variant> first(f.variants.begin(), f.variants.begin() + 2);
        std::vector<CompiledVariant> compiled(f.compiled.begin(), f.compiled.begin() + 2);
        std::vector<PredictionOutcome> predictions(f.predictions.begin(), f.predictions.begin() + 2);
        (void)measure_variants(f.spec, f.problem, first, compiled, predictions, f.settings);
    }
    // The rerun: a worker that logs what it is asked shows variants 0 and 1 are not asked again.
    const auto log = f.dir.path() / "asked.txt";
    std::ofstream(f.dir.path() / "logging.sh") << "while IFS= read -r line; do echo \"$line\" >> " << log.string()
                                               << "; printf '%s\\n' \"$line\" | sh " << (f.dir.path() / "worker.sh").string()
                                               << " || exit 1; done\n";
    f.settings.worker_argv = {"/bin/sh", (f.dir.path() / "logging.sh").string()};
    VariantMeasurer measurer(f.spec, f.problem, f.settings);
    std::vector<std::string> statuses;
    for (std::size_t i : {0u, 1u, 4u})
        statuses.push_back(measurer.measure(f.variants[i], f.compiled[i], f.predictions[i].prediction).status);
    EXPECT_EQ(statuses, (std::vector<std::string>{"ok", "wrong_result", "ok"}));
    EXPECT_EQ(measurer.resumed(), 2u);
    const std::string asked = test::read_file(log);
    EXPECT_EQ(std::count(asked.begin(), asked.end(), '\n'), 1) << asked;
    EXPECT_NE(asked.find("\"variant\":4"), std::string::npos);
    EXPECT_EQ(read_journal(f.settings.journal).size(), 3u); // two from the first run, one new
}

TEST(MeasureVariants, AJournalOfAnotherProblemOrDeviceIsNotReused)
{
    Fixture f;
    {
        std::vector<Variant> first(f.variants.begin(), f.variants.begin() + 1);
        std::vector<CompiledVariant> compiled(f.compiled.begin(), f.compiled.begin() + 1);
        std::vector<PredictionOutcome> predictions(f.predictions.begin(), f.predictions.begin() + 1);
        (void)measure_variants(f.spec, f.problem, first, compiled, predictions, f.settings);
    }
    f.settings.device_id = "0000:17:00.0"; // another GPU
    VariantMeasurer measurer(f.spec, f.problem, f.settings);
    (void)measurer.measure(f.variants[0], f.compiled[0], f.predictions[0].prediction);
    EXPECT_EQ(measurer.resumed(), 0u);
}

} // namespace
