#include "measure/measure_session.hpp"

#include "compile/nvrtc_compiler.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace autotune {
namespace {

// Reads the SM clock as cycles per nanosecond of the global timer over a short spin. Run
// right after each timed launch, it says at what clock that sample ran.
const char* const clock_probe_source = R"(
extern "C" __global__ void autotune_clock_probe(unsigned long long* out, unsigned long long spin_ns)
{
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while (t1 - t0 < spin_ns);
    const long long c1 = clock64();
    out[0] = static_cast<unsigned long long>(c1 - c0);
    out[1] = t1 - t0;
}
)";
constexpr unsigned long long probe_spin_ns = 20000;

std::string read_binary(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(fmt::format("cannot read cubin {}", path));
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

bool is_four_byte(ElementType type)
{
    return element_size(type) == 4;
}

bool is_output(const ArgumentValue& a)
{
    return a.kind == ArgumentKind::buffer && a.access != BufferAccess::input;
}

// The reference variant, not the variant measured, failed: the tuner drops the reference
// and says so, rather than blaming every variant.
class ReferenceKernelError : public std::runtime_error {
public:
    ReferenceKernelError(const std::string& message, std::string status)
        : std::runtime_error(message), status_(std::move(status)) {}
    [[nodiscard]] const std::string& status() const { return status_; }

private:
    std::string status_; // fault (the context is lost), launch_error or wrong_result
};

} // namespace

struct MeasureSession::ProblemData {
    std::string signature;
    std::vector<ArgumentValue> arguments;
    std::vector<HostBuffer> host;      // initial contents of every buffer (inputs; outputs empty)
    std::vector<DeviceBuffer> device;  // per argument; scalars have none
    std::vector<std::array<std::byte, 8>> scalars;
    std::vector<void*> parameters;     // cuLaunchKernel's array: a pointer to each argument's value
    std::map<std::size_t, ReferenceValues> references; // output argument → its reference
};

MeasureSession::MeasureSession(const CudaDriver& driver, int device_ordinal, const NvrtcLibrary& nvrtc)
    : driver_(driver), ordinal_(device_ordinal)
{
    AUTOTUNE_CHECK(driver_, cuDeviceGet(&device_, device_ordinal), fmt::format("device {}", device_ordinal));
    AUTOTUNE_CHECK(driver_, cuDevicePrimaryCtxRetain(&context_, device_), "retaining the primary context");
    AUTOTUNE_CHECK(driver_, cuCtxSetCurrent(context_), "making the context current");
    AUTOTUNE_CHECK(driver_, cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "creating the stream");
    AUTOTUNE_CHECK(driver_, cuEventCreate(&start_, CU_EVENT_DEFAULT), "creating events");
    AUTOTUNE_CHECK(driver_, cuEventCreate(&stop_, CU_EVENT_DEFAULT), "creating events");

    int l2 = 0, major = 0, minor = 0;
    AUTOTUNE_CHECK(driver_, cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device_), "reading L2 size");
    AUTOTUNE_CHECK(driver_, cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_), "");
    AUTOTUNE_CHECK(driver_, cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_), "");
    // Twice the L2, so no line of the previous sample can survive the flush.
    flush_ = allocate(std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 32u << 20), "the L2 flush buffer");
    probe_output_ = allocate(2 * sizeof(unsigned long long), "the clock probe");

    CompileRequest probe;
    probe.source = clock_probe_source;
    probe.name_expression = "autotune_clock_probe";
    probe.arch = ArchTarget{major, minor, ""};
    const CompileOutput compiled = compile_with_nvrtc(probe, nvrtc);
    if (!compiled.ok)
        throw std::runtime_error("cannot compile the clock probe: " + compiled.error);
    AUTOTUNE_CHECK(driver_, cuModuleLoadDataEx(&probe_module_, compiled.cubin.data(), 0, nullptr, nullptr),
                   "loading the clock probe");
    AUTOTUNE_CHECK(driver_, cuModuleGetFunction(&probe_, probe_module_, compiled.lowered_name.c_str()),
                   "loading the clock probe");
}

