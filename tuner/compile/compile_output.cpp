#include "compile/compile_output.hpp"

#include <sstream>

namespace autotune {

std::string first_error_line(const std::string& log, const std::string& fallback)
{
    std::istringstream lines(log);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.find("error") == std::string::npos)
            continue;
        const auto begin = line.find_first_not_of(" \t");
        const auto end = line.find_last_not_of(" \t\r");
        return line.substr(begin, end - begin + 1);
    }
    return fallback;
}

} // namespace autotune
