#include "compile/nvrtc_compiler.hpp"

#include "util/readable_text.hpp"

#include <chrono>
#include <fmt/format.h>
#include <memory>
#include <utility>

namespace autotune {
CompileOutput compile_with_nvrtc(const CompileRequest& request) { return compile_with_nvrtc(request, linked_nvrtc()); }

std::string rejected_options(const NvrtcLibrary& nvrtc, const ArchTarget& arch, const std::vector<std::string>& options)
{
    std::vector<std::string> all{"--gpu-architecture=" + arch.name()};
    all.insert(all.end(), options.begin(), options.end());
    const EmptyKernelCompile probe = compile_empty_kernel(nvrtc, all);
    if (probe.result != NVRTC_ERROR_INVALID_OPTION)
        return {};
    return first_error_line(readable_text(probe.log), nvrtc.get_error_string(probe.result));
}

CompileOutput compile_with_nvrtc(const CompileRequest& request, const NvrtcLibrary& nvrtc)
{
    CompileOutput out;
    nvrtcProgram raw = nullptr;
    if (const auto rc = nvrtc.create_program(&raw, request.source.c_str(), "autotune_variant.cu", 0, nullptr, nullptr);
        rc != NVRTC_SUCCESS) {
        out.error = fmt::format("NVRTC: cannot create program: {}", nvrtc.get_error_string(rc));
        return out;
    }
    const NvrtcProgram program = own_program(nvrtc, raw);
    if (const auto rc = nvrtc.add_name_expression(raw, request.name_expression.c_str()); rc != NVRTC_SUCCESS) {
        out.error = fmt::format("NVRTC: name expression '{}': {}", request.name_expression, nvrtc.get_error_string(rc));
        return out;
    }

    const auto options = nvrtc_options(request);
    std::vector<const char*> option_pointers;
    for (const auto& o : options)
        option_pointers.push_back(o.c_str());

    const auto start = std::chrono::steady_clock::now();
    const auto rc = nvrtc.compile_program(raw, static_cast<int>(option_pointers.size()), option_pointers.data());
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.log = readable_text(program_log(nvrtc, raw)); // bytes: a binary template's, a NUL before ptxas's messages
    if (rc != NVRTC_SUCCESS) {
        out.error = first_error_line(out.log, fmt::format("NVRTC: {}", nvrtc.get_error_string(rc)));
        return out;
    }

    const char* lowered = nullptr;
    if (nvrtc.get_lowered_name(raw, request.name_expression.c_str(), &lowered) != NVRTC_SUCCESS || lowered == nullptr) {
        out.error = fmt::format("NVRTC: no lowered name for '{}'", request.name_expression);
        return out;
    }
    out.lowered_name = lowered;

    std::size_t size = 0;
    nvrtc.get_ptx_size(raw, &size);
    out.ptx.resize(size);
    nvrtc.get_ptx(raw, out.ptx.data());
    if (!out.ptx.empty() && out.ptx.back() == '\0')
        out.ptx.pop_back();
    size = 0;
    if (nvrtc.get_cubin_size(raw, &size) != NVRTC_SUCCESS || size == 0) {
        out.error = fmt::format("NVRTC: no cubin for {} (is --arch a real architecture?)", request.arch.name());
        return out;
    }
    out.cubin.resize(size);
    nvrtc.get_cubin(raw, out.cubin.data());
    out.ok = true;
    return out;
}

} // namespace autotune