MeasureSession::~MeasureSession()
{
    // Best effort: after a fault the context refuses everything, and the process ends anyway.
    if (problem_)
        for (auto& buffer : problem_->device)
            release(buffer);
    release(flush_);
    release(probe_output_);
    if (probe_module_)
        driver_.cuModuleUnload(probe_module_);
    if (start_)
        driver_.cuEventDestroy(start_);
    if (stop_)
        driver_.cuEventDestroy(stop_);
    if (stream_)
        driver_.cuStreamDestroy(stream_);
    if (context_)
        driver_.cuDevicePrimaryCtxRelease(device_);
}

MeasureSession::DeviceBuffer MeasureSession::allocate(std::size_t bytes, const std::string& what)
{
    DeviceBuffer buffer;
    AUTOTUNE_CHECK(driver_, cuMemAlloc(&buffer.pointer, bytes), fmt::format("allocating {} bytes for {}", bytes, what));
    buffer.bytes = bytes;
    return buffer;
}

void MeasureSession::release(DeviceBuffer& buffer)
{
    if (buffer.pointer)
        driver_.cuMemFree(buffer.pointer);
    buffer = {};
}

void MeasureSession::prepare_problem(const MeasureJob& job)
{
    // Variants of one problem share its buffers: inputs are generated and uploaded once.
    const nlohmann::json job_json = to_json(job);
    nlohmann::json key = {{"arguments", job_json["arguments"]}, {"problem", job.problem}, {"seed", job.seed},
                          {"reference", job.reference}, {"reference_kernel", job_json["reference_kernel"]}};
    const std::string signature = key.dump();
    if (problem_ && problem_->signature == signature)
        return;
    if (problem_)
        for (auto& buffer : problem_->device)
            release(buffer);
    problem_ = std::make_unique<ProblemData>();
    ProblemData& p = *problem_;
    p.arguments = job.arguments;
    p.host.resize(job.arguments.size());
    p.device.resize(job.arguments.size());
    p.scalars.resize(job.arguments.size());
    for (std::size_t i = 0; i < job.arguments.size(); ++i) {
        const ArgumentValue& a = job.arguments[i];
        if (a.kind == ArgumentKind::scalar) {
            p.scalars[i] = scalar_argument_bytes(a);
            p.parameters.push_back(p.scalars[i].data());
            continue;
        }
        const std::size_t bytes = static_cast<std::size_t>(a.count) * element_size(a.type);
        p.device[i] = allocate(bytes, "argument " + a.name);
        p.host[i].type = a.type;
        if (a.access != BufferAccess::output) {
            p.host[i].bytes.resize(bytes);
            if (!a.fill_file.empty()) {
                try {
                    fill_input_from_file(p.host[i].bytes, a.fill_file);
                } catch (const std::invalid_argument& e) {
                    throw std::invalid_argument(fmt::format("argument {}: its BinaryRaw fill: {}", a.name, e.what()));
                }
            } else if (!a.fill_expression.empty()) {
                try {
                    fill_generated_input(a.type, p.host[i].bytes, a.fill_expression);
                } catch (const std::exception& e) {
                    throw std::invalid_argument(
                        fmt::format("argument {}: its Generator fill '{}': {}", a.name, a.fill_expression, e.what()));
                }
            } else if (a.fill_value)
                fill_constant_input(a.type, p.host[i].bytes, *a.fill_value);
            else
                fill_random_input(a.type, p.host[i].bytes, job.seed + i, a.random_upper);
            AUTOTUNE_CHECK(driver_, cuMemcpyHtoD(p.device[i].pointer, p.host[i].bytes.data(), bytes),
                           "uploading argument " + a.name);
        }
        if (a.kernel_parameter)
            p.parameters.push_back(&p.device[i].pointer);
    }
    if (job.reference_kernel) {
        run_reference_kernel(*job.reference_kernel);
    } else if (!job.reference.empty()) {
        for (std::size_t i = 0; i < job.arguments.size(); ++i) {
            if (!is_output(job.arguments[i]))
                continue;
            // p.host holds what each launch starts from: input_output buffers are restored to it.
            p.references[i] = cpu_reference(reference_request(job, p.host, i));
        }
    }
    // Only a problem whose references are complete is reused by the next job.
    p.signature = signature;
}

