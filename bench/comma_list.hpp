// The benchmark programs' list options (--kernels gemm,triad): the non-empty items of a
// comma-separated list.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace autotune::bench {

inline std::vector<std::string> comma_list(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');)
        if (!part.empty())
            out.push_back(part);
    return out;
}

} // namespace autotune::bench
