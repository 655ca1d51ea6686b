// The worker side of measuring: one CUDA context on one device, the problem's buffers
// (inputs generated once, outputs poisoned before each verification launch), and the
// timing loop — L2 flushed before every sample, CUDA events around the launch, the SM
// clock read by a probe kernel after it, samples until the median is known well enough.
// Runs inside `autotune measure-worker`, never in the tuner's own process.
#pragma once

#include "compile/nvrtc_library.hpp"
#include "measure/cpu_reference.hpp"
#include "measure/cuda_driver.hpp"
#include "measure/measure_job.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace autotune {

class MeasureSession {
public:
    // Retains the device's primary context; throws DriverError naming what failed. The
    // clock probe is compiled by `nvrtc`, the run's: the linked one may not build for the
    // device (CUDA 13 builds nothing below sm_75).
    MeasureSession(const CudaDriver& driver, int device_ordinal, const NvrtcLibrary& nvrtc);
    ~MeasureSession();
    MeasureSession(const MeasureSession&) = delete;
    MeasureSession& operator=(const MeasureSession&) = delete;

    // Verifies and times one variant. Launch failures, wrong results and faults are
    // answers, not exceptions; after a "fault" the context is unusable and the worker
    // must exit (the supervisor starts a new one).
    [[nodiscard]] MeasureReply measure(const MeasureJob& job);

private:
    struct DeviceBuffer {
        CUdeviceptr pointer = 0;
        std::size_t bytes = 0;
    };
    struct ProblemData; // host and device buffers of one problem, with their references

    void prepare_problem(const MeasureJob& job);
    // The reference kernel's outputs, launched on the problem's inputs, as its references;
    // throws ReferenceKernelError when it cannot serve.
    void run_reference_kernel(const ReferenceKernel& kernel);
    // Outputs poisoned and input_output buffers restored: what every checked launch starts from.
    void reset_outputs(const std::string& what);
    void upload_constants(CUmodule module, const std::string& what);
    void launch(CUfunction function, const MeasureJob& job, void** parameters, const std::string& what);
    void launch(CUfunction function, const Dim3& grid, const Dim3& block, std::int64_t dynamic_shared_bytes,
                void** parameters, const std::string& what);
    [[nodiscard]] double probe_clock_mhz();
    [[nodiscard]] DeviceBuffer allocate(std::size_t bytes, const std::string& what);
    void release(DeviceBuffer& buffer);

    const CudaDriver& driver_;
    int ordinal_ = 0;
    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
    CUstream stream_ = nullptr;
    CUevent start_ = nullptr;
    CUevent stop_ = nullptr;
    DeviceBuffer flush_;        // written before every sample: at least twice the L2
    DeviceBuffer probe_output_; // the clock probe's two counters
    CUmodule probe_module_ = nullptr;
    CUfunction probe_ = nullptr;
    unsigned flush_value_ = 0;
    std::unique_ptr<ProblemData> problem_;
};

} // namespace autotune
