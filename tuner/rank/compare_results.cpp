#include "rank/compare_results.hpp"

#include "emit/assignments_text.hpp"
#include "util/plain_value_text.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>

namespace autotune {

using json = nlohmann::ordered_json;

namespace {

// How many times σ a change must exceed to be clear of the noise.
constexpr double noise_sigmas = 3;
// Relative SM clock difference worth a note: a throttled run explains a slowdown.
constexpr double clock_note_fraction = 0.02;
// |d| ≤ T holds at T itself although t·(1 + T) / t − 1 rounds above it.
constexpr double rounding = 1e-12;

std::string variables_text(const json& variables)
{
    const std::string text = assignments_text(variables);
    return text.empty() ? "-" : text;
}

// The variables in name order, so that {"M","N"} and {"N","M"} match.
std::vector<std::pair<std::string, json>> sorted_variables(const json& variables)
{
    std::vector<std::pair<std::string, json>> sorted;
    for (const auto& [name, value] : variables.items())
        sorted.emplace_back(name, value);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return sorted;
}

std::string match_key(const std::string& kernel, const std::string& arch, const json& variables)
{
    std::string key = kernel + '\x1f' + arch;
    for (const auto& [name, value] : sorted_variables(variables))
        key += '\x1f' + name + '=' + value.dump();
    return key;
}

std::optional<double> positive_number(const json& object, const char* field)
{
    if (!object.is_object() || !object.contains(field) || !object.at(field).is_number())
        return std::nullopt;
    const double v = object.at(field).get<double>();
    return std::isfinite(v) && v >= 0 ? std::optional<double>(v) : std::nullopt;
}

std::string winner_text(const json& winner)
{
    return winner.is_null() ? "-" : fmt::format("#{}", plain_value_text(winner.at("index")));
}

bool same_variant(const json& a, const json& b)
{
    if (a.contains("params") && b.contains("params") && a.at("params").is_object() && b.at("params").is_object()) {
        const auto pa = sorted_variables(a.at("params")), pb = sorted_variables(b.at("params"));
        return pa == pb;
    }
    return a.at("index") == b.at("index");
}

// The winner of one problem of one document, with its measured median when it has one.
WinnerSide winner_side(const json& document, const json& problem, const std::string& source)
{
    WinnerSide side;
    side.source = source;
    side.winner = nullptr;
    if (document.contains("device")) {
        const json& device = document.at("device");
        if (device.is_object() && device.contains("name") && device.at("name").is_string())
            side.device = device.at("name").get<std::string>();
    }
    // A run that rebuilt its best variants with nvcc ships the fastest as nvcc builds it:
    // that configuration and its time are what a regression would hurt.
    if (const json shipped = problem.value("winner_as_built_by_nvcc", json()); shipped.is_object()) {
        if (const auto median = positive_number(shipped, "median_seconds"); median && *median > 0 &&
                                                                             shipped.contains("index")) {
            side.winner = {{"index", shipped.at("index")},
                           {"params", shipped.contains("params") ? shipped.at("params") : json()},
                           {"basis", "measured"}};
            side.seconds = median;
            side.noise = positive_number(shipped, "median_noise");
            return side;
        }
    }
    const json winner = problem.contains("winner") ? problem.at("winner") : json();
    if (winner.is_null())
        return side;
    if (!winner.is_object() || !winner.contains("index") || !winner.at("index").is_number_integer())
        throw CompareInputError(fmt::format("'{}' is not an autotune results file: a problem's winner has no index", source));
    side.winner = {{"index", winner.at("index")},
                   {"params", winner.contains("params") ? winner.at("params") : json()},
                   {"basis", winner.contains("basis") ? winner.at("basis") : json()}};
    if (side.winner.at("basis") != "measured")
        return side;
    for (const auto& variant : document.at("variants")) {
        if (!variant.is_object() || !variant.contains("index") || variant.at("index") != winner.at("index"))
            continue;
        const json measurement = variant.contains("measurement") ? variant.at("measurement") : json();
        if (!measurement.is_object() || !measurement.contains("time_seconds"))
            break;
        const json& time = measurement.at("time_seconds");
        if (auto median = positive_number(time, "median"); median && *median > 0) {
            side.seconds = median;
            side.noise = positive_number(time, "median_noise");
            if (!side.noise)
                if (auto spread = positive_number(time, "relative_spread"))
                    side.noise = *spread / 2;
            side.sm_clock_mhz = positive_number(measurement, "sm_clock_mhz");
        }
        break;
    }
    return side;
}

struct Item {
    std::string kernel, arch;
    json variables;
    WinnerSide side;
};

std::map<std::string, Item> items_of(const std::vector<ResultsDocument>& documents)
{
    std::map<std::string, Item> items;
    for (const auto& [source, document] : documents) {
        check_results_document(document, source);
        const auto kernel = document.at("kernel").get<std::string>();
        const auto arch = document.at("arch").get<std::string>();
        for (const auto& problem : document.at("problems")) {
            const json& variables = problem.at("variables");
            Item item{kernel, arch, variables, winner_side(document, problem, source)};
            auto [it, inserted] = items.emplace(match_key(kernel, arch, variables), std::move(item));
            if (!inserted)
                throw CompareInputError(fmt::format("'{}' and '{}' both hold {} on {} for {}", it->second.side.source,
                                                    source, kernel, arch, variables_text(variables)));
        }
    }
    return items;
}

bool any_named_by_file(const std::vector<ResultsDocument>& documents)
{
    return std::any_of(documents.begin(), documents.end(), [](const ResultsDocument& d) {
        const auto flag = d.document.find("kernel_named_by_file");
        return flag != d.document.end() && flag->is_boolean() && flag->get<bool>();
    });
}

// An import of a T4 document names neither the kernel (it is named after the file:
// kernel_named_by_file) nor the problem size, so the same space measured on two GPUs
// imports as two kernels. Where each side holds one problem of one arch and either side
// was named by its file, NEW's entry is matched to BASE's, with a note saying so.
void match_one_named_by_file(const std::map<std::string, Item>& base_items, std::map<std::string, Item>& next_items,
                             bool named_by_file, std::vector<std::string>& notes)
{
    if (!named_by_file || base_items.size() != 1 || next_items.size() != 1 ||
        base_items.begin()->first == next_items.begin()->first)
        return;
    const Item& b = base_items.begin()->second;
    Item n = next_items.begin()->second;
    if (b.arch != n.arch)
        return;
    notes.push_back(fmt::format("named by its file: {} ({}) compared as {} ({})", n.kernel, variables_text(n.variables),
                                b.kernel, variables_text(b.variables)));
    n.kernel = b.kernel;
    n.variables = b.variables;
    next_items.clear();
    next_items.emplace(base_items.begin()->first, std::move(n));
}

std::string side_label(bool base) { return base ? "base" : "new"; }

void note_unmeasured(ComparisonEntry& e, const WinnerSide& side, bool base)
{
    if (side.winner.is_null())
        e.notes.push_back(fmt::format("{}: no winner", side_label(base)));
    else if (side.winner.at("basis") != "measured")
        e.notes.push_back(fmt::format("{}: winner predicted, not measured", side_label(base)));
    else if (!side.seconds)
        e.notes.push_back(fmt::format("{}: winner {} has no measured time", side_label(base), winner_text(side.winner)));
}

ComparisonEntry compare_entry(const Item* base, const Item* next, double threshold)
{
    const Item& any = base ? *base : *next;
    ComparisonEntry e;
    e.kernel = any.kernel;
    e.arch = any.arch;
    e.problem = any.variables;
    if (base)
        e.base = base->side;
    if (next)
        e.next = next->side;
    if (!base) {
        e.verdict = CompareVerdict::added;
        return e;
    }
    if (!next) {
        e.verdict = CompareVerdict::removed;
        return e;
    }
    const WinnerSide& b = *e.base;
    const WinnerSide& n = *e.next;
    e.winner_changed = !b.winner.is_null() && !n.winner.is_null() && !same_variant(b.winner, n.winner);
    if (!b.seconds || !n.seconds) {
        e.verdict = CompareVerdict::not_measured;
        note_unmeasured(e, b, true);
        note_unmeasured(e, n, false);
        return e;
    }
    const TimeComparison c = classify_times(*b.seconds, b.noise, *n.seconds, n.noise, threshold);
    e.change = c.change;
    e.sigma = c.sigma;
    e.verdict = c.verdict;
    if (!b.noise)
        e.notes.push_back("base: no noise recorded");
    if (!n.noise)
        e.notes.push_back("new: no noise recorded");
    if (noise_sigmas * c.sigma > threshold)
        e.notes.push_back(fmt::format("too noisy to resolve {:g}%: 3σ = {:.1f}%", 100 * threshold, 100 * noise_sigmas * c.sigma));
    if (!b.device.empty() && !n.device.empty() && b.device != n.device)
        e.notes.push_back(fmt::format("device changed: {} → {}", b.device, n.device));
    if (b.sm_clock_mhz && n.sm_clock_mhz && *b.sm_clock_mhz > 0 &&
        std::abs(*n.sm_clock_mhz / *b.sm_clock_mhz - 1) > clock_note_fraction)
        e.notes.push_back(fmt::format("SM clock {:.0f} → {:.0f} MHz", *b.sm_clock_mhz, *n.sm_clock_mhz));
    return e;
}

bool entry_before(const ComparisonEntry& a, const ComparisonEntry& b)
{
    if (a.kernel != b.kernel)
        return a.kernel < b.kernel;
    if (a.arch != b.arch)
        return a.arch < b.arch;
    return sorted_variables(a.problem) < sorted_variables(b.problem);
}

// Display helpers shared by the table and the Markdown.

std::string microseconds(double seconds)
{
    const double us = seconds * 1e6;
    const int decimals = us < 10 ? 3 : us < 100 ? 2 : us < 1000 ? 1 : 0;
    return fmt::format("{:.{}f}", us, decimals);
}

std::string time_cell(const std::optional<WinnerSide>& side)
{
    if (!side)
        return "-";
    if (side->seconds)
        return side->noise ? fmt::format("{} ±{:.1f}%", microseconds(*side->seconds), 100 * *side->noise)
                           : fmt::format("{} ±?", microseconds(*side->seconds));
    if (side->winner.is_null())
        return "no winner";
    return side->winner.at("basis") == "measured" ? "no time" : "predicted";
}

std::string change_cell(const ComparisonEntry& e)
{
    return e.change ? fmt::format("{:+.1f}%", 100 * *e.change) : "-";
}

std::string winner_cell(const ComparisonEntry& e)
{
    if (e.base && e.next) {
        const json& b = e.base->winner;
        const json& n = e.next->winner;
        if (b.is_null() || n.is_null() || e.winner_changed)
            return winner_text(b) + " → " + winner_text(n);
        return winner_text(n);
    }
    return winner_text((e.base ? e.base : e.next)->winner);
}

std::string notes_cell(const ComparisonEntry& e)
{
    std::string text;
    for (const auto& note : e.notes)
        text += (text.empty() ? "" : "; ") + note;
    return text;
}

std::string counts_text(const Comparison& c)
{
    std::string text;
    for (auto v : {CompareVerdict::slower, CompareVerdict::faster, CompareVerdict::same, CompareVerdict::ambiguous,
                   CompareVerdict::not_measured, CompareVerdict::added, CompareVerdict::removed})
        if (const auto n = c.count(v))
            text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, to_string(v));
    return text.empty() ? "nothing to compare" : text;
}

// Display width of UTF-8 text: one column per code point (µ, ±, σ, → are one each).
std::size_t width(const std::string& s)
{
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t w, bool right)
{
    const std::string fill(w > width(s) ? w - width(s) : 0, ' ');
    return right ? fill + s : s + fill;
}

std::vector<std::vector<std::string>> rows_of(const Comparison& c)
{
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : c.entries)
        rows.push_back({e.kernel, e.arch, variables_text(e.problem), time_cell(e.base), time_cell(e.next), change_cell(e),
                        std::string(to_string(e.verdict)), winner_cell(e), notes_cell(e)});
    return rows;
}

