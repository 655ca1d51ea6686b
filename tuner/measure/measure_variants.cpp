#include "measure/measure_variants.hpp"

#include "measure/cpu_reference.hpp"
#include "measure/measurement_journal.hpp"
#include "util/worker_supervisor.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace autotune {

std::vector<std::string> driver_disagreements(const DriverAttributes& driver, const ResourceUsage& compiled,
                                              const std::optional<VariantPrediction>& predicted)
{
    std::vector<std::string> out;
    if (driver.registers != compiled.registers)
        out.push_back(fmt::format("the driver reports {} registers, ptxas {}", driver.registers, compiled.registers));
    if (driver.shared_static != compiled.shared_static)
        out.push_back(fmt::format("the driver reports {} bytes of static shared memory, ptxas {}",
                                  driver.shared_static, compiled.shared_static));
    if (predicted && driver.blocks_per_sm != predicted->occupancy.blocks_per_sm)
        out.push_back(fmt::format("the driver allows {} blocks per SM, the prediction {}", driver.blocks_per_sm,
                                  predicted->occupancy.blocks_per_sm));
    return out;
}

namespace {

Tolerance tolerance_for(const KernelSpec& spec, const std::vector<ArgumentValue>& arguments)
{
    ElementType output = ElementType::f32;
    for (const auto& a : arguments)
        if (a.kind == ArgumentKind::buffer && a.access != BufferAccess::input) {
            output = a.type;
            break;
        }
    const auto kind = spec.reference.tolerance == "normwise" ? Tolerance::Kind::normwise : Tolerance::Kind::elementwise;
    Tolerance t = default_tolerance(output, kind);
    if (spec.reference.relative)
        t.relative = *spec.reference.relative;
    return t;
}

} // namespace

std::string reference_variant_notice(const KernelSpec& spec, const Variant& reference, const std::string& why)
{
    return fmt::format("{}: the reference variant #{} ({}) {}; variants are only checked for unwritten elements and NaN, "
                       "not compared (verified_elements 0)",
                       spec.spec_path.string(), reference.index, reference.key(), why);
}

struct VariantMeasurer::State {
    WorkerSupervisor worker;
    MeasurementJournal journal;
    std::map<std::string, nlohmann::json> earlier; // journal records of an interrupted run, by resume key
    std::string problem;                           // "M=4096,N=4096,K=4096"
    bool reference_checked = false;                // the reference variant was run (or found unusable)
    std::optional<ReferenceKernel> reference;      // set while the reference variant serves
    std::optional<VariantMeasurement> reference_outcome; // the reference variant's own measurement
};

namespace {

// A record answers for a variant again only for the same code, problem and device.
std::string resume_key(std::size_t index, const std::string& cubin_sha256, const std::string& problem,
                       const std::string& device)
{
    return fmt::format("{}|{}|{}|{}", index, cubin_sha256, problem, device);
}

VariantMeasurement outcome_of_record(const nlohmann::json& record)
{
    const MeasureReply reply = measure_reply_from_json(record);
    VariantMeasurement outcome{reply.status, reply.error, reply.driver, reply.measurement, {}};
    outcome.disagreements = record.at("disagreements").get<std::vector<std::string>>();
    return outcome;
}

} // namespace

VariantMeasurer::VariantMeasurer(const KernelSpec& spec, const Problem& problem, MeasureSettings settings)
    : spec_(spec), problem_(problem), settings_(std::move(settings))
{
    if (!spec.reference.cpu.empty()) {
        const auto known = cpu_reference_names();
        if (std::find(known.begin(), known.end(), spec.reference.cpu) == known.end())
            throw std::invalid_argument(fmt::format("{}: [reference] cpu = '{}' is not a CPU reference (known: {})",
                                                    spec.spec_path.string(), spec.reference.cpu, fmt::join(known, ", ")));
    }
    if (!spec.reference.variant.empty() && !settings_.reference_variant)
        throw std::invalid_argument(fmt::format("{}: the spec names a reference variant, but none was compiled for {}",
                                                spec.spec_path.string(), problem.to_string()));
    // Read what an interrupted run left before appending to it.
    std::map<std::string, nlohmann::json> earlier;
    for (auto& record : read_journal(settings_.journal))
        if (record.contains("problem") && record.contains("device"))
            earlier[resume_key(record.at("index").get<std::size_t>(), record.at("cubin_sha256").get<std::string>(),
                               record.at("problem").get<std::string>(), record.at("device").get<std::string>())] = record;
    state_.reset(new State{WorkerSupervisor(settings_.worker_argv), MeasurementJournal(settings_.journal),
                           std::move(earlier), problem.to_string(), false, std::nullopt, std::nullopt});
}

VariantMeasurer::~VariantMeasurer() = default;

bool VariantMeasurer::reference_variant_serves() const
{
    return state_->reference.has_value();
}

void VariantMeasurer::drop_reference_variant(const std::string& why)
{
    state_->reference.reset();
    const std::string line = reference_variant_notice(spec_, settings_.reference_variant->variant, why);
    if (settings_.notice)
        settings_.notice(line);
    else
        fmt::print(stderr, "autotune: {}\n", line);
}

