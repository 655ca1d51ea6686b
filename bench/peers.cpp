// bench/peers: the performance peers of the built-in kernels (issue 7), measured on the
// present GPU with the tuner's own timing discipline, so that a tuned winner can be shown
// as a ratio to them (emit/peer_ratio.hpp):
//   gemm       cublasSgemm, fp32, no TF32       4096³ (gemm.toml's problem) and square 1024…8192
//   gemm_bf16  cublasGemmEx bf16 in, fp32        4096³ (gemm_bf16.toml's) and M = 1, 16, 64, 256
//              accumulate and output             with N = K = 4096; the spec's layout
//              C[m][n] = Σ_k A[m][k]·B[n][k], all row-major (B stored N×K)
//   copy       cuMemcpyDtoD of copy.toml's N ints (the same 8·N bytes moved)
//   triad      cuMemcpyDtoD of 6·N bytes, so that it moves triad.toml's 12·N bytes
// Each sample: the L2 flushed by a memset of twice its size, a CUDA event, the call, an
// event; samples until the tuner's stopping rule (measure/sample_statistics.hpp) is met.
// Everything runs on the legacy default stream of the device's primary context — the
// context cuBLAS (through the runtime) uses too, and the stream cuMemcpyDtoD runs on.
// Writes OUT/<arch>/peers.json (OUT: --out, default the project's results/). Without a
// GPU it says so in one line, writes nothing and exits 0.
//   peers [--out DIR] [--device N]
#include "measure/cuda_driver.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/sample_statistics.hpp"
#include "spec/load_spec.hpp"
#include "util/atomic_file.hpp"
#include "util/project_paths.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <cublas_v2.h>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using json = nlohmann::ordered_json;
using namespace autotune;

namespace {

void check_cublas(cublasStatus_t status, const std::string& what)
{
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(fmt::format("{}: {} ({})", what, cublasGetStatusName(status), cublasGetStatusString(status)));
}

std::int64_t problem_value(const KernelSpec& spec, const std::string& name)
{
    for (const auto& v : spec.problem)
        if (v.name == name)
            return v.default_value;
    throw std::runtime_error(fmt::format("the {} spec has no problem variable {}", spec.name, name));
}

// Random values in [-1, 1) from a small seeded generator: inputs are never zeros (a
// tensor core on zeros draws less power and clocks higher than on real data).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed)
{
    std::vector<float> out(n);
    std::uint64_t state = seed;
    for (auto& x : out) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        x = static_cast<float>(static_cast<double>(state >> 40) * 0x1.0p-23 - 1.0);
    }
    return out;
}

std::vector<std::uint16_t> to_bf16(const std::vector<float>& values)
{
    std::vector<std::uint16_t> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &values[i], sizeof bits);
        out[i] = static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16); // round to nearest even
    }
    return out;
}

