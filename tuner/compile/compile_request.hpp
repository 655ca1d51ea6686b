// CompileRequest: one variant made concrete for a compiler — the translation unit, the
// entry to instantiate, and the options — with the options rendered for NVRTC or nvcc.
#pragma once

#include "arch/arch_target.hpp"
#include "space/variant.hpp"
#include "spec/kernel_spec.hpp"
#include "spec/problem.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

enum class CompilerKind { nvrtc, nvcc };
[[nodiscard]] std::string to_string(CompilerKind kind);
// "nvrtc" or "nvcc"; throws std::invalid_argument naming the value otherwise.
[[nodiscard]] CompilerKind parse_compiler_kind(const std::string& text);

struct CompileRequest {
    std::string source;          // the translation unit: includes the kernel's file
    std::string name_expression; // the entry, e.g. autotune_kernels::gemm<64,64,8,4,4,4,256,0>
    ArchTarget arch;
    std::filesystem::path template_path;             // absolute
    std::vector<std::filesystem::path> include_dirs; // absolute; the template's own directory first
    std::vector<std::pair<std::string, std::int64_t>> definitions; // -DNAME=VALUE
    std::int64_t maxrregcount = 0;                   // 0: no file-level cap
    std::vector<std::string> extra_options;          // the spec's options, e.g. -std=c++17
    std::vector<std::string> nvcc_only_options;      // what a consumer's nvcc build adds (nvcc only)
    friend bool operator==(const CompileRequest&, const CompileRequest&) = default;
};

// Throws std::runtime_error naming the template argument when it is not an integer
// value of the variant or problem, ExpressionError naming a [kernel] defines entry that is
// not an integer. With parameters_as = "preprocessor_definitions" the definitions are
// every parameter and integral derived value, the spec's defines, and Kernel Tuner's
// block_size_x/y/z, grid_size_x/y/z (the launch's) and kernel_tuner = 1 unless the spec
// defines those names itself.
[[nodiscard]] CompileRequest make_compile_request(const KernelSpec& spec, const Problem& problem,
                                                  const Variant& variant, const ArchTarget& arch);

// The options as NVRTC takes them (absolute paths), including --ptxas-options=-v.
[[nodiscard]] std::vector<std::string> nvrtc_options(const CompileRequest& request);
// nvcc's arguments after the program name and before the output/input files.
[[nodiscard]] std::vector<std::string> nvcc_options(const CompileRequest& request);

// Options with every path under `base` written relative to it, so a record reproduces
// the compile from a checkout anywhere (and is the same on every machine).
[[nodiscard]] std::vector<std::string> portable_options(const std::vector<std::string>& options,
                                                        const std::filesystem::path& base);
[[nodiscard]] std::string portable_path(const std::filesystem::path& path, const std::filesystem::path& base);

} // namespace autotune