void MeasureSession::run_reference_kernel(const ReferenceKernel& kernel)
{
    ProblemData& p = *problem_;
    const std::string what = fmt::format("reference variant {} ({})", kernel.variant, kernel.label);
    CUmodule module = nullptr;
    try {
        const std::string cubin = read_binary(kernel.cubin_path);
        AUTOTUNE_CHECK(driver_, cuModuleLoadDataEx(&module, cubin.data(), 0, nullptr, nullptr), what + ": loading");
        CUfunction function = nullptr;
        AUTOTUNE_CHECK(driver_, cuModuleGetFunction(&function, module, kernel.function.c_str()), what);
        upload_constants(module, what);
        if (kernel.dynamic_shared_bytes > 48 * 1024)
            AUTOTUNE_CHECK(driver_,
                           cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              static_cast<int>(kernel.dynamic_shared_bytes)),
                           what + ": raising the dynamic shared memory limit");
        reset_outputs(what);
        launch(function, kernel.grid, kernel.block, kernel.dynamic_shared_bytes, p.parameters.data(), what + ": launch");
        AUTOTUNE_CHECK(driver_, cuStreamSynchronize(stream_), what + ": run");
        for (std::size_t i = 0; i < p.arguments.size(); ++i) {
            if (!is_output(p.arguments[i]))
                continue;
            std::vector<std::byte> output(p.device[i].bytes);
            AUTOTUNE_CHECK(driver_, cuMemcpyDtoH(output.data(), p.device[i].pointer, output.size()),
                           what + ": reading " + p.arguments[i].name);
            OutputReference reference = reference_from_output(p.arguments[i].type, output);
            if (!reference.problem.empty())
                throw ReferenceKernelError(fmt::format("{}: {}: {}", what, p.arguments[i].name, reference.problem),
                                           "wrong_result");
            p.references[i] = std::move(reference.values);
        }
    } catch (const DriverError& e) {
        if (module && !e.is_sticky())
            driver_.cuModuleUnload(module);
        throw ReferenceKernelError(e.what(), e.is_sticky() ? "fault" : "launch_error");
    } catch (const ReferenceKernelError&) {
        driver_.cuModuleUnload(module);
        throw;
    } catch (const std::exception& e) {
        if (module)
            driver_.cuModuleUnload(module);
        throw ReferenceKernelError(fmt::format("{}: {}", what, e.what()), "launch_error");
    }
    driver_.cuModuleUnload(module);
}

// Constant-memory arguments (Kernel Tuner's cmem_args): the module's __constant__
// variable of the argument's name gets the argument's values. Kernels cannot write
// constant memory, so filling it once per loaded module holds for each of its launches.
void MeasureSession::upload_constants(CUmodule module, const std::string& what)
{
    ProblemData& p = *problem_;
    for (std::size_t i = 0; i < p.arguments.size(); ++i) {
        const ArgumentValue& a = p.arguments[i];
        if (!a.constant)
            continue;
        CUdeviceptr symbol = 0;
        std::size_t bytes = 0;
        if (driver_.cuModuleGetGlobal(&symbol, &bytes, module, a.name.c_str()) != CUDA_SUCCESS)
            throw std::invalid_argument(fmt::format("argument {} is constant memory, but the kernel's module has no "
                                                    "__constant__ variable '{}'", a.name, a.name));
        if (bytes < p.host[i].bytes.size())
            throw std::invalid_argument(fmt::format("__constant__ {} holds {} bytes; argument {} has {}", a.name, bytes,
                                                    a.name, p.host[i].bytes.size()));
        AUTOTUNE_CHECK(driver_, cuMemcpyHtoD(symbol, p.host[i].bytes.data(), p.host[i].bytes.size()),
                       what + ": filling __constant__ " + a.name);
    }
}

void MeasureSession::reset_outputs(const std::string& what)
{
    ProblemData& p = *problem_;
    for (std::size_t i = 0; i < p.arguments.size(); ++i) {
        const ArgumentValue& a = p.arguments[i];
        if (a.kind != ArgumentKind::buffer || a.access == BufferAccess::input)
            continue;
        if (a.access == BufferAccess::input_output) {
            AUTOTUNE_CHECK(driver_, cuMemcpyHtoD(p.device[i].pointer, p.host[i].bytes.data(), p.device[i].bytes),
                           what + ": restoring " + a.name);
        } else if (is_four_byte(a.type)) {
            std::uint32_t pattern = 0;
            fill_poison(a.type, std::span(reinterpret_cast<std::byte*>(&pattern), sizeof pattern));
            AUTOTUNE_CHECK(driver_, cuMemsetD32Async(p.device[i].pointer, pattern, p.device[i].bytes / 4, stream_),
                           what + ": poisoning " + a.name);
        } else {
            std::vector<std::byte> poison(p.device[i].bytes);
            fill_poison(a.type, poison);
            AUTOTUNE_CHECK(driver_, cuMemcpyHtoD(p.device[i].pointer, poison.data(), poison.size()),
                           what + ": poisoning " + a.name);
        }
    }
}

