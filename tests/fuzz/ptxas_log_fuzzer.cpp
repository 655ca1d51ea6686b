// Fuzz target: the ptxas log parser. The input's first line is the entry function's name, the
// rest the log (the seeds are real ptxas -v logs so prefixed). The parser throws nothing: any
// exception, a sanitizer report or a hang is a finding.
#include "compile/ptxas_log.hpp"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto end_of_name = input.find('\n');
    const std::string_view function = input.substr(0, end_of_name);
    const std::string_view log = end_of_name == std::string_view::npos ? std::string_view() : input.substr(end_of_name + 1);
    (void)autotune::parse_ptxas_log(log, function);
    return 0;
}
