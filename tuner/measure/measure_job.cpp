#include "measure/measure_job.hpp"

#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/spec_scope.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace autotune {

std::vector<ArgumentValue> resolve_arguments(const KernelSpec& spec, const Problem& problem, const Variant& variant)
{
    ExpressionScope scope(spec_variable_names(spec));
    scope.set_all(problem.values);
    scope.set_all(variant.parameters);
    scope.set_all(variant.derived);

    std::vector<ArgumentValue> out;
    try {
        for (const auto& a : spec.arguments) {
            ArgumentValue v;
            v.name = a.name;
            v.kind = a.kind;
            v.access = a.access;
            v.constant = a.kind == ArgumentKind::buffer && a.memory == ArgumentMemory::constant;
            v.kernel_parameter = a.kernel_parameter;
            v.random_upper = a.random_upper;
            v.fill_value = a.fill_value;
            v.fill_expression = a.fill_expression;
            v.fill_file = a.fill_file;
            BufferElement element;
            try {
                element = a.kind == ArgumentKind::buffer ? parse_buffer_element(a.element_type)
                                                         : BufferElement{parse_element_type(a.element_type), 1};
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(fmt::format("argument {}: {}", a.name, e.what()));
            }
            v.type = element.component;
            if (a.kind == ArgumentKind::buffer) {
                v.count = Expression(a.size, "argument " + a.name + " size", scope).evaluate_integer();
                if (v.count < 1)
                    throw std::invalid_argument(fmt::format("argument {}: size '{}' = {} (a buffer needs at least one element)",
                                                            a.name, a.size, v.count));
                // A float2 buffer of N elements is 2N floats to fill and to compare, component by component.
                v.count *= element.components;
            } else {
                v.value = Expression(a.value, "argument " + a.name + " value", scope).evaluate();
            }
            out.push_back(std::move(v));
        }
    } catch (const ExpressionError& e) {
        // The spec's error, not the measurement's: it names the spec file.
        throw spec_problem_error(spec, problem, fmt::format("{} (variant {})", e.what(), variant.key()));
    }
    return out;
}

std::array<std::byte, 8> scalar_argument_bytes(const ArgumentValue& a)
{
    // Checked before anything is compiled (check_problem); a value a cast would wrap must
    // still never reach a kernel.
    if (const std::string why = scalar_value_error(a.type, a.value); !why.empty())
        throw std::invalid_argument(fmt::format("scalar argument {}: {}", a.name, why));
    std::array<std::byte, 8> out{};
    auto put = [&out](auto value) { std::memcpy(out.data(), &value, sizeof value); };
    switch (a.type) {
    case ElementType::f32: put(static_cast<float>(a.value)); break;
    case ElementType::f64: put(a.value); break;
    case ElementType::i8: put(static_cast<std::int8_t>(a.value)); break;
    case ElementType::i32: put(static_cast<std::int32_t>(a.value)); break;
    case ElementType::u32: put(static_cast<std::uint32_t>(a.value)); break;
    case ElementType::i64: put(static_cast<std::int64_t>(a.value)); break;
    case ElementType::u8: put(static_cast<std::uint8_t>(a.value)); break;
    case ElementType::i16: put(static_cast<std::int16_t>(a.value)); break;
    case ElementType::u16: put(static_cast<std::uint16_t>(a.value)); break;
    case ElementType::u64: put(static_cast<std::uint64_t>(a.value)); break;
    default:
        break; // refused above
    }
    return out;
}

ReferenceRequest reference_request(const MeasureJob& job, const std::vector<HostBuffer>& host, std::size_t output)
{
    if (host.size() != job.arguments.size() || output >= job.arguments.size())
        throw std::invalid_argument(fmt::format("reference request for argument {} of {} with {} host buffers", output,
                                                job.arguments.size(), host.size()));
    ReferenceRequest request;
    request.name = job.reference;
    for (std::size_t k = 0; k < job.arguments.size(); ++k) {
        const ArgumentValue& a = job.arguments[k];
        if (a.kind == ArgumentKind::buffer && a.access != BufferAccess::output)
            request.inputs[a.name] = &host[k];
        else if (a.kind == ArgumentKind::scalar) // read back from the bytes passed, rounding included
            request.scalars[a.name] = element_value(a.type, scalar_argument_bytes(a), 0);
    }
    request.problem = job.problem;
    request.output = job.arguments[output].name;
    request.seed = job.seed;
    return request;
}

