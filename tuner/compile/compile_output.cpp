#include "compile/compile_output.hpp"

#include "util/readable_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <sstream>

namespace autotune {

std::string first_error_line(const std::string& log, const std::string& fallback)
{
    std::istringstream lines(log);
    std::string line;
    while (std::getline(lines, line)) {
        // nvcc's own refusals ("nvcc fatal   : Unsupported gpu architecture") say fatal.
        if (line.find("error") == std::string::npos && line.find("fatal") == std::string::npos)
            continue;
        const auto begin = line.find_first_not_of(" \t");
        const auto end = line.find_last_not_of(" \t\r");
        return line.substr(begin, end - begin + 1);
    }
    return fallback;
}

std::string readable_compile_error(const std::string& error, const std::string& arch)
{
    std::string text = readable_text(error);
    const auto begin = text.find_first_not_of(" \t");
    text.erase(0, begin == std::string::npos ? text.size() : begin);
    static const std::regex too_much_shared(
        R"(Entry function '([^']*)' uses too much shared data \(0x([0-9a-fA-F]+) bytes, 0x([0-9a-fA-F]+) max\))");
    std::smatch match;
    if (!std::regex_search(text, match, too_much_shared))
        return text;
    return fmt::format("entry function '{}' uses {} bytes of static shared memory, over {}'s limit of {} (ptxas: too "
                       "much shared data)",
                       match[1].str(), std::stoull(match[2].str(), nullptr, 16), arch,
                       std::stoull(match[3].str(), nullptr, 16));
}

} // namespace autotune
