#include "compile/nvcc_compiler.hpp"

#include "util/readable_text.hpp"

#include "compile/cubin_info.hpp"
#include "util/process.hpp"
#include "util/scratch_dir.hpp"

#include <chrono>
#include <cstdlib>
#include <cxxabi.h>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace autotune {
namespace {

std::string read_binary(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

std::string without_spaces(std::string text)
{
    std::erase(text, ' ');
    return text;
}

std::string demangle(const std::string& mangled)
{
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                     &std::free);
    return status == 0 && name ? std::string(name.get()) : mangled;
}

// The entry nvcc compiled for `name_expression`: the one whose demangled name is the
// expression followed by its parameter list (or the expression itself, for extern "C").
std::string find_entry(const CubinInfo& cubin, const std::string& name_expression)
{
    const std::string wanted = without_spaces(name_expression);
    for (const auto& function : cubin.functions) {
        const std::string demangled = without_spaces(demangle(function.name));
        if (demangled == wanted || demangled.rfind(wanted + "(", 0) == 0)
            return function.name;
    }
    // Template arguments may be spelled differently (e.g. 1u vs 1): one entry is unambiguous.
    if (cubin.functions.size() == 1)
        return cubin.functions.front().name;
    return {};
}

} // namespace

std::string nvcc_translation_unit(const CompileRequest& request)
{
    return request.source +
           fmt::format("// A consumer launches the kernel from host code; referencing it does the same\n"
                       "// instantiation without the launch.\n"
                       "[[maybe_unused]] static void* const autotune_entry_reference = (void*)&{};\n",
                       request.name_expression);
}

CompilerRun compile_with_nvcc(const CompileRequest& request, const std::filesystem::path& nvcc,
                              const ProcessLimits& limits)
{
    CompileOutput out;
    ScratchDir scratch("autotune-nvcc");
    const auto source = scratch.path() / "autotune_variant.cu";
    const auto cubin = scratch.path() / "autotune_variant.cubin";
    std::ofstream(source) << nvcc_translation_unit(request);

    std::vector<std::string> argv{nvcc.string()};
    const auto options = nvcc_options(request);
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {"--keep", "--keep-dir", scratch.path().string(), "-o", cubin.string(), source.string()});

    const auto start = std::chrono::steady_clock::now();
    const ProcessResult result = run_process(argv, scratch.path(), limits);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.log = readable_text(result.output);
    if (result.timed_out) {
        out.error = fmt::format("nvcc did not finish within {:g} s",
                                std::chrono::duration<double>(*limits.timeout).count());
        return {CompileEnding::timed_out, std::move(out)};
    }
    if (result.exit_code != 0) {
        out.error = first_error_line(out.log, result.signal ? fmt::format("nvcc was killed by signal {}", result.signal)
                                                            : fmt::format("nvcc exited with {}", result.exit_code));
        CompilerRun run = classify_finished(std::move(out));
        if (result.signal && run.ending == CompileEnding::finished)
            run.ending = CompileEnding::crashed;
        return run;
    }
    out.cubin = read_binary(cubin);
    out.ptx = read_binary(scratch.path() / "autotune_variant.ptx");
    try {
        out.lowered_name = find_entry(read_cubin(out.cubin), request.name_expression);
    } catch (const CubinError& e) {
        out.error = fmt::format("nvcc output: {}", e.what());
        return {CompileEnding::finished, std::move(out)};
    }
    if (out.lowered_name.empty()) {
        out.error = fmt::format("nvcc output has no entry for '{}'", request.name_expression);
        return {CompileEnding::finished, std::move(out)};
    }
    out.ok = true;
    return {CompileEnding::finished, std::move(out)};
}

std::string nvcc_version(const std::filesystem::path& nvcc)
{
    static std::mutex mutex;
    static std::map<std::filesystem::path, std::string> known;
    std::lock_guard lock(mutex);
    if (auto it = known.find(nvcc); it != known.end())
        return it->second;
    const ProcessResult result = run_process({nvcc.string(), "--version"});
    if (result.exit_code != 0)
        throw std::runtime_error(fmt::format("{}: cannot run it ({})", nvcc.string(), result.output));
    std::istringstream lines(result.output);
    std::string line, version;
    while (std::getline(lines, line))
        if (line.find("release") != std::string::npos)
            version = line;
    return known[nvcc] = version.empty() ? result.output : version;
}

} // namespace autotune
