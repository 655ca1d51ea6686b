// Variants P = 0..count-1 of a one-parameter kernel, already "compiled" and "predicted",
// for tests that drive the measure and search stages through a scripted worker instead of
// a GPU. Tests adjust what they need (a compile error, a register count) afterwards.
#pragma once

#include "compile/compiled_variant.hpp"
#include "measure/measure_variants.hpp"
#include "predict/variant_prediction.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace autotune::test {

struct ScriptedVariants {
    KernelSpec spec;
    Problem problem;
    std::vector<Variant> variants;
    std::vector<CompiledVariant> compiled;
    std::vector<PredictionOutcome> predictions;
};

// Kernel "t" over N = 16 with one int output buffer; each variant a block of
// `block_threads`, 32 registers, a distinct cubin, 4 blocks per SM predicted.
inline ScriptedVariants scripted_variants(std::size_t count, std::int64_t block_threads)
{
    ScriptedVariants s;
    s.spec.name = "t";
    s.spec.problem = {{"N", 16}};
    TunableParameter p{"P", {}, {}};
    for (std::size_t i = 0; i < count; ++i)
        p.values.push_back(static_cast<std::int64_t>(i));
    p.default_values = p.values;
    s.spec.parameters = {p};
    s.spec.arguments = {{"out", ArgumentKind::buffer, "int", "N", "", BufferAccess::output}};
    s.problem.values = {{"N", 16}};
    for (std::size_t i = 0; i < count; ++i) {
        Variant v;
        v.index = i;
        v.parameters = {{"P", static_cast<std::int64_t>(i)}};
        v.block = {block_threads, 1, 1};
        v.grid = {1, 1, 1};
        s.variants.push_back(v);
        CompiledVariant c;
        c.status = CompileStatus::ok;
        c.cubin = "cubin " + std::to_string(i);
        c.cubin_sha256 = std::string(63, 'a') + std::to_string(i);
        c.lowered_name = "k";
        c.resources.registers = 32;
        s.compiled.push_back(c);
        PredictionOutcome prediction;
        prediction.prediction = VariantPrediction{};
        prediction.prediction->occupancy.blocks_per_sm = 4;
        s.predictions.push_back(prediction);
    }
    return s;
}

// A worker script that answers every job "ok" (verified) with the time the awk expression
// `time_of_v` gives for the job's variant index $v, and logs each job line to $ASKED.
inline std::string answering_worker(const std::string& time_of_v)
{
    return R"sh(
while IFS= read -r line; do
  echo "$line" >> "$ASKED"
  v=$(printf '%s' "$line" | sed 's/.*"variant":\([0-9]*\).*/\1/')
  t=$(awk "BEGIN { print )sh" +
           time_of_v + R"sh( }")
  echo '{"status":"ok","error":"","driver":null,"measurement":{"verified":true,"verified_elements":1,"verification_error":0.0,"time_seconds":{"count":10,"median":'$t',"min":'$t',"max":'$t',"mean":'$t',"relative_spread":0.01,"median_noise":0.001},"throttled_discarded":0,"converged":true,"sm_clock_mhz":1000.0}}'
done
)sh";
}

// Measure settings whose worker is the shell script `dir`/worker.sh, with ASKED naming
// `dir`/asked.txt (where the scripts log what they were asked), scratch files and the
// journal in `dir`.
inline MeasureSettings scripted_worker_settings(const std::filesystem::path& dir)
{
    MeasureSettings s;
    s.worker_argv = {"/usr/bin/env", "ASKED=" + (dir / "asked.txt").string(), "/bin/sh", (dir / "worker.sh").string()};
    s.scratch_dir = dir;
    s.journal = dir / "journal.jsonl";
    return s;
}

} // namespace autotune::test