// The reference variant runs first, checked against its own outputs: a reference that
// does not compile, cannot launch, leaves elements unwritten or crashes the worker is
// dropped, once, and said so, before any variant is compared with it.
void VariantMeasurer::check_reference_variant()
{
    if (state_->reference_checked || !settings_.reference_variant)
        return;
    state_->reference_checked = true;
    const ReferenceVariantBuild& build = *settings_.reference_variant;
    if (build.compiled.status != CompileStatus::ok) {
        drop_reference_variant(fmt::format("did not compile: {}", build.compiled.error));
        return;
    }
    ReferenceKernel kernel;
    kernel.variant = build.variant.index;
    kernel.label = build.variant.key();
    kernel.cubin_path = (settings_.scratch_dir / fmt::format("{}.cubin", build.compiled.cubin_sha256)).string();
    write_file_atomically(kernel.cubin_path, build.compiled.cubin);
    kernel.function = build.compiled.lowered_name;
    kernel.grid = build.variant.grid;
    kernel.block = build.variant.block;
    kernel.dynamic_shared_bytes = build.variant.dynamic_shared_bytes;
    state_->reference = kernel;
    VariantMeasurement outcome = measure_one(build.variant, build.compiled, std::nullopt);
    if (state_->reference && outcome.status != "ok") // a crash or hang says nothing of whose it was
        drop_reference_variant(fmt::format("failed when run ({}: {})", outcome.status, outcome.error));
    state_->reference_outcome = std::move(outcome);
}

VariantMeasurement VariantMeasurer::measure(const Variant& v, const CompiledVariant& compiled,
                                            const std::optional<VariantPrediction>& predicted)
{
    check_reference_variant();
    if (state_->reference_outcome && settings_.reference_variant &&
        v.index == settings_.reference_variant->variant.index &&
        compiled.cubin_sha256 == settings_.reference_variant->compiled.cubin_sha256) {
        VariantMeasurement outcome = *state_->reference_outcome; // measured first, not twice
        outcome.disagreements =
            outcome.driver ? driver_disagreements(*outcome.driver, compiled.resources, predicted) : std::vector<std::string>{};
        return outcome;
    }
    return measure_one(v, compiled, predicted);
}

VariantMeasurement VariantMeasurer::measure_one(const Variant& v, const CompiledVariant& compiled,
                                                const std::optional<VariantPrediction>& predicted)
{
    const std::string key = resume_key(v.index, compiled.cubin_sha256, state_->problem, settings_.device_id);
    if (const auto it = state_->earlier.find(key); it != state_->earlier.end()) {
        ++resumed_;
        return outcome_of_record(it->second);
    }
    MeasureJob job;
    job.variant = v.index;
    job.label = v.key();
    job.device = settings_.device;
    job.cubin_path = (settings_.scratch_dir / fmt::format("{}.cubin", compiled.cubin_sha256)).string();
    write_file_atomically(job.cubin_path, compiled.cubin);
    job.function = compiled.lowered_name;
    job.grid = v.grid;
    job.block = v.block;
    job.dynamic_shared_bytes = v.dynamic_shared_bytes;
    job.arguments = resolve_arguments(spec_, problem_, v);
    job.problem = std::map<std::string, std::int64_t>(problem_.values.begin(), problem_.values.end());
    job.reference = spec_.reference.cpu;
    job.reference_kernel = state_->reference;
    job.tolerance = tolerance_for(spec_, job.arguments);
    job.seed = settings_.seed;
    job.timing = settings_.timing;

    VariantMeasurement outcome;
    const auto answer = state_->worker.request(to_json(job), settings_.variant_timeout);
    if (const auto* failure = std::get_if<WorkerFailure>(&answer)) {
        outcome.status = "fault";
        outcome.error = fmt::format("the measuring process {}{}", failure->detail,
                                    failure->stderr_tail.empty() ? "" : ": " + failure->stderr_tail);
    } else {
        try {
            const MeasureReply reply = measure_reply_from_json(std::get<nlohmann::json>(answer));
            if (reply.reference_failed && state_->reference) {
                // Not this variant's failure: without the reference, measure it again.
                drop_reference_variant(fmt::format("failed when run ({})", reply.error));
                return measure_one(v, compiled, predicted);
            }
            outcome.status = reply.status;
            outcome.error = reply.error;
            outcome.driver = reply.driver;
            outcome.measurement = reply.measurement;
        } catch (const nlohmann::json::exception& e) {
            outcome.status = "fault";
            outcome.error = fmt::format("the measuring process answered nonsense: {}", e.what());
        }
    }
    if (outcome.driver)
        outcome.disagreements = driver_disagreements(*outcome.driver, compiled.resources, predicted);
    state_->journal.append({{"index", v.index},
                            {"params", v.key()},
                            {"cubin_sha256", compiled.cubin_sha256},
                            {"problem", state_->problem},
                            {"device", settings_.device_id},
                            {"status", outcome.status},
                            {"error", outcome.error},
                            {"driver", outcome.driver ? to_json(*outcome.driver) : nlohmann::json(nullptr)},
                            {"measurement", outcome.measurement ? to_json(*outcome.measurement) : nlohmann::json(nullptr)},
                            {"disagreements", outcome.disagreements}});
    return outcome;
}

std::vector<std::optional<VariantMeasurement>> measure_variants(
    const KernelSpec& spec, const Problem& problem, const std::vector<Variant>& variants,
    const std::vector<CompiledVariant>& compiled, const std::vector<PredictionOutcome>& predictions,
    const MeasureSettings& settings)
{
    VariantMeasurer measurer(spec, problem, settings);
    std::vector<std::optional<VariantMeasurement>> results(variants.size());
    std::vector<std::size_t> runnable;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (compiled[i].status == CompileStatus::ok && predictions[i].prediction)
            runnable.push_back(i);
    std::size_t done = 0;
    for (const std::size_t i : runnable) {
        results[i] = measurer.measure(variants[i], compiled[i], predictions[i].prediction);
        if (settings.progress)
            settings.progress(++done, runnable.size());
    }
    return results;
}

} // namespace autotune
