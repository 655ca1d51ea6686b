#include "cli/json_only_options.hpp"

#include "cli/command_line.hpp"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace autotune::cli {

std::optional<bool> parse_json_only_options(const Arguments& args, const std::string& command)
{
    bool as_json = false;
    CommandLine line("usage: autotune " + command + " [--json]");
    line.options()("json", po::bool_switch(&as_json), "print JSON");
    if (!line.parse(args))
        return std::nullopt;
    return as_json;
}

} // namespace autotune::cli
