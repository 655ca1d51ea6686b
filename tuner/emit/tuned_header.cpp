#include "emit/tuned_header.hpp"

#include "spec/expression.hpp"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

// Names the header declares or uses besides the spec's; a parameter may not take them.
const std::set<std::string> reserved{
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
    "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
    // the header's own members and helpers
    "block_threads", "max_threads", "min_blocks", "maxnreg", "maxrregcount", "compute_capability", "config",
    "Config", "Entry", "entries", "entry_count", "default_entry", "entry_index", "lookup", "visit", "ratio"};

std::string checked_identifier(const std::string& name, const std::string& what, const std::string& path)
{
    if (!is_identifier(name) || reserved.count(name) || name.rfind("__", 0) == 0)
        throw HeaderError(fmt::format("{}: {} '{}' cannot be a C++ name in the tuned header", path, what, name));
    return name;
}

std::int64_t checked_int(const json& value, const std::string& what, const std::string& path, bool fits_int)
{
    if (!value.is_number_integer())
        throw HeaderError(fmt::format("{}: {} is {}, not an integer", path, what, value.dump()));
    const std::int64_t v = value.get<std::int64_t>();
    if (fits_int && (v < INT_MIN || v > INT_MAX))
        throw HeaderError(fmt::format("{}: {} = {} does not fit an int", path, what, v));
    return v;
}

