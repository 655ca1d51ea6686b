#include "cli/json_only_options.hpp"

#include <boost/program_options.hpp>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

std::optional<bool> parse_json_only_options(const Arguments& args, const std::string& command)
{
    bool as_json = false;
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("json", po::bool_switch(&as_json), "print JSON");
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: autotune " << command << " [--json]\n\n" << options;
        return std::nullopt;
    }
    po::notify(vm);
    return as_json;
}

} // namespace autotune::cli