class DeviceBuffer {
public:
    DeviceBuffer(const CudaDriver& driver, std::size_t bytes, const std::string& what) : driver_(driver), bytes_(bytes)
    {
        AUTOTUNE_CHECK(driver_, cuMemAlloc(&pointer_, bytes), fmt::format("allocating {} ({} bytes)", what, bytes));
    }
    ~DeviceBuffer() { driver_.cuMemFree(pointer_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    [[nodiscard]] CUdeviceptr get() const { return pointer_; }
    [[nodiscard]] std::size_t bytes() const { return bytes_; }
    template <typename T>
    void upload(const std::vector<T>& host, const std::string& what)
    {
        AUTOTUNE_CHECK(driver_, cuMemcpyHtoD(pointer_, host.data(), host.size() * sizeof(T)), what);
    }
    void fill(std::uint32_t value, const std::string& what)
    {
        AUTOTUNE_CHECK(driver_, cuMemsetD32Async(pointer_, value, bytes_ / 4, nullptr), what);
    }

private:
    const CudaDriver& driver_;
    CUdeviceptr pointer_ = 0;
    std::size_t bytes_ = 0;
};

// The timing loop of MeasureSession::measure, for a call that is not a kernel of ours.
class PeerTimer {
public:
    PeerTimer(const CudaDriver& driver, const GpuDevice& device)
        : driver_(driver),
          flush_(driver, std::max<std::size_t>(2 * static_cast<std::size_t>(device.l2_bytes), 32u << 20), "the L2 flush buffer")
    {
        AUTOTUNE_CHECK(driver_, cuEventCreate(&start_, CU_EVENT_DEFAULT), "creating events");
        AUTOTUNE_CHECK(driver_, cuEventCreate(&stop_, CU_EVENT_DEFAULT), "creating events");
    }
    ~PeerTimer()
    {
        driver_.cuEventDestroy(start_);
        driver_.cuEventDestroy(stop_);
    }
    PeerTimer(const PeerTimer&) = delete;
    PeerTimer& operator=(const PeerTimer&) = delete;

    [[nodiscard]] std::size_t flush_bytes() const { return flush_.bytes(); }

    struct Timing {
        SampleSummary time;
        bool converged = false;
    };

    // Warm-up twice, then: flush, event, call, event — until the stopping rule holds.
    Timing time(const std::function<void()>& call, const std::string& what)
    {
        for (int warm = 0; warm < 2; ++warm)
            call();
        AUTOTUNE_CHECK(driver_, cuCtxSynchronize(), what + ": warm-up");
        const StoppingRule rule;
        std::vector<double> samples;
        const auto started = std::chrono::steady_clock::now();
        StopDecision decision = StopDecision::keep_going;
        while (decision == StopDecision::keep_going) {
            AUTOTUNE_CHECK(driver_, cuMemsetD32Async(flush_.get(), ++flush_value_, flush_.bytes() / 4, nullptr),
                           what + ": L2 flush");
            AUTOTUNE_CHECK(driver_, cuEventRecord(start_, nullptr), what);
            call();
            AUTOTUNE_CHECK(driver_, cuEventRecord(stop_, nullptr), what);
            AUTOTUNE_CHECK(driver_, cuEventSynchronize(stop_), what);
            float milliseconds = 0;
            AUTOTUNE_CHECK(driver_, cuEventElapsedTime(&milliseconds, start_, stop_), what);
            samples.push_back(milliseconds * 1e-3);
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            decision = should_stop(rule, samples, elapsed);
        }
        return {summarize_samples(samples), decision == StopDecision::converged};
    }

private:
    const CudaDriver& driver_;
    DeviceBuffer flush_;
    CUevent start_ = nullptr;
    CUevent stop_ = nullptr;
    std::uint32_t flush_value_ = 0;
};

json entry(const std::string& kernel, json problem, const std::string& peer, const std::string& call,
           const PeerTimer::Timing& t)
{
    return json{{"kernel", kernel},
                {"problem", std::move(problem)},
                {"peer", peer},
                {"call", call},
                {"median_seconds", t.time.median},
                {"samples", t.time.count},
                {"min_seconds", t.time.min},
                {"relative_spread", t.time.relative_spread},
                {"median_noise", t.time.median_noise},
                {"converged", t.converged}};
}

std::string utc_now()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

struct Options {
    std::filesystem::path out = project_root() / "results";
    int device = 0;
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--out" || a == "--device") && i + 1 < argc) {
            if (a == "--out")
                o.out = argv[++i];
            else
                o.device = std::stoi(argv[++i]);
        } else if (a == "--help" || a == "-h") {
            std::cout << "usage: peers [--out DIR] [--device N]\n"
                         "Times cuBLAS SGEMM, cuBLAS bf16 GEMM and cuMemcpyDtoD on the built-in kernels' problems;\n"
                         "writes DIR/<arch>/peers.json (DIR: default the project's results/).\n";
            std::exit(0);
        } else {
            std::cerr << "peers: unknown argument '" << a << "' (usage: peers [--out DIR] [--device N])\n";
            std::exit(2);
        }
    }
    return o;
}

json sgemm_peers(const CudaDriver& driver, cublasHandle_t handle, PeerTimer& timer, const KernelSpec& spec)
{
    // gemm.toml: C = A·B, all row-major, A M×K, B K×N. Column-major cuBLAS computes the
    // transpose: Cᵀ (N×M) = Bᵀ (N×K) · Aᵀ (K×M), no transposition flags, ld = N, K, N.
    struct Shape {
        int m, n, k;
    };
    const Shape tuned{static_cast<int>(problem_value(spec, "M")), static_cast<int>(problem_value(spec, "N")),
                      static_cast<int>(problem_value(spec, "K"))};
    std::vector<Shape> shapes{tuned};
    for (const int s : {1024, 2048, 4096, 8192})
        if (!(tuned.m == s && tuned.n == s && tuned.k == s))
            shapes.push_back({s, s, s});
    json out = json::array();
    check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode"); // fp32 FMA, no TF32
    for (const Shape& shape : shapes) {
        const int m = shape.m, n = shape.n, k = shape.k;
        DeviceBuffer a(driver, std::size_t(m) * k * 4, "A"), b(driver, std::size_t(k) * n * 4, "B"),
            c(driver, std::size_t(m) * n * 4, "C");
        a.upload(random_floats(std::size_t(m) * k, 1), "uploading A");
        b.upload(random_floats(std::size_t(k) * n, 2), "uploading B");
        const float alpha = 1, beta = 0;
        const std::string what = fmt::format("cublasSgemm M={},N={},K={}", m, n, k);
        const auto t = timer.time(
            [&] {
                check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                                         reinterpret_cast<const float*>(b.get()), n,
                                         reinterpret_cast<const float*>(a.get()), k, &beta,
                                         reinterpret_cast<float*>(c.get()), n),
                             what);
            },
            what);
        // The problem as gemm.toml names it: both operands row-major (layout 1).
        json e = entry("gemm", {{"M", m}, {"N", n}, {"K", k}, {"A_LAYOUT", 1}, {"B_LAYOUT", 1}}, "cublasSgemm",
                       "cublasSgemm(N, N, n, m, k) on row-major A·B, CUBLAS_DEFAULT_MATH (no TF32)", t);
        e["gflops"] = 2.0 * m * n * k / t.time.median * 1e-9;
        out.push_back(std::move(e));
        std::cerr << fmt::format("peers: {}: {:.1f} us, {:.0f} GFLOP/s\n", what, t.time.median * 1e6,
                                 out.back().at("gflops").get<double>());
    }
    return out;
}