const std::vector<std::string> headers{"kernel", "arch", "problem", "base µs", "new µs", "change", "verdict", "winner", "notes"};
const std::vector<bool> right_aligned{false, false, false, true, true, true, false, false, false};

} // namespace

std::string_view to_string(CompareVerdict verdict)
{
    switch (verdict) {
    case CompareVerdict::same: return "same";
    case CompareVerdict::faster: return "faster";
    case CompareVerdict::slower: return "slower";
    case CompareVerdict::ambiguous: return "ambiguous";
    case CompareVerdict::not_measured: return "not measured";
    case CompareVerdict::added: return "new";
    case CompareVerdict::removed: return "removed";
    }
    return "?";
}

TimeComparison classify_times(double base_seconds, std::optional<double> base_noise, double new_seconds,
                              std::optional<double> new_noise, double threshold)
{
    TimeComparison c;
    c.change = new_seconds / base_seconds - 1;
    const double nb = base_noise.value_or(0), nn = new_noise.value_or(0);
    c.sigma = std::sqrt(nb * nb + nn * nn);
    const double d = c.change;
    if (std::abs(d) <= threshold + rounding)
        c.verdict = CompareVerdict::same;
    else if (std::abs(d) <= noise_sigmas * c.sigma)
        c.verdict = CompareVerdict::ambiguous;
    else
        c.verdict = d > 0 ? CompareVerdict::slower : CompareVerdict::faster;
    return c;
}

