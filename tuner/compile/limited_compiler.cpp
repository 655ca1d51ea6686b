#include "compile/limited_compiler.hpp"

#include "compile/compile_protocol.hpp"
#include "compile/nvcc_compiler.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "util/readable_text.hpp"

#include <fmt/format.h>
#include <string>
#include <utility>

namespace autotune {
namespace {

double seconds(std::chrono::milliseconds duration) { return std::chrono::duration<double>(duration).count(); }

// The last non-empty line a dying worker wrote: usually the reason (an assertion, a
// "terminate called after throwing ...").
std::string last_line(const std::string& text)
{
    std::string line;
    std::size_t end = text.size();
    while (line.empty() && end > 0) {
        const auto begin = text.rfind('\n', end - 1);
        const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
        line = readable_text(std::string_view(text).substr(from, end - from));
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.pop_back();
        end = begin == std::string::npos ? 0 : begin;
    }
    return line;
}

CompilerRun stopped(CompileEnding ending, std::string error, double elapsed)
{
    CompilerRun run;
    run.ending = ending;
    run.output.error = std::move(error);
    run.output.seconds = elapsed;
    return run;
}

} // namespace

std::string memory_size_text(std::uint64_t bytes)
{
    constexpr std::uint64_t mib = std::uint64_t{1} << 20;
    if (bytes % (mib << 10) == 0)
        return fmt::format("{} GiB", bytes / (mib << 10));
    if (bytes % mib == 0)
        return fmt::format("{} MiB", bytes / mib);
    return fmt::format("{} bytes", bytes);
}

LimitedCompiler::LimitedCompiler(CompilerKind compiler, std::filesystem::path nvcc, CompileLimits limits,
                                 NvrtcLibrary nvrtc)
    : compiler_(compiler), nvcc_(std::move(nvcc)), limits_(std::move(limits)), nvrtc_(std::move(nvrtc))
{
    if (compiler_ == CompilerKind::nvrtc && !limits_.worker_argv.empty()) {
        std::vector<std::string> argv = limits_.worker_argv;
        if (limits_.memory_bytes > 0)
            argv.insert(argv.end(), {"--memory-limit", std::to_string(limits_.memory_bytes)});
        if (!nvrtc_.path.empty())
            argv.insert(argv.end(), {"--nvrtc", nvrtc_.path.string()});
        worker_.emplace(std::move(argv)); // started on the first compile
    }
}

CompilerRun LimitedCompiler::compile(const CompileRequest& request)
{
    if (compiler_ == CompilerKind::nvcc)
        return compile_with_nvcc(request, nvcc_, ProcessLimits{limits_.timeout, limits_.memory_bytes});
    if (worker_)
        return compile_in_worker(request);
    return classify_finished(compile_with_nvrtc(request, nvrtc_));
}

CompilerRun LimitedCompiler::compile_in_worker(const CompileRequest& request)
{
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    auto reply = worker_->request(compile_request_to_json(request), limits_.timeout);
    if (const auto* message = std::get_if<nlohmann::json>(&reply)) {
        try {
            return classify_finished(compile_output_from_json(*message), worker_->last_stderr());
        } catch (const std::exception& e) {
            return stopped(CompileEnding::crashed, fmt::format("the compile worker's reply is malformed: {}", e.what()),
                           elapsed());
        }
    }
    const WorkerFailure& failure = std::get<WorkerFailure>(reply);
    const std::string said = last_line(failure.stderr_tail);
    switch (failure.kind) {
    case WorkerFailure::Kind::timed_out:
        return stopped(CompileEnding::timed_out,
                       fmt::format("the compile did not finish within {:g} s (--compile-timeout)", seconds(limits_.timeout)),
                       elapsed());
    case WorkerFailure::Kind::crashed:
        if (says_out_of_memory(failure.stderr_tail))
            return stopped(CompileEnding::out_of_memory,
                           fmt::format("the compile worker {}: {}", failure.detail, said), elapsed());
        return stopped(CompileEnding::crashed,
                       fmt::format("the compiler crashed (its worker {}){}", failure.detail, said.empty() ? "" : ": " + said),
                       elapsed());
    case WorkerFailure::Kind::protocol_error:
    case WorkerFailure::Kind::could_not_start:
        break;
    }
    return stopped(CompileEnding::crashed, fmt::format("the compile worker failed: {}{}", failure.detail,
                                                       said.empty() ? "" : " (" + said + ")"),
                   elapsed());
}

} // namespace autotune