json bf16_peers(const CudaDriver& driver, cublasHandle_t handle, PeerTimer& timer, const KernelSpec& spec)
{
    // gemm_bf16.toml: C[m][n] = Σ_k A[m][k]·B[n][k]; A M×K, B N×K bf16, C M×N fp32, all
    // row-major. Column-major: Cᵀ (N×M, ld N) = op(B)ᵀ · A, where B read column-major is
    // K×N (ld K) and transposed, A read column-major is K×M (ld K): the "TN" GEMM.
    const int n = static_cast<int>(problem_value(spec, "N")), k = static_cast<int>(problem_value(spec, "K"));
    std::vector<int> ms{static_cast<int>(problem_value(spec, "M"))};
    for (const int m : {1, 16, 64, 256})
        if (m != ms.front())
            ms.push_back(m);
    int largest = 0;
    for (const int m : ms)
        largest = std::max(largest, m);
    DeviceBuffer a(driver, std::size_t(largest) * k * 2, "A"), b(driver, std::size_t(n) * k * 2, "B"),
        c(driver, std::size_t(largest) * n * 4, "C");
    a.upload(to_bf16(random_floats(std::size_t(largest) * k, 3)), "uploading A");
    b.upload(to_bf16(random_floats(std::size_t(n) * k, 4)), "uploading B");
    json out = json::array();
    for (const int m : ms) {
        const float alpha = 1, beta = 0;
        const std::string what = fmt::format("cublasGemmEx bf16 M={},N={},K={}", m, n, k);
        const auto t = timer.time(
            [&] {
                check_cublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha,
                                          reinterpret_cast<const void*>(b.get()), CUDA_R_16BF, k,
                                          reinterpret_cast<const void*>(a.get()), CUDA_R_16BF, k, &beta,
                                          reinterpret_cast<void*>(c.get()), CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT),
                             what);
            },
            what);
        json e = entry("gemm_bf16", {{"M", m}, {"N", n}, {"K", k}}, "cublasGemmEx",
                       "cublasGemmEx(T, N, n, m, k) bf16 A and B (B stored N×K), fp32 C, CUBLAS_COMPUTE_32F", t);
        e["gflops"] = 2.0 * m * n * k / t.time.median * 1e-9;
        out.push_back(std::move(e));
        std::cerr << fmt::format("peers: {}: {:.1f} us, {:.0f} GFLOP/s\n", what, t.time.median * 1e6,
                                 out.back().at("gflops").get<double>());
    }
    return out;
}

json memcpy_peer(const CudaDriver& driver, PeerTimer& timer, const std::string& kernel, std::int64_t n,
                 std::size_t copy_bytes, const std::string& note)
{
    DeviceBuffer source(driver, copy_bytes, "the copy source"), destination(driver, copy_bytes, "the copy destination");
    source.fill(0x3F9E3779u, "filling the copy source"); // not zeros
    destination.fill(0, "clearing the copy destination");
    const std::string what = fmt::format("cuMemcpyDtoD {} bytes ({} N={})", copy_bytes, kernel, n);
    const auto t = timer.time(
        [&] { AUTOTUNE_CHECK(driver, cuMemcpyDtoD(destination.get(), source.get(), copy_bytes), what); }, what);
    json e = entry(kernel, {{"N", n}}, "cuMemcpyDtoD", fmt::format("cuMemcpyDtoD of {} bytes; {}", copy_bytes, note), t);
    e["bytes_moved"] = 2 * copy_bytes;
    e["gbps"] = 2.0 * static_cast<double>(copy_bytes) / t.time.median * 1e-9;
    std::cerr << fmt::format("peers: {}: {:.1f} us, {:.0f} GB/s\n", what, t.time.median * 1e6, e.at("gbps").get<double>());
    return e;
}

} // namespace