void check_results_document(const json& document, const std::string& source)
{
    const auto fail = [&](const std::string& why) {
        throw CompareInputError(fmt::format("'{}' is not an autotune results file ({})", source, why));
    };
    if (!document.is_object())
        fail("not a JSON object");
    for (const char* field : {"kernel", "arch"})
        if (!document.contains(field) || !document.at(field).is_string())
            fail(fmt::format("no \"{}\" string", field));
    for (const char* field : {"problems", "variants"})
        if (!document.contains(field) || !document.at(field).is_array())
            fail(fmt::format("no \"{}\" array", field));
    for (const auto& problem : document.at("problems"))
        if (!problem.is_object() || !problem.contains("variables") || !problem.at("variables").is_object())
            fail("a problem without \"variables\"");
}

std::size_t Comparison::count(CompareVerdict verdict) const
{
    return static_cast<std::size_t>(
        std::count_if(entries.begin(), entries.end(), [verdict](const ComparisonEntry& e) { return e.verdict == verdict; }));
}

Comparison compare_results(const std::vector<ResultsDocument>& base, const std::vector<ResultsDocument>& next,
                           double threshold)
{
    if (!(threshold > 0) || !std::isfinite(threshold))
        throw std::invalid_argument(fmt::format("the threshold must be a positive fraction, not {}", threshold));
    const auto base_items = items_of(base);
    auto next_items = items_of(next);
    std::vector<std::string> matched_notes;
    match_one_named_by_file(base_items, next_items, any_named_by_file(base) || any_named_by_file(next), matched_notes);
    Comparison c;
    c.threshold = threshold;
    for (const auto& [key, item] : base_items) {
        const auto it = next_items.find(key);
        c.entries.push_back(compare_entry(&item, it == next_items.end() ? nullptr : &it->second, threshold));
        if (it != next_items.end())
            c.entries.back().notes.insert(c.entries.back().notes.end(), matched_notes.begin(), matched_notes.end());
    }
    for (const auto& [key, item] : next_items)
        if (!base_items.contains(key))
            c.entries.push_back(compare_entry(nullptr, &item, threshold));
    std::stable_sort(c.entries.begin(), c.entries.end(), entry_before);
    return c;
}

