// The command-line parsing every subcommand shares: its named options (listed by --help,
// which is added here), hidden positional arguments, and the usage text --help prints
// above the options. Errors are program_options' exceptions, which main turns into one
// line and exit 2.
#pragma once

#include "cli/commands.hpp"

#include <boost/program_options.hpp>
#include <string>

namespace autotune::cli {

class CommandLine {
public:
    // `usage`: the first line ("usage: autotune merge PARTS... -o FILE") and any
    // paragraph after it, without the trailing blank line.
    explicit CommandLine(std::string usage);

    // Named options, shown by --help.
    boost::program_options::options_description_easy_init options();
    // A group of named options built elsewhere (the tuning commands share theirs).
    void options(const boost::program_options::options_description& group);
    // A positional argument, `count` of them (-1: all the rest), not listed by --help.
    void positional(const char* name, const boost::program_options::value_semantic* value, int count = 1);

    // Parses `args`. False when --help was asked: the usage and the options have been
    // printed and the command is done (exit 0).
    [[nodiscard]] bool parse(const Arguments& args);
    // Whether the option was given (or has a default).
    [[nodiscard]] bool given(const std::string& name) const { return values_.count(name) != 0; }

private:
    std::string usage_;
    boost::program_options::options_description named_{"options"};
    boost::program_options::options_description hidden_;
    boost::program_options::positional_options_description positions_;
    boost::program_options::variables_map values_;
};

} // namespace autotune::cli
