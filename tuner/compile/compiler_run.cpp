#include "compile/compiler_run.hpp"

#include "util/readable_text.hpp"

#include <array>
#include <fmt/format.h>

namespace autotune {
namespace {

// The first line of `messages` that says memory ran out, trimmed; empty when none does.
std::string_view out_of_memory_line(std::string_view messages)
{
    static constexpr std::array<std::string_view, 4> signs{
        "catastrophic error: out of memory", "Memory allocation failure", "std::bad_alloc", "LLVM ERROR: out of memory"};
    for (const auto sign : signs) {
        const auto at = messages.find(sign);
        if (at == std::string_view::npos)
            continue;
        const auto begin = messages.rfind('\n', at);
        const auto end = messages.find('\n', at);
        std::string_view line = messages.substr(begin == std::string_view::npos ? 0 : begin + 1);
        line = line.substr(0, end == std::string_view::npos ? line.size() : end - (messages.size() - line.size()));
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.remove_suffix(1);
        return line;
    }
    return {};
}

} // namespace

bool says_out_of_memory(std::string_view messages) { return !out_of_memory_line(messages).empty(); }

CompilerRun classify_finished(CompileOutput output, std::string_view other_messages)
{
    CompilerRun run;
    if (!output.ok) {
        // The log's own line when it has one; else what the compiler said elsewhere.
        std::string_view line = out_of_memory_line(output.log);
        if (line.empty() && !(line = out_of_memory_line(other_messages)).empty())
            output.error = fmt::format("{} ({})", output.error, readable_text(line));
        if (!line.empty())
            run.ending = CompileEnding::out_of_memory;
    }
    run.output = std::move(output);
    return run;
}

} // namespace autotune
