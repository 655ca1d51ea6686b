// A stand-in libcuda.so.1 for the CLI tests: a driver that loads and initialises and sees
// no device (a machine whose GPUs are all taken away, or hidden from it). Every entry point
// the tool looks up is found; those this state never reaches answer "not supported".
#include <cstring>

namespace {

constexpr int cuda_success = 0;
constexpr int cuda_error_not_supported = 801;

extern "C" int fake_init(unsigned) { return cuda_success; }
extern "C" int fake_driver_get_version(int* version)
{
    *version = 13000;
    return cuda_success;
}
extern "C" int fake_device_get_count(int* count)
{
    *count = 0;
    return cuda_success;
}
extern "C" int fake_get_error_text(int, const char** text)
{
    *text = "fake driver: not supported";
    return cuda_success;
}
extern "C" int fake_not_supported() { return cuda_error_not_supported; }

} // namespace

extern "C" int cuGetProcAddress_v2(const char* symbol, void** function, int, unsigned long long, int* status)
{
    if (status)
        *status = 0; // CU_GET_PROC_ADDRESS_SUCCESS
    const auto is = [symbol](const char* name) { return std::strcmp(symbol, name) == 0; };
    if (is("cuInit"))
        *function = reinterpret_cast<void*>(&fake_init);
    else if (is("cuDriverGetVersion"))
        *function = reinterpret_cast<void*>(&fake_driver_get_version);
    else if (is("cuDeviceGetCount"))
        *function = reinterpret_cast<void*>(&fake_device_get_count);
    else if (is("cuGetErrorName") || is("cuGetErrorString"))
        *function = reinterpret_cast<void*>(&fake_get_error_text);
    else
        *function = reinterpret_cast<void*>(&fake_not_supported);
    return cuda_success;
}
