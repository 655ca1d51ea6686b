#include "cli/command_line.hpp"

#include "cli/cli_error.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

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
    // An option given an empty value ("--out ''", "--cache=") means nothing any option
    // here accepts; taken as given it would write to the working folder or fall back to a
    // default unseen. Positional arguments say so themselves (a file that is not found).
    for (const auto& [name, value] : values_) {
        const auto* option = named_.find_nothrow(name, false);
        // A flag ("--no-check") takes no token and holds an empty string by design.
        if (value.defaulted() || !option || option->semantic()->max_tokens() == 0)
            continue;
        const auto* text = boost::any_cast<std::string>(&value.value());
        const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
        if ((text && text->empty()) ||
            (texts && std::any_of(texts->begin(), texts->end(), [](const std::string& t) { return t.empty(); })))
        {
            const std::string short_name = option->canonical_display_name(po::command_line_style::allow_dash_for_short);
            const bool has_short = short_name.size() == 2 && short_name[0] == '-';
            throw UsageError((has_short ? short_name + "/" : "") + "--" + name +
                             " is given an empty value; give it one, or leave the option out");
        }
    }
    po::notify(values_);
    return true;
}

} // namespace autotune::cli
