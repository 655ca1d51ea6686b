#include "measure/cuda_driver.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

namespace autotune {

bool DriverError::is_sticky() const
{
    switch (code_) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
        return true;
    default:
        return false;
    }
}

std::unique_ptr<CudaDriver> CudaDriver::load(std::string& why_not)
{
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* error = dlerror();
        why_not = fmt::format("no CUDA driver ({})", error ? error : "libcuda.so.1 cannot be loaded");
        return nullptr;
    }
    std::unique_ptr<CudaDriver> driver(new CudaDriver);
    driver->library_ = library;

    using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
    auto get_proc_address = reinterpret_cast<GetProcAddress>(dlsym(library, "cuGetProcAddress_v2"));
    if (get_proc_address == nullptr) {
        why_not = "the CUDA driver is too old: it has no cuGetProcAddress_v2 (CUDA 12 or newer is needed)";
        return nullptr;
    }
    bool complete = true;
    // The version asked for is the toolkit's: each pointer then has cuda.h's signature.
#define AUTOTUNE_DRIVER_LOAD(name)                                                                                    \
    if (complete) {                                                                                                   \
        void* entry = nullptr;                                                                                        \
        CUdriverProcAddressQueryResult status{};                                                                      \
        if (get_proc_address(#name, &entry, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS ||    \
            entry == nullptr) {                                                                                       \
            why_not = fmt::format("the CUDA driver lacks {} for CUDA {}.{} (update the driver)", #name,              \
                                  CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);                                     \
            complete = false;                                                                                         \
        } else {                                                                                                      \
            driver->name = reinterpret_cast<decltype(driver->name)>(entry);                                           \
        }                                                                                                             \
    }
    AUTOTUNE_DRIVER_ENTRY_POINTS(AUTOTUNE_DRIVER_LOAD)
#undef AUTOTUNE_DRIVER_LOAD
    if (!complete)
        return nullptr;

    if (const CUresult r = driver->cuInit(0); r != CUDA_SUCCESS) {
        why_not = fmt::format("the CUDA driver does not initialise: {}", driver->error_text(r));
        return nullptr;
    }
    driver->cuDriverGetVersion(&driver->version_);
    return driver;
}

CudaDriver::~CudaDriver()
{
    if (library_ != nullptr)
        dlclose(library_);
}

std::string CudaDriver::error_text(CUresult result) const
{
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr)
        return fmt::format("CUresult {}", static_cast<int>(result));
    if (cuGetErrorString(result, &text) != CUDA_SUCCESS || text == nullptr)
        return name;
    return fmt::format("{} ({})", name, text);
}

void CudaDriver::check(CUresult result, const char* call, const std::string& context) const
{
    if (result == CUDA_SUCCESS)
        return;
    // The call's text up to the argument list: "cuMemAlloc(&p, n)" → "cuMemAlloc".
    std::string name(call);
    name = name.substr(0, name.find('('));
    throw DriverError(result, context.empty() ? fmt::format("{}: {}", name, error_text(result))
                                              : fmt::format("{}: {}: {}", context, name, error_text(result)));
}

} // namespace autotune