namespace {

// The worker protocol's JSON, as measure_job.hpp declares it (not the ordered kind the
// files use; a distinct name keeps the two apart when sources are compiled together).
using wire_json = nlohmann::json;

const char* access_name(BufferAccess access)
{
    switch (access) {
    case BufferAccess::input: return "input";
    case BufferAccess::output: return "output";
    case BufferAccess::input_output: return "input_output";
    }
    return "input";
}

BufferAccess access_from(const std::string& name)
{
    if (name == "output") return BufferAccess::output;
    if (name == "input_output") return BufferAccess::input_output;
    return BufferAccess::input;
}

wire_json dims(const Dim3& d) { return wire_json::array({d.x, d.y, d.z}); }
Dim3 dims_from(const wire_json& j) { return {j.at(0).get<std::int64_t>(), j.at(1).get<std::int64_t>(), j.at(2).get<std::int64_t>()}; }

wire_json summary_json(const SampleSummary& s)
{
    return {{"count", s.count},   {"median", s.median}, {"min", s.min},
            {"max", s.max},       {"mean", s.mean},     {"relative_spread", s.relative_spread},
            {"median_noise", s.median_noise}};
}

SampleSummary summary_from(const wire_json& j)
{
    SampleSummary s;
    s.count = j.at("count").get<std::size_t>();
    s.median = j.at("median").get<double>();
    s.min = j.at("min").get<double>();
    s.max = j.at("max").get<double>();
    s.mean = j.at("mean").get<double>();
    s.relative_spread = j.at("relative_spread").get<double>();
    s.median_noise = j.at("median_noise").get<double>();
    return s;
}

wire_json reference_kernel_json(const ReferenceKernel& k)
{
    return {{"variant", k.variant}, {"label", k.label},       {"cubin", k.cubin_path},
            {"function", k.function}, {"grid", dims(k.grid)}, {"block", dims(k.block)},
            {"dynamic_shared_bytes", k.dynamic_shared_bytes}};
}

ReferenceKernel reference_kernel_from(const wire_json& j)
{
    ReferenceKernel k;
    k.variant = j.at("variant").get<std::size_t>();
    k.label = j.at("label").get<std::string>();
    k.cubin_path = j.at("cubin").get<std::string>();
    k.function = j.at("function").get<std::string>();
    k.grid = dims_from(j.at("grid"));
    k.block = dims_from(j.at("block"));
    k.dynamic_shared_bytes = j.at("dynamic_shared_bytes").get<std::int64_t>();
    return k;
}

} // namespace

wire_json to_json(const MeasureJob& job)
{
    wire_json arguments = wire_json::array();
    for (const auto& a : job.arguments)
        arguments.push_back({{"name", a.name},
                             {"kind", a.kind == ArgumentKind::buffer ? "buffer" : "scalar"},
                             {"type", to_string(a.type)},
                             {"count", a.count},
                             {"value", a.value},
                             {"access", access_name(a.access)},
                             {"constant", a.constant},
                             {"parameter", a.kernel_parameter},
                             {"random_upper", a.random_upper ? wire_json(*a.random_upper) : wire_json(nullptr)},
                             {"fill_value", a.fill_value ? wire_json(*a.fill_value) : wire_json(nullptr)},
                             {"fill_expression", a.fill_expression},
                             {"fill_file", a.fill_file}});
    return {{"variant", job.variant},
            {"label", job.label},
            {"device", job.device},
            {"cubin", job.cubin_path},
            {"function", job.function},
            {"grid", dims(job.grid)},
            {"block", dims(job.block)},
            {"dynamic_shared_bytes", job.dynamic_shared_bytes},
            {"arguments", arguments},
            {"problem", job.problem},
            {"reference", job.reference},
            {"reference_kernel", job.reference_kernel ? reference_kernel_json(*job.reference_kernel) : wire_json(nullptr)},
            {"tolerance",
             {{"kind", job.tolerance.kind == Tolerance::Kind::normwise ? "normwise" : "elementwise"},
              {"relative", job.tolerance.relative},
              {"absolute", job.tolerance.absolute}}},
            {"seed", job.seed},
            {"timing",
             {{"max_median_noise", job.timing.max_median_noise},
              {"min_samples", job.timing.min_samples},
              {"min_seconds", job.timing.min_seconds},
              {"max_seconds", job.timing.max_seconds}}}};
}

