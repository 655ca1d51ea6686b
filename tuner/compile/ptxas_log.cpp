#include "compile/ptxas_log.hpp"

#include <charconv>
#include <regex>
#include <sstream>

namespace autotune {
namespace {

// A count as ptxas prints it, where it fits T. A longer digit string is no log of ptxas' (an
// edited cache entry, a fuzzer's bytes): it leaves the field unread rather than ending the
// parse, which throws nothing, in std::out_of_range.
template <typename T>
std::optional<T> count(const std::ssub_match& m)
{
    const std::string digits = m.str();
    T value{};
    if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec != std::errc())
        return std::nullopt;
    return value;
}

template <typename T>
void read_count(const std::ssub_match& m, T& field)
{
    if (const auto value = count<T>(m))
        field = *value;
}

template <typename T>
void read_count(const std::ssub_match& m, std::optional<T>& field)
{
    if (const auto value = count<T>(m))
        field = *value;
}

// "1504 bytes stack frame, 3684 bytes spill stores, 3428 bytes spill loads"
void read_properties(const std::string& line, PtxasReport& report)
{
    static const std::regex stack(R"((\d+) bytes stack frame)");
    static const std::regex stores(R"((\d+) bytes spill stores)");
    static const std::regex loads(R"((\d+) bytes spill loads)");
    std::smatch m;
    if (std::regex_search(line, m, stack)) read_count(m[1], report.stack_frame);
    if (std::regex_search(line, m, stores)) read_count(m[1], report.spill_stores);
    if (std::regex_search(line, m, loads)) read_count(m[1], report.spill_loads);
}

// "Used 24 registers, used 1 barriers, 1504 bytes cumulative stack size, 8192 bytes smem, 400 bytes cmem[0]"
void read_usage(const std::string& line, PtxasReport& report)
{
    static const std::regex registers(R"(Used (\d+) registers)");
    static const std::regex barriers(R"(used (\d+) barriers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    static const std::regex cmem0(R"((\d+) bytes cmem\[0\])");
    static const std::regex cumulative(R"((\d+) bytes cumulative stack size)");
    std::smatch m;
    if (std::regex_search(line, m, registers)) {
        if (const auto n = count<int>(m[1])) {
            report.registers = *n;
            report.found = true;
        }
    }
    if (std::regex_search(line, m, barriers)) read_count(m[1], report.barriers);
    if (std::regex_search(line, m, smem)) read_count(m[1], report.shared_bytes);
    if (std::regex_search(line, m, cmem0)) read_count(m[1], report.constant_bank0);
    if (std::regex_search(line, m, cumulative)) read_count(m[1], report.cumulative_stack);
}

bool names_other_function(const std::string& line, std::string_view function)
{
    // Warnings that name an entry ("For entry X", "for entry X", "for 'X'") concern only it.
    static const std::regex named(R"([Ee]ntry '?([A-Za-z_$][\w$]*)'?)");
    std::smatch m;
    return std::regex_search(line, m, named) && m[1].str() != function;
}

} // namespace

PtxasReport parse_ptxas_log(std::string_view log, std::string_view function)
{
    static const std::regex compiling(R"(Compiling entry function '([^']+)')");
    static const std::regex properties(R"(Function properties for '?([^'\s:]+)'?)");
    static const std::regex global_override(R"(Overriding global maxrregcount (\d+) with entry-specific value (\d+))");
    static const std::regex raised(R"(adjusting per thread register count of (\d+) to lower bound of (\d+))");

    PtxasReport report;
    std::istringstream lines{std::string(log)};
    std::string line;
    std::string current_entry;      // the entry being compiled ("Used" lines belong to it)
    std::string properties_of;      // the function the next "bytes stack frame" line describes
    while (std::getline(lines, line)) {
        std::smatch m;
        if (std::regex_search(line, m, compiling)) {
            current_entry = m[1].str();
            continue;
        }
        if (std::regex_search(line, m, properties)) {
            properties_of = m[1].str();
            continue;
        }
        if (line.find("bytes stack frame") != std::string::npos) {
            if (properties_of == function)
                read_properties(line, report);
            continue;
        }
        if (line.find("Used ") != std::string::npos && line.find(" registers") != std::string::npos) {
            if (current_entry == function)
                read_usage(line, report);
            continue;
        }
        if (std::regex_search(line, m, global_override)) {
            read_count(m[1], report.maxrregcount_overridden_from);
            read_count(m[2], report.maxrregcount_overridden_to);
            continue;
        }
        const bool is_warning = line.find("ptxas warning") != std::string::npos;
        if (!is_warning || names_other_function(line, function))
            continue;
        report.warnings.push_back(line);
        if (std::regex_search(line, m, raised)) {
            read_count(m[1], report.cap_raised_from);
            read_count(m[2], report.cap_raised_to);
        }
        if (line.find(".minnctapersm will be ignored") != std::string::npos)
            report.min_blocks_ignored = true;
    }
    return report;
}

} // namespace autotune
