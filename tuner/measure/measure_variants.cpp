#include "measure/measure_variants.hpp"

#include "measure/cpu_reference.hpp"
#include "measure/measurement_journal.hpp"
#include "measure/worker_supervisor.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

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

std::vector<std::optional<VariantMeasurement>> measure_variants(
    const KernelSpec& spec, const Problem& problem, const std::vector<Variant>& variants,
    const std::vector<CompiledVariant>& compiled, const std::vector<PredictionOutcome>& predictions,
    const MeasureSettings& settings)
{
    if (!spec.reference.cpu.empty()) {
        const auto known = cpu_reference_names();
        if (std::find(known.begin(), known.end(), spec.reference.cpu) == known.end())
            throw std::invalid_argument(fmt::format("{}: [reference] cpu = '{}' is not a CPU reference (known: {})",
                                                    spec.spec_path.string(), spec.reference.cpu, fmt::join(known, ", ")));
    }
    std::vector<std::optional<VariantMeasurement>> results(variants.size());
    std::vector<std::size_t> runnable;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (compiled[i].status == CompileStatus::ok && predictions[i].prediction)
            runnable.push_back(i);

    std::map<std::string, std::int64_t> problem_values(problem.values.begin(), problem.values.end());
    WorkerSupervisor worker(settings.worker_argv);
    MeasurementJournal journal(settings.journal);
    std::size_t done = 0;
    for (const std::size_t i : runnable) {
        const Variant& v = variants[i];
        MeasureJob job;
        job.variant = v.index;
        job.label = v.key();
        job.device = settings.device;
        job.cubin_path = (settings.scratch_dir / fmt::format("{}.cubin", compiled[i].cubin_sha256)).string();
        write_file_atomically(job.cubin_path, compiled[i].cubin);
        job.function = compiled[i].lowered_name;
        job.grid = v.grid;
        job.block = v.block;
        job.dynamic_shared_bytes = v.dynamic_shared_bytes;
        job.arguments = resolve_arguments(spec, problem, v);
        job.problem = problem_values;
        job.reference = spec.reference.cpu;
        job.tolerance = tolerance_for(spec, job.arguments);
        job.seed = settings.seed;
        job.timing = settings.timing;

        VariantMeasurement outcome;
        const auto answer = worker.request(to_json(job), settings.variant_timeout);
        if (const auto* failure = std::get_if<WorkerFailure>(&answer)) {
            outcome.status = "fault";
            outcome.error = fmt::format("the measuring process {}{}", failure->detail,
                                        failure->stderr_tail.empty() ? "" : ": " + failure->stderr_tail);
        } else {
            try {
                const MeasureReply reply = measure_reply_from_json(std::get<nlohmann::json>(answer));
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
            outcome.disagreements = driver_disagreements(*outcome.driver, compiled[i].resources, predictions[i].prediction);
        journal.append({{"index", v.index},
                        {"params", v.key()},
                        {"cubin_sha256", compiled[i].cubin_sha256},
                        {"status", outcome.status},
                        {"error", outcome.error},
                        {"driver", outcome.driver ? to_json(*outcome.driver) : nlohmann::json(nullptr)},
                        {"measurement", outcome.measurement ? to_json(*outcome.measurement) : nlohmann::json(nullptr)},
                        {"disagreements", outcome.disagreements}});
        results[i] = std::move(outcome);
        if (settings.progress)
            settings.progress(++done, runnable.size());
    }
    return results;
}

} // namespace autotune