json comparison_json(const Comparison& c)
{
    const auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    json counts = json::object();
    for (auto v : {CompareVerdict::slower, CompareVerdict::faster, CompareVerdict::same, CompareVerdict::ambiguous,
                   CompareVerdict::not_measured, CompareVerdict::added, CompareVerdict::removed})
        counts[std::string(to_string(v))] = c.count(v);
    json entries = json::array();
    for (const auto& e : c.entries) {
        const auto field = [&](const std::optional<WinnerSide>& side, auto member) {
            return side ? optional((*side).*member) : json(nullptr);
        };
        entries.push_back({{"kernel", e.kernel},
                           {"arch", e.arch},
                           {"problem", e.problem},
                           {"base_seconds", field(e.base, &WinnerSide::seconds)},
                           {"new_seconds", field(e.next, &WinnerSide::seconds)},
                           {"base_noise", field(e.base, &WinnerSide::noise)},
                           {"new_noise", field(e.next, &WinnerSide::noise)},
                           {"change", optional(e.change)},
                           {"sigma", optional(e.sigma)},
                           {"verdict", to_string(e.verdict)},
                           {"base_winner", e.base ? e.base->winner : json(nullptr)},
                           {"new_winner", e.next ? e.next->winner : json(nullptr)},
                           {"winner_changed", e.winner_changed},
                           {"notes", e.notes},
                           {"base_file", e.base ? json(e.base->source) : json(nullptr)},
                           {"new_file", e.next ? json(e.next->source) : json(nullptr)}});
    }
    return {{"threshold_percent", 100 * c.threshold},
            {"noise_sigmas", noise_sigmas},
            {"regressions", c.regressions()},
            {"counts", counts},
            {"entries", entries}};
}

