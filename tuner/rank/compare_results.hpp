// `autotune compare BASE NEW`: the winners of two sets of results documents, problem by
// problem, classified against the noise each measurement recorded, so that a nightly job
// can fail on a clear slowdown and never on a change that lies inside the noise.
//
// Entries are matched by (kernel, arch, problem variables); where each side holds one
// problem of one arch and either side's kernel was named after its file (an import of a
// T4 document, which names neither kernel nor problem size: kernel_named_by_file), the
// two are matched as one, with a note. For a matched problem the WINNER's measured
// median of each side is compared (the two winners may be different variants; that is
// reported). With
//
//   d = t_new / t_base − 1                       the relative change,
//   σ = sqrt(noise_base² + noise_new²)           the relative standard error of d under
//                                                "no change" (noise = the recorded
//                                                median_noise, else relative_spread / 2),
//   T = the threshold (0.05 for 5 %),
//
// the verdict is
//
//   slower     d >  T and d >  3σ   a change beyond the threshold and clear of the noise
//   faster     d < −T and d < −3σ
//   same       |d| ≤ T              not a change worth reporting, whatever the noise
//   ambiguous  |d| > T but |d| ≤ 3σ beyond the threshold, but inside the noise: the
//                                   measurements cannot tell (reported, not a failure)
//
// So a change inside the noise is never "slower", and neither is a change smaller than the
// threshold, however precisely measured: a median's standard error describes one run, and
// two nightly runs differ by more than that (clocks, temperature, another process), which
// is what the threshold absorbs. A note says when 3σ exceeds the threshold, i.e. when the
// measurements were too noisy to resolve a change of the threshold's size at all.
//
// Where a run rebuilt its best variants with nvcc (winner_as_built_by_nvcc), that winner
// and its time as nvcc builds it are the side's: the configuration the tuned header ships.
//
// A side whose winner was predicted, not measured (or that has no winner) cannot be
// compared in time: "not measured", and only whether the chosen variant changed is
// reported. Entries on one side only are "new" or "removed". Only "slower" is a regression.
#pragma once

#include <cstddef>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace autotune {

// A document that is not a results file, or two documents of one side claiming the same
// (kernel, arch, problem). The message names the source.
class CompareInputError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

enum class CompareVerdict { same, faster, slower, ambiguous, not_measured, added, removed };

// "same", "faster", "slower", "ambiguous", "not measured", "new", "removed".
[[nodiscard]] std::string_view to_string(CompareVerdict verdict);

struct TimeComparison {
    double change = 0; // d = t_new / t_base − 1
    double sigma = 0;  // σ = sqrt(noise_base² + noise_new²)
    CompareVerdict verdict = CompareVerdict::same;
};

// The rule above. Times in seconds (> 0), noises relative (0.01 for 1 %; nullopt counts
// as 0), threshold relative (> 0).
[[nodiscard]] TimeComparison classify_times(double base_seconds, std::optional<double> base_noise, double new_seconds,
                                            std::optional<double> new_noise, double threshold);

// A parsed results document and where it came from (named in errors and in the output).
struct ResultsDocument {
    std::string source;
    nlohmann::ordered_json document;
};

// Throws CompareInputError naming `source` unless `document` has a string kernel and
// arch, an array of problems (each with its variables object) and an array of variants.
void check_results_document(const nlohmann::ordered_json& document, const std::string& source);

struct WinnerSide {
    nlohmann::ordered_json winner;        // {index, params, basis}, or null (no winner)
    std::optional<double> seconds;        // the winner's measured median, when measured
    std::optional<double> noise;          // its relative median noise (or spread / 2)
    std::optional<double> sm_clock_mhz;   // the SM clock it was measured at
    std::string device;                   // the measuring device's name, "" when none
    std::string source;
};

struct ComparisonEntry {
    std::string kernel;
    std::string arch;
    nlohmann::ordered_json problem;        // the problem's variables
    std::optional<WinnerSide> base;        // absent: "new"
    std::optional<WinnerSide> next;        // absent: "removed"
    std::optional<double> change;          // d, when both sides were measured
    std::optional<double> sigma;           // σ, likewise
    CompareVerdict verdict = CompareVerdict::same;
    bool winner_changed = false;           // both sides have winners, and they differ
    std::vector<std::string> notes;
};

struct Comparison {
    double threshold = 0.05;
    std::vector<ComparisonEntry> entries; // ordered by kernel, arch, problem
    [[nodiscard]] std::size_t count(CompareVerdict verdict) const;
    [[nodiscard]] std::size_t regressions() const { return count(CompareVerdict::slower); }
    // Entries found on both sides: 0 when BASE and NEW share no kernel, arch and problem.
    [[nodiscard]] std::size_t compared() const
    {
        return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(),
                                                      [](const ComparisonEntry& e) { return e.base && e.next; }));
    }
};

// Throws CompareInputError (see check_results_document; also for a duplicate entry on
// one side, naming both sources) and std::invalid_argument for threshold ≤ 0.
[[nodiscard]] Comparison compare_results(const std::vector<ResultsDocument>& base,
                                         const std::vector<ResultsDocument>& next, double threshold);

// {"threshold_percent", "regressions", "counts", "entries": [{kernel, arch, problem,
// base_seconds, new_seconds, base_noise, new_noise, change, sigma, verdict, base_winner,
// new_winner, winner_changed, notes, base_file, new_file}]}; change and noises relative.
[[nodiscard]] nlohmann::ordered_json comparison_json(const Comparison& comparison);

// The terminal table, one row per entry, then a summary line.
[[nodiscard]] std::string comparison_table(const Comparison& comparison);

// A summary and a table for a CI job page.
[[nodiscard]] std::string comparison_markdown(const Comparison& comparison);

} // namespace autotune
