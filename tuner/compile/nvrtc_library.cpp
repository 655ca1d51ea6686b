#include "compile/nvrtc_library.hpp"

#include <algorithm>
#include <dlfcn.h>
#include <fmt/format.h>

namespace autotune {
namespace {

std::string version_of(const NvrtcLibrary& nvrtc, decltype(&nvrtcVersion) version)
{
    int major = 0, minor = 0;
    if (version(&major, &minor) != NVRTC_SUCCESS)
        throw NvrtcLibraryError(fmt::format("{}: nvrtcVersion failed",
                                            nvrtc.path.empty() ? "the linked NVRTC" : "--nvrtc " + nvrtc.path.string()));
    return fmt::format("{}.{}", major, minor);
}

std::string build_of(const std::filesystem::path& file)
{
    std::error_code error;
    const auto bytes = std::filesystem::file_size(std::filesystem::canonical(file, error), error);
    return error ? std::string() : fmt::format("{} bytes", bytes);
}

} // namespace

NvrtcLibrary linked_nvrtc()
{
    NvrtcLibrary n;
    n.get_error_string = &nvrtcGetErrorString;
    n.create_program = &nvrtcCreateProgram;
    n.destroy_program = &nvrtcDestroyProgram;
    n.add_name_expression = &nvrtcAddNameExpression;
    n.compile_program = &nvrtcCompileProgram;
    n.get_program_log_size = &nvrtcGetProgramLogSize;
    n.get_program_log = &nvrtcGetProgramLog;
    n.get_lowered_name = &nvrtcGetLoweredName;
    n.get_ptx_size = &nvrtcGetPTXSize;
    n.get_ptx = &nvrtcGetPTX;
    n.get_cubin_size = &nvrtcGetCUBINSize;
    n.get_cubin = &nvrtcGetCUBIN;
    n.get_num_supported_archs = &nvrtcGetNumSupportedArchs;
    n.get_supported_archs = &nvrtcGetSupportedArchs;
    n.version = version_of(n, &nvrtcVersion);
    // The file the dynamic linker loaded it from.
    if (Dl_info info{}; dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) != 0 && info.dli_fname != nullptr)
        n.build = build_of(info.dli_fname);
    return n;
}

NvrtcLibrary load_nvrtc(const std::filesystem::path& given)
{
    // Absolute before anything: dlopen searches the library path for a bare name, and a
    // compile worker loads the same file from wherever it runs.
    std::error_code error;
    const std::filesystem::path path = std::filesystem::absolute(given, error).lexically_normal();
    if (error || !std::filesystem::is_regular_file(path, error))
        throw NvrtcLibraryError(fmt::format("--nvrtc {}: no such file (give a libnvrtc.so, e.g. "
                                            "/usr/local/cuda-12.4/lib64/libnvrtc.so)", given.string()));
    // DEEPBIND: the library's calls to its own exported functions must reach its own code,
    // not the linked NVRTC's of the same names. NODELETE: never unmapped while a pointer
    // into it might live.
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND | RTLD_NODELETE);
    if (library == nullptr) {
        const char* error = dlerror();
        throw NvrtcLibraryError(fmt::format("--nvrtc {}: cannot be loaded: {}", path.string(),
                                            error ? error : "dlopen failed"));
    }
    NvrtcLibrary n;
    n.path = path;
    n.handle = std::shared_ptr<void>(library, [](void* handle) { dlclose(handle); });
    const auto load = [&]<typename Function>(Function& target, const char* name) {
        target = reinterpret_cast<Function>(dlsym(library, name));
        if (target == nullptr)
            throw NvrtcLibraryError(fmt::format("--nvrtc {}: not an NVRTC of CUDA 11.2 or newer (it has no {})",
                                                path.string(), name));
    };
    load(n.get_error_string, "nvrtcGetErrorString");
    load(n.create_program, "nvrtcCreateProgram");
    load(n.destroy_program, "nvrtcDestroyProgram");
    load(n.add_name_expression, "nvrtcAddNameExpression");
    load(n.compile_program, "nvrtcCompileProgram");
    load(n.get_program_log_size, "nvrtcGetProgramLogSize");
    load(n.get_program_log, "nvrtcGetProgramLog");
    load(n.get_lowered_name, "nvrtcGetLoweredName");
    load(n.get_ptx_size, "nvrtcGetPTXSize");
    load(n.get_ptx, "nvrtcGetPTX");
    load(n.get_cubin_size, "nvrtcGetCUBINSize");
    load(n.get_cubin, "nvrtcGetCUBIN");
    load(n.get_num_supported_archs, "nvrtcGetNumSupportedArchs");
    load(n.get_supported_archs, "nvrtcGetSupportedArchs");
    decltype(&nvrtcVersion) version = nullptr;
    load(version, "nvrtcVersion");
    n.version = version_of(n, version);
    n.build = build_of(path);
    return n;
}

NvrtcLibrary nvrtc_library(const std::filesystem::path& path) { return path.empty() ? linked_nvrtc() : load_nvrtc(path); }

std::vector<int> supported_archs(const NvrtcLibrary& nvrtc)
{
    int count = 0;
    if (nvrtc.get_num_supported_archs(&count) != NVRTC_SUCCESS || count < 0)
        throw NvrtcLibraryError(fmt::format("{}: nvrtcGetNumSupportedArchs failed", describe(nvrtc)));
    std::vector<int> archs(static_cast<std::size_t>(count));
    if (nvrtc.get_supported_archs(archs.data()) != NVRTC_SUCCESS)
        throw NvrtcLibraryError(fmt::format("{}: nvrtcGetSupportedArchs failed", describe(nvrtc)));
    std::ranges::sort(archs);
    return archs;
}

std::string describe(const NvrtcLibrary& nvrtc)
{
    return nvrtc.path.empty() ? fmt::format("NVRTC {}", nvrtc.version)
                              : fmt::format("NVRTC {} ({})", nvrtc.version, nvrtc.path.string());
}

std::string program_log(const NvrtcLibrary& nvrtc, nvrtcProgram program)
{
    std::size_t size = 0;
    if (nvrtc.get_program_log_size(program, &size) != NVRTC_SUCCESS || size <= 1)
        return {};
    std::string log(size, '\0');
    nvrtc.get_program_log(program, log.data());
    log.pop_back(); // the closing NUL
    return log;
}

NvrtcProgram own_program(const NvrtcLibrary& nvrtc, nvrtcProgram program)
{
    return NvrtcProgram(program, [destroy = nvrtc.destroy_program](nvrtcProgram p) { destroy(&p); });
}

EmptyKernelCompile compile_empty_kernel(const NvrtcLibrary& nvrtc, const std::vector<std::string>& options)
{
    EmptyKernelCompile out;
    nvrtcProgram raw = nullptr;
    out.result = nvrtc.create_program(&raw, "__global__ void autotune_probe() {}", "autotune_probe.cu", 0, nullptr,
                                      nullptr);
    if (out.result != NVRTC_SUCCESS)
        return out;
    const NvrtcProgram program = own_program(nvrtc, raw);
    std::vector<const char*> pointers;
    for (const auto& o : options)
        pointers.push_back(o.c_str());
    out.result = nvrtc.compile_program(raw, static_cast<int>(pointers.size()), pointers.data());
    out.log = program_log(nvrtc, raw);
    return out;
}

} // namespace autotune
