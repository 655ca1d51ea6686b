#include "cli/written_outcome.hpp"

#include <iostream>

namespace autotune::cli {

void print_written(bool json, const nlohmann::ordered_json& outcome, const std::string& text)
{
    if (json)
        std::cout << outcome.dump(2) << "\n";
    else
        std::cout << text;
}

} // namespace autotune::cli
