#include "compile/ptxas_log.hpp"

#include <regex>
#include <sstream>

namespace autotune {
namespace {

std::int64_t to_int(const std::ssub_match& m) { return std::stoll(m.str()); }

// "1504 bytes stack frame, 3684 bytes spill stores, 3428 bytes spill loads"
void read_properties(const std::string& line, PtxasReport& report)
{
    static const std::regex stack(R"((\d+) bytes stack frame)");
    static const std::regex stores(R"((\d+) bytes spill stores)");
    static const std::regex loads(R"((\d+) bytes spill loads)");
    std::smatch m;
    if (std::regex_search(line, m, stack)) report.stack_frame = to_int(m[1]);
    if (std::regex_search(line, m, stores)) report.spill_stores = to_int(m[1]);
    if (std::regex_search(line, m, loads)) report.spill_loads = to_int(m[1]);
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
        report.registers = static_cast<int>(to_int(m[1]));
        report.found = true;
    }
    if (std::regex_search(line, m, barriers)) report.barriers = static_cast<int>(to_int(m[1]));
    if (std::regex_search(line, m, smem)) report.shared_bytes = to_int(m[1]);
    if (std::regex_search(line, m, cmem0)) report.constant_bank0 = to_int(m[1]);
    if (std::regex_search(line, m, cumulative)) report.cumulative_stack = to_int(m[1]);
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
            report.maxrregcount_overridden_from = static_cast<int>(to_int(m[1]));
            report.maxrregcount_overridden_to = static_cast<int>(to_int(m[2]));
            continue;
        }
        const bool is_warning = line.find("ptxas warning") != std::string::npos;
        if (!is_warning || names_other_function(line, function))
            continue;
        report.warnings.push_back(line);
        if (std::regex_search(line, m, raised)) {
            report.cap_raised_from = static_cast<int>(to_int(m[1]));
            report.cap_raised_to = static_cast<int>(to_int(m[2]));
        }
        if (line.find(".minnctapersm will be ignored") != std::string::npos)
            report.min_blocks_ignored = true;
    }
    return report;
}

} // namespace autotune