void MeasureSession::launch(CUfunction function, const MeasureJob& job, void** parameters, const std::string& what)
{
    launch(function, job.grid, job.block, job.dynamic_shared_bytes, parameters, what);
}

void MeasureSession::launch(CUfunction function, const Dim3& grid, const Dim3& block, std::int64_t dynamic_shared_bytes,
                            void** parameters, const std::string& what)
{
    AUTOTUNE_CHECK(driver_,
                   cuLaunchKernel(function, static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
                                  static_cast<unsigned>(grid.z), static_cast<unsigned>(block.x),
                                  static_cast<unsigned>(block.y), static_cast<unsigned>(block.z),
                                  static_cast<unsigned>(dynamic_shared_bytes), stream_, parameters, nullptr),
                   what);
}

double MeasureSession::probe_clock_mhz()
{
    CUdeviceptr out = probe_output_.pointer;
    unsigned long long spin = probe_spin_ns;
    void* parameters[] = {&out, &spin};
    AUTOTUNE_CHECK(driver_, cuLaunchKernel(probe_, 1, 1, 1, 1, 1, 1, 0, stream_, parameters, nullptr), "clock probe");
    AUTOTUNE_CHECK(driver_, cuStreamSynchronize(stream_), "clock probe");
    unsigned long long counters[2] = {};
    AUTOTUNE_CHECK(driver_, cuMemcpyDtoH(counters, out, sizeof counters), "clock probe");
    return counters[1] == 0 ? 0.0 : 1e3 * static_cast<double>(counters[0]) / static_cast<double>(counters[1]);
}

