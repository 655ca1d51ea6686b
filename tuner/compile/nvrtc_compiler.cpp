#include "compile/nvrtc_compiler.hpp"

#include "util/readable_text.hpp"

#include <chrono>
#include <fmt/format.h>
#include <memory>
#include <utility>
#include <nvrtc.h>

namespace autotune {
namespace {

struct ProgramDeleter {
    void operator()(_nvrtcProgram* program) const { nvrtcDestroyProgram(&program); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

std::string program_log(nvrtcProgram program)
{
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1)
        return {};
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    return readable_text(log); // bytes: a binary template's, and a NUL before ptxas's messages
}

} // namespace

CompileOutput compile_with_nvrtc(const CompileRequest& request)
{
    CompileOutput out;
    nvrtcProgram raw = nullptr;
    if (const auto rc = nvrtcCreateProgram(&raw, request.source.c_str(), "autotune_variant.cu", 0, nullptr, nullptr);
        rc != NVRTC_SUCCESS) {
        out.error = fmt::format("NVRTC: cannot create program: {}", nvrtcGetErrorString(rc));
        return out;
    }
    Program program(raw);
    if (const auto rc = nvrtcAddNameExpression(raw, request.name_expression.c_str()); rc != NVRTC_SUCCESS) {
        out.error = fmt::format("NVRTC: name expression '{}': {}", request.name_expression, nvrtcGetErrorString(rc));
        return out;
    }

    const auto options = nvrtc_options(request);
    std::vector<const char*> option_pointers;
    for (const auto& o : options)
        option_pointers.push_back(o.c_str());

    const auto start = std::chrono::steady_clock::now();
    const auto rc = nvrtcCompileProgram(raw, static_cast<int>(option_pointers.size()), option_pointers.data());
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.log = program_log(raw);
    if (rc != NVRTC_SUCCESS) {
        out.error = first_error_line(out.log, fmt::format("NVRTC: {}", nvrtcGetErrorString(rc)));
        return out;
    }

    const char* lowered = nullptr;
    if (nvrtcGetLoweredName(raw, request.name_expression.c_str(), &lowered) != NVRTC_SUCCESS || lowered == nullptr) {
        out.error = fmt::format("NVRTC: no lowered name for '{}'", request.name_expression);
        return out;
    }
    out.lowered_name = lowered;

    std::size_t size = 0;
    nvrtcGetPTXSize(raw, &size);
    out.ptx.resize(size);
    nvrtcGetPTX(raw, out.ptx.data());
    if (!out.ptx.empty() && out.ptx.back() == '\0')
        out.ptx.pop_back();
    size = 0;
    if (nvrtcGetCUBINSize(raw, &size) != NVRTC_SUCCESS || size == 0) {
        out.error = fmt::format("NVRTC: no cubin for {} (is --arch a real architecture?)", request.arch.name());
        return out;
    }
    out.cubin.resize(size);
    nvrtcGetCUBIN(raw, out.cubin.data());
    out.ok = true;
    return out;
}

} // namespace autotune
