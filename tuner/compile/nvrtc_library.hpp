// The NVRTC a compile runs: the one this program was built with, or another toolkit's
// libnvrtc.so named by path (--nvrtc). Register counts, and so what can launch and how
// fast it runs, differ between toolkits for the same source: a build that ships with
// CUDA 12.4, or a measurement made with CUDA 11.8, is predicted right only from that
// toolkit's machine code. Every entry point used here has had the same signature since
// CUDA 11.2, so the linked header's declarations type the loaded ones.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <nvrtc.h>

namespace autotune {

// A library that cannot be loaded or lacks an entry point; the message names the path.
class NvrtcLibraryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct NvrtcLibrary {
    std::filesystem::path path; // empty: the NVRTC this program was linked with
    std::string version;        // "major.minor", as the library says
    // The library file's size ("109338064 bytes"; empty where it cannot be found): patch
    // releases share a major.minor and may compile differently, and the compile cache
    // must not serve one's machine code for another's.
    std::string build;
    decltype(&nvrtcGetErrorString) get_error_string = nullptr;
    decltype(&nvrtcCreateProgram) create_program = nullptr;
    decltype(&nvrtcDestroyProgram) destroy_program = nullptr;
    decltype(&nvrtcAddNameExpression) add_name_expression = nullptr;
    decltype(&nvrtcCompileProgram) compile_program = nullptr;
    decltype(&nvrtcGetProgramLogSize) get_program_log_size = nullptr;
    decltype(&nvrtcGetProgramLog) get_program_log = nullptr;
    decltype(&nvrtcGetLoweredName) get_lowered_name = nullptr;
    decltype(&nvrtcGetPTXSize) get_ptx_size = nullptr;
    decltype(&nvrtcGetPTX) get_ptx = nullptr;
    decltype(&nvrtcGetCUBINSize) get_cubin_size = nullptr;
    decltype(&nvrtcGetCUBIN) get_cubin = nullptr;
    decltype(&nvrtcGetNumSupportedArchs) get_num_supported_archs = nullptr;
    decltype(&nvrtcGetSupportedArchs) get_supported_archs = nullptr;
    std::shared_ptr<void> handle; // the loaded library, closed with its last copy; null when linked
};

[[nodiscard]] NvrtcLibrary linked_nvrtc();
// Throws NvrtcLibraryError naming `path` when it cannot be loaded or lacks an entry point.
[[nodiscard]] NvrtcLibrary load_nvrtc(const std::filesystem::path& path);
// `path` empty: the linked one; else load_nvrtc(path).
[[nodiscard]] NvrtcLibrary nvrtc_library(const std::filesystem::path& path);

// The real architectures (86 for sm_86) the library compiles for, ascending.
[[nodiscard]] std::vector<int> supported_archs(const NvrtcLibrary& nvrtc);
// "NVRTC 13.0" or "NVRTC 11.8 (/path/libnvrtc.so.11.2)": how messages name it.
[[nodiscard]] std::string describe(const NvrtcLibrary& nvrtc);

// A program the library created, destroyed by it with the last copy.
using NvrtcProgram = std::shared_ptr<_nvrtcProgram>;
[[nodiscard]] NvrtcProgram own_program(const NvrtcLibrary& nvrtc, nvrtcProgram program);

// The program's log as the library wrote it (bytes; without the closing NUL).
[[nodiscard]] std::string program_log(const NvrtcLibrary& nvrtc, nvrtcProgram program);

// An empty kernel compiled with `options`: what the library answers (an option or a target
// it refuses shows here before any real compile) and its log, as it wrote it.
struct EmptyKernelCompile {
    nvrtcResult result = NVRTC_SUCCESS;
    std::string log;
};
[[nodiscard]] EmptyKernelCompile compile_empty_kernel(const NvrtcLibrary& nvrtc, const std::vector<std::string>& options);

} // namespace autotune