MeasureReply MeasureSession::measure(const MeasureJob& job)
{
    MeasureReply reply;
    CUmodule module = nullptr;
    const std::string what = fmt::format("variant {} ({})", job.variant, job.label);
    try {
        AUTOTUNE_CHECK(driver_, cuCtxSetCurrent(context_), what);
        prepare_problem(job);
        ProblemData& p = *problem_;

        // Load, with the JIT's error log: a cubin the driver rejects says why.
        const std::string cubin = read_binary(job.cubin_path);
        char error_log[8192] = {};
        CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* values[] = {error_log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof error_log))};
        if (const CUresult r = driver_.cuModuleLoadDataEx(&module, cubin.data(), 2, options, values); r != CUDA_SUCCESS) {
            reply.status = "launch_error";
            reply.error = fmt::format("loading the cubin: {} {}", driver_.error_text(r), error_log);
            return reply;
        }
        CUfunction function = nullptr;
        AUTOTUNE_CHECK(driver_, cuModuleGetFunction(&function, module, job.function.c_str()), what);
        upload_constants(module, what);

        DriverAttributes attributes;
        auto attribute = [&](CUfunction_attribute which) {
            int value = 0;
            AUTOTUNE_CHECK(driver_, cuFuncGetAttribute(&value, which, function), what);
            return value;
        };
        attributes.registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
        attributes.local_bytes = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
        attributes.max_threads_per_block = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        attributes.shared_static = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
        attributes.constant_bytes = attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
        if (job.dynamic_shared_bytes > 48 * 1024) // above the default, the kernel must opt in
            AUTOTUNE_CHECK(driver_,
                           cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              static_cast<int>(job.dynamic_shared_bytes)),
                           what + ": raising the dynamic shared memory limit");
        AUTOTUNE_CHECK(driver_,
                       cuOccupancyMaxActiveBlocksPerMultiprocessor(&attributes.blocks_per_sm, function,
                                                                   static_cast<int>(job.block.volume()),
                                                                   static_cast<std::size_t>(job.dynamic_shared_bytes)),
                       what);
        reply.driver = attributes;

        // Verification: outputs poisoned, in-out buffers restored, one launch, compare.
        reset_outputs(what);
        try {
            launch(function, job, p.parameters.data(), what + ": launch");
        } catch (const DriverError& e) {
            if (e.is_sticky())
                throw;
            reply.status = "launch_error";
            reply.error = e.what();
            driver_.cuModuleUnload(module);
            return reply;
        }
        AUTOTUNE_CHECK(driver_, cuStreamSynchronize(stream_), what + ": verification run");

        Measurement m;
        m.verified = true;
        for (std::size_t i = 0; i < p.arguments.size(); ++i) {
            if (!is_output(p.arguments[i]))
                continue;
            std::vector<std::byte> output(p.device[i].bytes);
            AUTOTUNE_CHECK(driver_, cuMemcpyDtoH(output.data(), p.device[i].pointer, output.size()),
                           what + ": reading " + p.arguments[i].name);
            const auto reference = p.references.find(i);
            const VerificationResult check =
                verify_output(p.arguments[i].type, output,
                              reference == p.references.end() ? ReferenceValues{} : reference->second, job.tolerance);
            m.verified_elements += check.checked;
            m.verification_error = std::max(m.verification_error, check.error);
            if (!check.ok) {
                reply.status = "wrong_result";
                reply.error = fmt::format("{}: {}", p.arguments[i].name, check.problem);
                driver_.cuModuleUnload(module);
                return reply;
            }
        }

        // Timing. Warm-up first (module load, first-touch costs), then samples until the
        // stopping rule is satisfied. Each sample: flush L2 by writing a buffer twice its
        // size, event, launch, event, clock probe. The flush also keeps the GPU busy while
        // the launch is queued, so launch latency stays outside the events.
        for (int warm = 0; warm < 2; ++warm)
            launch(function, job, p.parameters.data(), what + ": warm-up");
        AUTOTUNE_CHECK(driver_, cuStreamSynchronize(stream_), what + ": warm-up");
        std::vector<double> times, clocks;
        const auto started = std::chrono::steady_clock::now();
        StopDecision decision = StopDecision::keep_going;
        while (decision == StopDecision::keep_going) {
            AUTOTUNE_CHECK(driver_, cuMemsetD32Async(flush_.pointer, ++flush_value_, flush_.bytes / 4, stream_),
                           what + ": L2 flush");
            AUTOTUNE_CHECK(driver_, cuEventRecord(start_, stream_), what);
            launch(function, job, p.parameters.data(), what + ": timed launch");
            AUTOTUNE_CHECK(driver_, cuEventRecord(stop_, stream_), what);
            const double clock = probe_clock_mhz();
            float milliseconds = 0;
            AUTOTUNE_CHECK(driver_, cuEventElapsedTime(&milliseconds, start_, stop_), what);
            times.push_back(milliseconds * 1e-3);
            clocks.push_back(clock);
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            decision = should_stop(job.timing, times, elapsed);
        }
        const std::vector<bool> throttled = throttled_samples(clocks);
        std::vector<double> kept_times, kept_clocks;
        for (std::size_t i = 0; i < times.size(); ++i)
            if (!throttled[i]) {
                kept_times.push_back(times[i]);
                kept_clocks.push_back(clocks[i]);
            }
        if (kept_times.empty()) { // every sample at the same low clock: keep them, the clock says so
            kept_times = times;
            kept_clocks = clocks;
        }
        m.throttled_discarded = times.size() - kept_times.size();
        m.time = summarize_samples(kept_times);
        m.converged = decision == StopDecision::converged;
        m.sm_clock_mhz = summarize_samples(kept_clocks).median;
        reply.measurement = m;
        driver_.cuModuleUnload(module);
        return reply;
    } catch (const ReferenceKernelError& e) {
        // Nothing of the variant ran; the problem's buffers are rebuilt by the next job.
        reply.status = e.status();
        reply.error = e.what();
        reply.reference_failed = true;
        if (e.status() != "fault")
            for (auto& buffer : problem_->device)
                release(buffer);
        problem_.reset();
    } catch (const DriverError& e) {
        reply.status = e.is_sticky() ? "fault" : "launch_error";
        reply.error = e.what();
    } catch (const std::exception& e) {
        reply.status = "launch_error";
        reply.error = fmt::format("{}: {}", what, e.what());
    }
    if (module && reply.status != "fault")
        driver_.cuModuleUnload(module);
    return reply;
}

} // namespace autotune