MeasureJob measure_job_from_json(const wire_json& j)
{
    MeasureJob job;
    job.variant = j.at("variant").get<std::size_t>();
    job.label = j.at("label").get<std::string>();
    job.device = j.at("device").get<int>();
    job.cubin_path = j.at("cubin").get<std::string>();
    job.function = j.at("function").get<std::string>();
    job.grid = dims_from(j.at("grid"));
    job.block = dims_from(j.at("block"));
    job.dynamic_shared_bytes = j.at("dynamic_shared_bytes").get<std::int64_t>();
    for (const auto& a : j.at("arguments")) {
        ArgumentValue v;
        v.name = a.at("name").get<std::string>();
        v.kind = a.at("kind") == "buffer" ? ArgumentKind::buffer : ArgumentKind::scalar;
        v.type = parse_element_type(a.at("type").get<std::string>());
        v.count = a.at("count").get<std::int64_t>();
        v.value = a.at("value").get<double>();
        v.access = access_from(a.at("access").get<std::string>());
        v.constant = a.value("constant", false);
        v.kernel_parameter = a.value("parameter", true);
        if (const auto upper = a.find("random_upper"); upper != a.end() && !upper->is_null())
            v.random_upper = upper->get<double>();
        if (const auto fill = a.find("fill_value"); fill != a.end() && !fill->is_null())
            v.fill_value = fill->get<double>();
        v.fill_expression = a.value("fill_expression", std::string());
        v.fill_file = a.value("fill_file", std::string());
        job.arguments.push_back(std::move(v));
    }
    job.problem = j.at("problem").get<std::map<std::string, std::int64_t>>();
    job.reference = j.at("reference").get<std::string>();
    if (const auto k = j.find("reference_kernel"); k != j.end() && !k->is_null())
        job.reference_kernel = reference_kernel_from(*k);
    const wire_json& t = j.at("tolerance");
    job.tolerance.kind = t.at("kind") == "normwise" ? Tolerance::Kind::normwise : Tolerance::Kind::elementwise;
    job.tolerance.relative = t.at("relative").get<double>();
    job.tolerance.absolute = t.at("absolute").get<double>();
    job.seed = j.at("seed").get<std::uint64_t>();
    const wire_json& timing = j.at("timing");
    job.timing.max_median_noise = timing.at("max_median_noise").get<double>();
    job.timing.min_samples = timing.at("min_samples").get<std::size_t>();
    job.timing.min_seconds = timing.at("min_seconds").get<double>();
    job.timing.max_seconds = timing.at("max_seconds").get<double>();
    return job;
}

wire_json to_json(const DriverAttributes& d)
{
    return {{"registers", d.registers},           {"local_bytes", d.local_bytes},
            {"max_threads_per_block", d.max_threads_per_block}, {"shared_static", d.shared_static},
            {"constant_bytes", d.constant_bytes}, {"blocks_per_sm", d.blocks_per_sm}};
}

wire_json to_json(const Measurement& m)
{
    return {{"verified", m.verified},
            {"verified_elements", m.verified_elements},
            {"verification_error", m.verification_error},
            {"time_seconds", summary_json(m.time)},
            {"throttled_discarded", m.throttled_discarded},
            {"converged", m.converged},
            {"sm_clock_mhz", m.sm_clock_mhz}};
}

wire_json to_json(const MeasureReply& reply)
{
    return {{"status", reply.status},
            {"error", reply.error},
            {"reference_failed", reply.reference_failed},
            {"driver", reply.driver ? to_json(*reply.driver) : wire_json(nullptr)},
            {"measurement", reply.measurement ? to_json(*reply.measurement) : wire_json(nullptr)}};
}

MeasureReply measure_reply_from_json(const wire_json& j)
{
    MeasureReply reply;
    reply.status = j.at("status").get<std::string>();
    reply.error = j.at("error").get<std::string>();
    reply.reference_failed = j.value("reference_failed", false);
    if (const wire_json& d = j.at("driver"); !d.is_null()) {
        DriverAttributes a;
        a.registers = d.at("registers").get<int>();
        a.local_bytes = d.at("local_bytes").get<std::int64_t>();
        a.max_threads_per_block = d.at("max_threads_per_block").get<int>();
        a.shared_static = d.at("shared_static").get<std::int64_t>();
        a.constant_bytes = d.at("constant_bytes").get<std::int64_t>();
        a.blocks_per_sm = d.at("blocks_per_sm").get<int>();
        reply.driver = a;
    }
    if (const wire_json& m = j.at("measurement"); !m.is_null()) {
        Measurement x;
        x.verified = m.at("verified").get<bool>();
        x.verified_elements = m.at("verified_elements").get<std::size_t>();
        x.verification_error = m.at("verification_error").get<double>();
        x.time = summary_from(m.at("time_seconds"));
        x.throttled_discarded = m.at("throttled_discarded").get<std::size_t>();
        x.converged = m.at("converged").get<bool>();
        x.sm_clock_mhz = m.at("sm_clock_mhz").get<double>();
        reply.measurement = x;
    }
    return reply;
}

} // namespace autotune
