// The entry points autotune's NvrtcLibrary loads, with nvrtc.h's signatures.
#include <cstring>
#include <nvrtc.h>
#include <string>

struct _nvrtcProgram {
    std::string log;
};

namespace {

constexpr const char* compile_log = "fake_nvrtc.cu(1): error: the fake NVRTC 11.2 compiles nothing\n";
constexpr int archs[] = {52, 86, 90};

} // namespace

extern "C" {

const char* nvrtcGetErrorString(nvrtcResult result)
{
    return result == NVRTC_SUCCESS ? "NVRTC_SUCCESS" : "NVRTC_ERROR_COMPILATION (fake)";
}

nvrtcResult nvrtcVersion(int* major, int* minor)
{
    *major = 11;
    *minor = 2;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetNumSupportedArchs(int* count)
{
    *count = static_cast<int>(sizeof archs / sizeof archs[0]);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetSupportedArchs(int* supported)
{
    std::memcpy(supported, archs, sizeof archs);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram* program, const char*, const char*, int, const char* const*,
                               const char* const*)
{
    *program = new _nvrtcProgram;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram* program)
{
    delete *program;
    *program = nullptr;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram, const char* const) { return NVRTC_SUCCESS; }

nvrtcResult nvrtcCompileProgram(nvrtcProgram program, int, const char* const*)
{
    program->log = compile_log;
    return NVRTC_ERROR_COMPILATION;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram program, size_t* size)
{
    *size = program->log.size() + 1;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram program, char* log)
{
    std::memcpy(log, program->log.c_str(), program->log.size() + 1);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetLoweredName(nvrtcProgram, const char* const, const char**) { return NVRTC_ERROR_INVALID_INPUT; }
nvrtcResult nvrtcGetPTXSize(nvrtcProgram, size_t*) { return NVRTC_ERROR_INVALID_INPUT; }
nvrtcResult nvrtcGetPTX(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_INPUT; }
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram, size_t*) { return NVRTC_ERROR_INVALID_INPUT; }
nvrtcResult nvrtcGetCUBIN(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_INPUT; }

} // extern "C"
