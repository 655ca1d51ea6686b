#include "cli/command_line.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

CommandLine::CommandLine(std::string usage) : usage_(std::move(usage))
{
    named_.add_options()("help,h", "show this help");
}

po::options_description_easy_init CommandLine::options() { return named_.add_options(); }

void CommandLine::options(const po::options_description& group) { named_.add(group); }

void CommandLine::positional(const char* name, const po::value_semantic* value, int count)
{
    hidden_.add_options()(name, value);
    positions_.add(name, count);
}

bool CommandLine::parse(const Arguments& args)
{
    po::options_description all;
    all.add(named_).add(hidden_);
    po::store(po::command_line_parser(args).options(all).positional(positions_).run(), values_);
    if (given("help")) {
        std::cout << usage_ << "\n\n" << named_;
        return false;
    }
    po::notify(values_);
    return true;
}

} // namespace autotune::cli