int main(int argc, char** argv)
{
    const Options options = parse(argc, argv);
    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    std::vector<GpuDevice> gpus;
    if (driver) {
        try {
            gpus = list_gpus(*driver);
        } catch (const std::exception& e) {
            why_not = e.what();
        }
        if (gpus.empty() && why_not.empty())
            why_not = "the driver sees no device";
    }
    if (!driver || gpus.empty()) {
        std::cout << "peers: no GPU available (" << why_not << "); nothing measured, nothing written\n";
        return 0;
    }
    if (options.device < 0 || options.device >= static_cast<int>(gpus.size())) {
        std::cerr << fmt::format("peers: --device {}: there are {} devices\n", options.device, gpus.size());
        return 2;
    }
    const GpuDevice& gpu = gpus[static_cast<std::size_t>(options.device)];
    const std::string arch = fmt::format("sm_{}", gpu.compute_capability);
    CUdevice device = 0;
    CUcontext context = nullptr;
    cublasHandle_t handle = nullptr;
    try {
        // The primary context, current on this thread before cuBLAS starts: the runtime
        // inside cuBLAS then uses it rather than creating its own.
        AUTOTUNE_CHECK(*driver, cuDeviceGet(&device, gpu.ordinal), "the device");
        AUTOTUNE_CHECK(*driver, cuDevicePrimaryCtxRetain(&context, device), "retaining the primary context");
        AUTOTUNE_CHECK(*driver, cuCtxSetCurrent(context), "making the context current");
        check_cublas(cublasCreate(&handle), "cublasCreate");
        check_cublas(cublasSetStream(handle, nullptr), "cublasSetStream");
        int cublas_version = 0;
        check_cublas(cublasGetVersion(handle, &cublas_version), "cublasGetVersion");

        const auto kernels = builtin_kernels_dir();
        const KernelSpec gemm = load_spec(kernels / "gemm.toml");
        const KernelSpec gemm_bf16 = load_spec(kernels / "gemm_bf16.toml");
        const KernelSpec copy = load_spec(kernels / "copy.toml");
        const KernelSpec triad = load_spec(kernels / "triad.toml");

        json peers = json::array();
        {
            PeerTimer timer(*driver, gpu);
            for (auto& e : sgemm_peers(*driver, handle, timer, gemm))
                peers.push_back(std::move(e));
            if (gpu.compute_capability >= 80)
                for (auto& e : bf16_peers(*driver, handle, timer, gemm_bf16))
                    peers.push_back(std::move(e));
            const std::int64_t copy_n = problem_value(copy, "N"), triad_n = problem_value(triad, "N");
            peers.push_back(memcpy_peer(*driver, timer, "copy", copy_n, static_cast<std::size_t>(copy_n) * 4,
                                        "copy moves 8·N bytes (N ints read, N written), the same"));
            peers.push_back(memcpy_peer(*driver, timer, "triad", triad_n, static_cast<std::size_t>(triad_n) * 6,
                                        "triad moves 12·N bytes (b, c read, a written); a copy of 6·N bytes moves as many"));
            json document{{"generated_by", "bench/peers"},
                          {"date", utc_now()},
                          {"device",
                           {{"name", gpu.name},
                            {"arch", arch},
                            {"pci_bus_id", gpu.pci_bus_id},
                            {"sms", gpu.sms},
                            {"clock_mhz", gpu.clock_mhz},
                            {"memory_bytes", gpu.memory_bytes},
                            {"l2_bytes", gpu.l2_bytes}}},
                          {"driver_version", driver->version()},
                          {"cublas_version", cublas_version},
                          {"timing",
                           {{"l2_flush_bytes", timer.flush_bytes()},
                            {"stream", "legacy default stream of the primary context"},
                            {"rule", "tuner's StoppingRule defaults (measure/sample_statistics.hpp)"},
                            {"clock_probe", false}}},
                          {"peers", std::move(peers)}};
            const auto path = options.out / arch / "peers.json";
            write_file_atomically(path, document.dump(2) + "\n");
            std::cout << fmt::format("peers: {} peers of {} ({}) measured; written to {}\n",
                                     document.at("peers").size(), gpu.name, arch, path.string());
        }
        cublasDestroy(handle);
        driver->cuDevicePrimaryCtxRelease(device);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "peers: " << e.what() << "\n";
        if (handle != nullptr)
            cublasDestroy(handle);
        if (context != nullptr)
            driver->cuDevicePrimaryCtxRelease(device);
        return 1;
    }
}
