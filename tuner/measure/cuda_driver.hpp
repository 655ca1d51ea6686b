// The CUDA driver API, loaded at run time: dlopen("libcuda.so.1") and every entry point
// through cuGetProcAddress. Never linked, so autotune starts on machines without a
// driver; only the measure stage loads it. cuda.h supplies the types only.
#pragma once

#include <cuda.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace autotune {

// A failed driver call: the message names the call, the error (cuGetErrorName and its
// text) and what it was doing ("gemm<64,64,...>: launch").
class DriverError : public std::runtime_error {
public:
    DriverError(CUresult code, const std::string& message) : std::runtime_error(message), code_(code) {}
    [[nodiscard]] CUresult code() const { return code_; }
    // Errors after which the context is unusable (a kernel faulted): the process must end.
    [[nodiscard]] bool is_sticky() const;

private:
    CUresult code_;
};

// The entry points the tuner uses; the names are cuda.h's, so calls read as usual
// (driver.cuMemAlloc(...)), and each has cuda.h's own signature.
#define AUTOTUNE_DRIVER_ENTRY_POINTS(X)                                                                               \
    X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)     \
    X(cuDeviceTotalMem) X(cuDeviceGetPCIBusId) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)               \
    X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal)             \
    X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuMemAlloc)          \
    X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD) X(cuMemsetD8Async) X(cuMemsetD32Async)                \
    X(cuLaunchKernel) X(cuStreamCreate) X(cuStreamSynchronize) X(cuStreamDestroy) X(cuEventCreate) X(cuEventRecord)   \
    X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy) X(cuGetErrorName) X(cuGetErrorString)

class CudaDriver {
public:
    // The loaded, initialised driver, or nullptr with `why_not` saying in one line why
    // (no libcuda.so.1, an entry point missing, cuInit failing — e.g. no device).
    [[nodiscard]] static std::unique_ptr<CudaDriver> load(std::string& why_not);
    ~CudaDriver();
    CudaDriver(const CudaDriver&) = delete;
    CudaDriver& operator=(const CudaDriver&) = delete;

    // Throws DriverError for anything but CUDA_SUCCESS; `call` names the entry point and
    // `context` what it was for.
    void check(CUresult result, const char* call, const std::string& context = {}) const;
    [[nodiscard]] std::string error_text(CUresult result) const; // "CUDA_ERROR_X (description)"
    [[nodiscard]] int version() const { return version_; }        // e.g. 13000

#define AUTOTUNE_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
    AUTOTUNE_DRIVER_ENTRY_POINTS(AUTOTUNE_DRIVER_MEMBER)
#undef AUTOTUNE_DRIVER_MEMBER

private:
    CudaDriver() = default;
    void* library_ = nullptr;
    int version_ = 0;
};

// Checks a driver call and names it: AUTOTUNE_CHECK(driver, cuMemAlloc(&p, n), "inputs").
#define AUTOTUNE_CHECK(driver, call, context) (driver).check((driver).call, #call, context)

} // namespace autotune