std::string comparison_table(const Comparison& c)
{
    const auto rows = rows_of(c);
    std::vector<std::size_t> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        widths[i] = width(headers[i]);
        for (const auto& row : rows)
            widths[i] = std::max(widths[i], width(row[i]));
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            // The last column is not padded: no trailing blanks.
            const bool last = i + 1 == cells.size();
            text += (i ? "  " : "") + (last ? cells[i] : pad(cells[i], widths[i], right_aligned[i]));
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        return text + "\n";
    };
    std::string out;
    if (!rows.empty()) {
        out += line(headers);
        for (const auto& row : rows)
            out += line(row);
        out += "\n";
    }
    out += fmt::format("{} compared at a {:g}% threshold (beyond 3σ of the recorded noise): {}\n", c.entries.size(),
                       100 * c.threshold, counts_text(c));
    if (c.regressions())
        out += fmt::format("{} regression{}: slower beyond the threshold and the noise\n", c.regressions(),
                           c.regressions() == 1 ? "" : "s");
    return out;
}

std::string comparison_markdown(const Comparison& c)
{
    const auto escape = [](const std::string& s) {
        std::string out;
        for (char ch : s)
            out += ch == '|' ? std::string("\\|") : std::string(1, ch);
        return out;
    };
    std::string md = "## autotune compare\n\n";
    md += c.regressions() ? fmt::format("**{} regression{}**", c.regressions(), c.regressions() == 1 ? "" : "s")
                          : std::string("**No regressions**");
    md += fmt::format(" at a {:g}% threshold; a change counts only beyond the threshold and 3σ of the recorded noise. "
                      "{}.\n\n",
                      100 * c.threshold, counts_text(c));
    if (c.entries.empty())
        return md;
    md += "|";
    for (const auto& h : headers)
        md += " " + h + " |";
    md += "\n|";
    for (bool right : right_aligned)
        md += right ? "---:|" : "---|";
    md += "\n";
    for (const auto& row : rows_of(c)) {
        md += "|";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string cell = escape(row[i]);
            md += " " + (i == 6 && (row[i] == "slower" || row[i] == "ambiguous") ? "**" + cell + "**" : cell) + " |";
        }
        md += "\n";
    }
    md += "\n";
    return md;
}

} // namespace autotune
