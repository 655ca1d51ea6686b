#include "measure/ceilings_probe.hpp"

#include "compile/nvrtc_compiler.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/sample_statistics.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>

namespace autotune {
namespace {

// Eight independent FMA chains per thread keep the pipes full without memory traffic;
// the result is stored only so the compiler cannot drop the work. The clock is read in
// the same kernel: cycles over %globaltimer nanoseconds of one thread's run.
const char* const fma_source = R"(
extern "C" __global__ void autotune_fma_peak(float* out, int iterations, unsigned long long* clock_out)
{
    float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
    const float b = 0.999f, c = 0.001f;
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            a0 = fmaf(a0, b, c); a1 = fmaf(a1, b, c); a2 = fmaf(a2, b, c); a3 = fmaf(a3, b, c);
            a4 = fmaf(a4, b, c); a5 = fmaf(a5, b, c); a6 = fmaf(a6, b, c); a7 = fmaf(a7, b, c);
        }
    }
    const long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    const float sum = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (sum == 42.0f)
        out[0] = sum;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        clock_out[0] = static_cast<unsigned long long>(c1 - c0);
        clock_out[1] = t1 - t0;
    }
}
)";
constexpr int fma_per_iteration = 8 * 16;

std::string today()
{
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

} // namespace

MeasuredCeilings measure_ceilings(const CudaDriver& driver, int ordinal, const NvrtcLibrary& nvrtc)
{
    const auto gpus = list_gpus(driver);
    if (ordinal < 0 || ordinal >= static_cast<int>(gpus.size()))
        throw std::invalid_argument(fmt::format("--device {}: this machine has {} GPUs", ordinal, gpus.size()));
    const GpuDevice& gpu = gpus[static_cast<std::size_t>(ordinal)];
    CUdevice device = 0;
    CUcontext context = nullptr;
    AUTOTUNE_CHECK(driver, cuDeviceGet(&device, ordinal), "roofline");
    AUTOTUNE_CHECK(driver, cuDevicePrimaryCtxRetain(&context, device), "roofline");
    AUTOTUNE_CHECK(driver, cuCtxSetCurrent(context), "roofline");
    CUstream stream = nullptr;
    CUevent start = nullptr, stop = nullptr;
    AUTOTUNE_CHECK(driver, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "roofline");
    AUTOTUNE_CHECK(driver, cuEventCreate(&start, CU_EVENT_DEFAULT), "roofline");
    AUTOTUNE_CHECK(driver, cuEventCreate(&stop, CU_EVENT_DEFAULT), "roofline");
    auto time_once = [&](auto&& work) {
        AUTOTUNE_CHECK(driver, cuEventRecord(start, stream), "roofline");
        work();
        AUTOTUNE_CHECK(driver, cuEventRecord(stop, stream), "roofline");
        AUTOTUNE_CHECK(driver, cuEventSynchronize(stop), "roofline");
        float ms = 0;
        AUTOTUNE_CHECK(driver, cuEventElapsedTime(&ms, start, stop), "roofline");
        return ms * 1e-3;
    };

    MeasuredCeilings result;
    result.device = gpu.name;
    result.compute_capability = gpu.compute_capability;
    result.measured_at = today();

    // Bandwidth: the best median over copy sizes well beyond the L2.
    for (const std::size_t bytes : {std::size_t{256} << 20, std::size_t{512} << 20, std::size_t{1} << 30}) {
        CUdeviceptr a = 0, b = 0;
        AUTOTUNE_CHECK(driver, cuMemAlloc(&a, bytes), "roofline: bandwidth buffers");
        AUTOTUNE_CHECK(driver, cuMemAlloc(&b, bytes), "roofline: bandwidth buffers");
        std::vector<double> samples;
        for (int i = 0; i < 22; ++i) {
            const double seconds = time_once([&] {
                AUTOTUNE_CHECK(driver, cuMemcpyDtoD(b, a, bytes), "roofline: device-to-device copy");
            });
            if (i >= 2) // the first copies warm up the memory system
                samples.push_back(seconds);
        }
        driver.cuMemFree(a);
        driver.cuMemFree(b);
        result.bandwidth_gbs = std::max(result.bandwidth_gbs, 2.0 * bytes / summarize_samples(samples).median / 1e9);
    }

    // fp32 FMA rate at the clock the kernel itself reads.
    CompileRequest request;
    request.source = fma_source;
    request.name_expression = "autotune_fma_peak";
    request.arch = ArchTarget{gpu.compute_capability / 10, gpu.compute_capability % 10, ""};
    const CompileOutput compiled = compile_with_nvrtc(request, nvrtc);
    if (!compiled.ok)
        throw std::runtime_error("roofline: cannot compile the FMA kernel: " + compiled.error);
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    AUTOTUNE_CHECK(driver, cuModuleLoadDataEx(&module, compiled.cubin.data(), 0, nullptr, nullptr), "roofline");
    AUTOTUNE_CHECK(driver, cuModuleGetFunction(&function, module, compiled.lowered_name.c_str()), "roofline");
    CUdeviceptr out = 0, clocks = 0;
    AUTOTUNE_CHECK(driver, cuMemAlloc(&out, sizeof(float)), "roofline");
    AUTOTUNE_CHECK(driver, cuMemAlloc(&clocks, 2 * sizeof(unsigned long long)), "roofline");
    int iterations = 4096;
    const unsigned threads = 256, blocks = static_cast<unsigned>(gpu.sms) * 8;
    void* parameters[] = {&out, &iterations, &clocks};
    std::vector<double> rates, mhz;
    for (int i = 0; i < 12; ++i) {
        const double seconds = time_once([&] {
            AUTOTUNE_CHECK(driver, cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, stream, parameters, nullptr),
                           "roofline: FMA kernel");
        });
        unsigned long long counters[2] = {};
        AUTOTUNE_CHECK(driver, cuMemcpyDtoH(counters, clocks, sizeof counters), "roofline");
        if (i < 2)
            continue;
        const double flops = 2.0 * fma_per_iteration * iterations * threads * blocks;
        rates.push_back(flops / seconds / 1e9);
        mhz.push_back(counters[1] ? 1e3 * static_cast<double>(counters[0]) / static_cast<double>(counters[1]) : 0);
    }
    result.compute_gflops["fp32"] = *std::max_element(rates.begin(), rates.end());
    result.clock_mhz = summarize_samples(mhz).median;
    driver.cuMemFree(out);
    driver.cuMemFree(clocks);
    driver.cuModuleUnload(module);
    driver.cuEventDestroy(start);
    driver.cuEventDestroy(stop);
    driver.cuStreamDestroy(stream);
    driver.cuDevicePrimaryCtxRelease(device);
    return result;
}

} // namespace autotune