std::string upper(std::string text)
{
    for (auto& c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string entry_name(const HeaderEntry& e)
{
    std::string name = fmt::format("sm_{}", e.compute_capability);
    for (const auto& [variable, value] : e.problem)
        name += fmt::format("_{}{}", variable, value);
    return name;
}

std::string register_policy(const HeaderEntry& e)
{
    if (e.max_threads > 0)
        return e.min_blocks > 0 ? fmt::format("__launch_bounds__({}, {})", e.max_threads, e.min_blocks)
                                : fmt::format("__launch_bounds__({})", e.max_threads);
    if (e.maxnreg > 0)
        return fmt::format("__maxnreg__({})", e.maxnreg);
    return "";
}

std::string kernel_section(const std::string& kernel, const std::vector<HeaderEntry>& entries)
{
    const HeaderEntry& first = entries.front();
    std::string out = fmt::format("namespace {} {{\n\n// A tuned configuration: the spec's parameters, then its launch shape and register policy.\n"
                                  "struct Config {{\n", kernel);
    for (const auto& [name, value] : first.values)
        out += fmt::format("    int {};\n", name);
    out += "    int block_threads; // threads per block\n"
           "    int max_threads;   // __launch_bounds__ max threads (0: none)\n"
           "    int min_blocks;    // __launch_bounds__ min blocks per SM (0: none)\n"
           "    int maxnreg;       // __maxnreg__ (0: none)\n"
           "    int maxrregcount;  // -maxrregcount for the kernel's source file (0: none; autotune_tuned_sources sets it)\n"
           "};\n\n";
    out += "// A configuration and what it was tuned for: an architecture and a problem (the bucket).\nstruct Entry {\n"
           "    int compute_capability;\n";
    for (const auto& [name, value] : first.problem)
        out += fmt::format("    std::int64_t {};\n", name);
    out += "    Config config;\n};\n\n";

    for (const auto& e : entries) {
        for (const auto& note : e.notes)
            out += fmt::format("// {}\n", note);
        std::vector<std::string> problem, config;
        for (const auto& [name, value] : e.problem)
            problem.push_back(std::to_string(value));
        for (const auto& [name, value] : e.values)
            config.push_back(std::to_string(value));
        for (const auto v : {e.block_threads, e.max_threads, e.min_blocks, e.maxnreg, e.maxrregcount})
            config.push_back(std::to_string(v));
        out += fmt::format("inline constexpr Entry {}{{{}, {}, {{{}}}}};\n\n", entry_name(e), e.compute_capability,
                           fmt::join(problem, ", "), fmt::join(config, ", "));
    }
    std::vector<std::string> names;
    for (const auto& e : entries)
        names.push_back(entry_name(e));
    out += fmt::format("inline constexpr Entry entries[] = {{{}}};\ninline constexpr int entry_count = {};\n\n",
                       fmt::join(names, ", "), entries.size());

    // Host lookup: categories (layouts, modes) must match, sizes are matched by ratio.
    std::vector<std::string> parameters, distance, mismatches;
    for (const auto& [name, value] : first.problem) {
        parameters.push_back("std::int64_t " + name);
        const bool exact = std::find(first.exact.begin(), first.exact.end(), name) != first.exact.end();
        (exact ? mismatches : distance).push_back(exact ? fmt::format("(e.{0} != {0})", name)
                                                        : fmt::format("ratio(e.{0}, {0})", name));
    }
    if (distance.empty())
        distance.push_back("0.0");
    if (mismatches.empty())
        mismatches.push_back("0");
    out += fmt::format(R"(// How far apart two sizes are: the larger over the smaller (1 when equal).
constexpr double ratio(std::int64_t tuned, std::int64_t wanted)
{{
    if (tuned <= 0 || wanted <= 0)
        return 1e30;
    return tuned > wanted ? double(tuned) / double(wanted) : double(wanted) / double(tuned);
}}

// The entry for a device and a problem: the highest tuned architecture not above the
// device's (the lowest tuned one for an older device), then among its problems those
// whose categories (exact-match variables) differ least — all equal, when one was tuned —
// and of those the nearest in size (the smallest sum over the sizes of larger / smaller).
constexpr int entry_index(int compute_capability, {0})
{{
    int arch = entries[0].compute_capability;
    for (const Entry& e : entries)
        if (e.compute_capability <= compute_capability && e.compute_capability > arch)
            arch = e.compute_capability;
    int best = 0;
    int best_mismatches = -1;
    double best_distance = -1;
    for (int i = 0; i < entry_count; ++i) {{
        const Entry& e = entries[i];
        if (e.compute_capability != arch)
            continue;
        const int mismatches = {3};
        const double distance = {1};
        if (best_mismatches < 0 || mismatches < best_mismatches ||
            (mismatches == best_mismatches && distance < best_distance)) {{
            best = i;
            best_mismatches = mismatches;
            best_distance = distance;
        }}
    }}
    return best;
}}

constexpr const Config& lookup(int compute_capability, {0})
{{
    return entries[entry_index(compute_capability, {2})].config;
}}

// Calls f(std::integral_constant<int, I>{{}}) for the entry I = index, so a launch can use
// entries[I].config as template arguments:
//   visit(entry_index(cc, ...), [&](auto i) {{ constexpr Config c = entries[decltype(i)::value].config; ... }});
template <typename F>
constexpr void visit(int index, F&& f)
{{
    switch (index) {{
)",
                       fmt::join(parameters, ", "), fmt::join(distance, " + "),
                       [&] {
                           std::vector<std::string> names;
                           for (const auto& [name, value] : first.problem)
                               names.push_back(name);
                           return fmt::format("{}", fmt::join(names, ", "));
                       }(),
                       fmt::join(mismatches, " + "));
    for (std::size_t i = 0; i < entries.size(); ++i)
        out += fmt::format("    case {0}: f(std::integral_constant<int, {0}>{{}}); return;\n", i);
    out += "    default: return;\n    }\n}\n\n";

    // Device side, by __CUDA_ARCH__: each architecture's largest tuned problem.
    std::map<int, std::size_t> per_arch; // compute capability → entry (the last, i.e. largest, problem)
    for (std::size_t i = 0; i < entries.size(); ++i)
        per_arch[entries[i].compute_capability] = i;
    const std::string macro = "AUTOTUNE_" + upper(kernel);
    out += fmt::format("}} // namespace {}\n\n"
                       "// Device code, by __CUDA_ARCH__ (the seeds' architecture-dependent launch bounds): the\n"
                       "// entry of the architecture being compiled — its largest tuned problem — and its register\n"
                       "// policy, to attach to a kernel: __global__ void {}_REGISTER_POLICY my_kernel(...).\n"
                       "// Host code and devices older than every tuned architecture get the lowest one's.\n",
                       kernel, macro);
    bool first_branch = true;
    for (auto it = per_arch.rbegin(); it != per_arch.rend(); ++it) {
        const HeaderEntry& e = entries[it->second];
        out += fmt::format("#{} defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {}\n#define {}_ENTRY {}\n#define {}_REGISTER_POLICY{}\n",
                           first_branch ? "if" : "elif", e.compute_capability * 10, macro, it->second, macro,
                           register_policy(e).empty() ? "" : " " + register_policy(e));
        first_branch = false;
    }
    const std::size_t lowest = per_arch.begin()->second;
    const std::string lowest_policy = register_policy(entries[lowest]);
    out += fmt::format("#else\n#define {}_ENTRY {}\n#define {}_REGISTER_POLICY{}\n#endif\n\n", macro, lowest, macro,
                       lowest_policy.empty() ? "" : " " + lowest_policy);
    return out;
}

} // namespace

std::vector<HeaderEntry> header_entries(const json& results, const std::string& path)
{
    std::vector<HeaderEntry> out;
    const std::string kernel = checked_identifier(results.at("kernel").get<std::string>(), "kernel name", path);
    const std::string arch = results.at("arch").get<std::string>();
    int cc = 0;
    if (std::sscanf(arch.c_str(), "sm_%d", &cc) != 1 || cc < 10)
        throw HeaderError(fmt::format("{}: arch '{}' is not sm_XX", path, arch));
    if (!results.contains("problems"))
        throw HeaderError(fmt::format("{}: no ranked problems (written by an older autotune?)", path));
    for (const auto& problem : results.at("problems")) {
        if (problem.at("winner").is_null())
            continue;
        // A measured run rebuilt its best variants with nvcc, as the consumer will: the
        // header keeps the fastest as nvcc builds it.
        const json& shipped = problem.value("winner_as_built_by_nvcc", json());
        const std::size_t winner = problem.at("winner").at("index").get<std::size_t>();
        const std::size_t index = shipped.is_object() ? shipped.at("index").get<std::size_t>() : winner;
        const auto record = std::find_if(results.at("variants").begin(), results.at("variants").end(),
                                         [&](const json& v) { return v.at("index").get<std::size_t>() == index; });
        if (record == results.at("variants").end())
            throw HeaderError(fmt::format("{}: the winner {} is not among the variants", path, index));
        HeaderEntry e;
        e.kernel = kernel;
        e.compute_capability = cc;
        for (const auto& [name, value] : problem.at("variables").items())
            e.problem.emplace_back(checked_identifier(name, "problem variable", path),
                                   checked_int(value, "problem variable " + name, path, false));
        for (const auto& name : results.value("exact_problem_variables", json::array())) {
            const auto it = std::find_if(e.problem.begin(), e.problem.end(),
                                         [&](const auto& v) { return name.is_string() && v.first == name.get<std::string>(); });
            if (it == e.problem.end())
                throw HeaderError(fmt::format("{}: exact_problem_variables names {}, which is not a problem variable",
                                              path, name.dump()));
            e.exact.push_back(it->first);
        }
        for (const auto& [name, value] : record->at("params").items())
            e.values.emplace_back(checked_identifier(name, "parameter", path),
                                  checked_int(value, "parameter " + name, path, true));
        const json& block = record->at("block");
        e.block_threads = checked_int(block.at(0), "block.x", path, true) * checked_int(block.at(1), "block.y", path, true) *
                          checked_int(block.at(2), "block.z", path, true);
        const json& policy = record->at("register_policy");
        e.max_threads = checked_int(policy.at("max_threads"), "max_threads", path, true);
        e.min_blocks = checked_int(policy.at("min_blocks"), "min_blocks", path, true);
        e.maxnreg = checked_int(policy.at("maxnreg"), "maxnreg", path, true);
        e.maxrregcount = checked_int(policy.at("maxrregcount"), "maxrregcount", path, true);

        std::string variables;
        for (const auto& [name, value] : e.problem)
            variables += fmt::format(" {}={}", name, value);
        const std::string toolkit = fmt::format("CUDA {}", results.value("nvrtc_version", std::string("?")));
        const json& measurement = record->at("measurement");
        if (shipped.is_object()) {
            const double median = shipped.at("median_seconds").get<double>();
            e.notes.push_back(fmt::format("sm_{},{}: measured on {}: median {:.2f} us as nvcc builds it (variant {}){}", cc,
                                          variables, results.at("device").at("name").get<std::string>(), median * 1e6,
                                          index,
                                          index == winner ? std::string()
                                                          : fmt::format("; NVRTC's own fastest, variant {}, is slower "
                                                                        "as nvcc builds it", winner)));
        } else if (problem.at("winner").at("basis") == "measured" && !measurement.is_null()) {
            const double median = measurement.at("time_seconds").at("median").get<double>();
            const json& fraction = record->at("roofline_fraction");
            e.notes.push_back(fmt::format("sm_{},{}: measured on {}: median {:.2f} us{} (variant {})", cc, variables,
                                          results.at("device").at("name").get<std::string>(), median * 1e6,
                                          fraction.is_null() ? "" : fmt::format(", {:.0f}% of the roof", 100 * fraction.get<double>()),
                                          index));
        } else {
            e.notes.push_back(fmt::format("sm_{},{}: predicted, not measured: {:.0f}% of the roof by the model (variant {})",
                                          cc, variables, 100 * record->at("predicted_fraction").get<double>(), index));
        }
        // A build of the winner must add what the run added (--compile-option) to the spec's.
        const auto added = fmt::format("{}", fmt::join(results.value("compile_options_added", std::vector<std::string>{}), " "));
        e.notes.push_back(fmt::format("from {} ({}, {}{})", path, toolkit, record->value("compiler", std::string("nvrtc")),
                                      added.empty() ? "" : ", compiled with " + added + " added"));
        out.push_back(std::move(e));
    }
    return out;
}

std::string tuned_header(std::vector<HeaderEntry> entries, const std::vector<std::string>& inputs)
{
    // The same entries in any order give the same bytes.
    std::sort(entries.begin(), entries.end(), [](const HeaderEntry& a, const HeaderEntry& b) {
        return std::tie(a.kernel, a.compute_capability, a.problem) < std::tie(b.kernel, b.compute_capability, b.problem);
    });
    for (std::size_t i = 1; i < entries.size(); ++i) {
        const HeaderEntry& a = entries[i - 1];
        const HeaderEntry& b = entries[i];
        if (a.kernel == b.kernel && a.compute_capability == b.compute_capability && a.problem == b.problem)
            throw HeaderError(fmt::format("two winners for {} on sm_{} and the same problem", a.kernel, a.compute_capability));
        auto names = [](const NamedValues& values) {
            std::vector<std::string> n;
            for (const auto& [name, value] : values)
                n.push_back(name);
            return n;
        };
        if (a.kernel == b.kernel &&
            (names(a.values) != names(b.values) || names(a.problem) != names(b.problem) || a.exact != b.exact))
            throw HeaderError(fmt::format("the results for {} disagree on its parameters or problem variables "
                                          "(tuned from different specs?)", a.kernel));
    }
    std::vector<std::string> sorted_inputs = inputs;
    std::sort(sorted_inputs.begin(), sorted_inputs.end());
    std::string out = fmt::format(
        "// Generated by `autotune header` — do not edit; regenerate with:\n"
        "//   autotune header {} -o <this file>\n"
        "// The same results give the same bytes.\n"
        "//\n"
        "// Per kernel, in namespace autotune_tuned::<kernel>: a constexpr Entry (architecture,\n"
        "// problem, Config) per winner; lookup(compute_capability, problem...) and entry_index()\n"
        "// for host code; visit(index, f) to instantiate a kernel with an entry's values; and, by\n"
        "// __CUDA_ARCH__, AUTOTUNE_<KERNEL>_REGISTER_POLICY to attach to a kernel.\n"
        "#pragma once\n\n#include <cstdint>\n#include <type_traits>\n\nnamespace autotune_tuned {{\n\n",
        fmt::join(sorted_inputs, " "));
    for (std::size_t i = 0; i < entries.size();) {
        std::size_t j = i;
        while (j < entries.size() && entries[j].kernel == entries[i].kernel)
            ++j;
        out += kernel_section(entries[i].kernel, std::vector<HeaderEntry>(entries.begin() + static_cast<long>(i),
                                                                          entries.begin() + static_cast<long>(j)));
        i = j;
    }
    // The kernel sections close their own namespace; the macros are preprocessor names.
    return out + "} // namespace autotune_tuned\n";
}

} // namespace autotune
