#include "emit/markdown_report.hpp"

#include "emit/assignments_text.hpp"
#include "emit/number_format.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <vector>

namespace autotune {
namespace {

using json = nlohmann::ordered_json;

// Every figure goes through format_figure, so the report writes numbers one way.
std::string figure(const json& value, double scale = 1)
{
    return value.is_null() ? "–" : format_figure(value.get<double>() * scale);
}

std::string percent(const json& fraction)
{
    return fraction.is_null() ? "–" : format_figure(100 * fraction.get<double>()) + "%";
}

} // namespace

std::string markdown_report_section(const json& results, const std::vector<ReportPicture>& pictures, std::size_t top)
{
    const json& problem = results.at("problems").at(0);
    const bool measured = problem.value("measured", false);
    std::string variables;
    for (const auto& [name, value] : problem.at("variables").items())
        variables += fmt::format("{}{} = {}", variables.empty() ? "" : ", ", name, value.get<std::int64_t>());
    // The problem is in the heading: a file of several problems has a section each.
    std::string md = fmt::format("## {} on {} — {}\n\n", results.at("kernel").get<std::string>(),
                                 results.at("device").is_null() ? results.at("arch").get<std::string>() + ", not measured"
                                                                : results.at("device").at("name").get<std::string>() +
                                                                      " (" + results.at("arch").get<std::string>() + ")",
                                 variables);
    if (!measured)
        md += fmt::format("**Nothing was measured** ({}): every figure below is the model's prediction.\n\n",
                          results.value("not_measured", json()).is_null() ? "compile-only run"
                              : results.at("not_measured").get<std::string>());
    const bool flops_given = problem.at("flops").get<double>() > 0;
    if (flops_given)
        md += fmt::format("Problem {}: {} GFLOP, {} MB moved at least, {} flop/byte", variables,
                          figure(problem.at("flops"), 1e-9), figure(problem.at("bytes"), 1e-6), figure(problem.at("intensity")));
    else // a copy kernel's, or a spec that gives no flops (a T1 file): no intensity to be bound by
        md += fmt::format("Problem {}: {} MB moved at least, and no flops (a [cost] table's flops; a T1 file gives none)",
                          variables, figure(problem.at("bytes"), 1e-6));
    if (problem.at("ceilings").is_null())
        md += "; no ceilings are known for this architecture.\n\n";
    else if (!flops_given)
        md += fmt::format("; the roof is the bandwidth's alone: {} GB/s ({}).\n\n",
                          figure(problem.at("ceilings").at("bandwidth_gbs")),
                          problem.at("ceilings").at("source").get<std::string>());
    else
        md += fmt::format("; ridge {} flop/byte, so **{}-bound**. Ceilings: {} GFLOP/s and {} GB/s at {} MHz ({}).\n\n",
                          figure(problem.at("ridge")), problem.at("bound").get<std::string>(),
                          figure(problem.at("ceilings").at("compute_gflops")),
                          figure(problem.at("ceilings").at("bandwidth_gbs")), figure(problem.at("ceilings").at("clock_mhz")),
                          problem.at("ceilings").at("source").get<std::string>());
    for (const auto& picture : pictures)
        md += fmt::format("![{}]({})\n\n", picture.alt, picture.file);

    std::vector<const json*> ranked;
    std::map<std::string, std::size_t> statuses;
    for (const auto& v : results.at("variants")) {
        ++statuses[v.at("status").get<std::string>()];
        if (!v.value("rank", json()).is_null())
            ranked.push_back(&v);
    }
    std::sort(ranked.begin(), ranked.end(),
              [](const json* a, const json* b) { return a->at("rank").get<std::size_t>() < b->at("rank").get<std::size_t>(); });
    if (!ranked.empty()) {
        const json& w = *ranked.front();
        md += fmt::format("**Winner** ({}): #{} `{}`", measured ? "measured" : "predicted", w.at("index").get<std::size_t>(),
                          assignments_text(w.at("params"), " "));
        md += measured ? fmt::format(" — {} µs, {} of the roof.\n\n",
                                     figure(w.at("measurement").at("time_seconds").at("median"), 1e6),
                                     percent(w.at("roofline_fraction")))
                       : fmt::format(" — {} of the roof by the model.\n\n", percent(w.at("predicted_fraction")));
        md += w.at("diagnosis").empty() ? "Diagnosis: nothing holds it below the roof that the tuner can see.\n\n"
                                        : "Diagnosis, cheapest ceiling first:\n\n";
        for (const auto& d : w.at("diagnosis"))
            md += fmt::format("- {}\n", d.get<std::string>());
        md += "\n";
    }

    // The best variants rebuilt as a consumer builds them (a measured run did that).
    if (const json builds = problem.value("nvcc_builds", json::array()); !builds.empty()) {
        md += "As nvcc builds them (`-Xcicc=--sharedmem32=0`, the consumer's build), fastest first:\n\n"
              "| # | machine code | median µs | |\n|---:|---|---:|---|\n";
        for (const auto& b : builds)
            md += fmt::format("| {} | {} | {} | {} |\n", b.at("index").get<std::size_t>(),
                              b.at("sass_sha256").is_null() ? "–"
                                  : b.at("same_machine_code").get<bool>() ? "as NVRTC built it" : "other than NVRTC's (measured again)",
                              figure(b.at("median_seconds"), 1e6),
                              b.at("error").is_null() ? "" : b.at("error").get<std::string>());
        const json& shipped = problem.value("winner_as_built_by_nvcc", json());
        md += shipped.is_object() ? fmt::format("\nThe tuned header keeps #{}.\n\n", shipped.at("index").get<std::size_t>())
                                  : "\nNone ran as nvcc built it: the tuned header keeps the winner above.\n\n";
    }

    md += fmt::format("Top {} of {} ranked variants:\n\n", std::min(top, ranked.size()), ranked.size());
    md += measured ? "| rank | # | parameters | regs | occupancy | median µs | GFLOP/s | GB/s | roof | model | diagnosis |\n"
                     "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
                   : "| rank | # | parameters | regs | occupancy | model | diagnosis |\n|---:|---:|---|---:|---:|---:|---|\n";
    for (std::size_t k = 0; k < std::min(top, ranked.size()); ++k) {
        const json& v = *ranked[k];
        const std::string first = v.at("diagnosis").empty() ? "" : v.at("diagnosis").at(0).get<std::string>();
        const std::string occupancy = v.at("occupancy").is_null() ? "–"
            : percent(v.at("occupancy").at("fraction"));
        if (measured)
            md += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n", k + 1,
                              v.at("index").get<std::size_t>(), assignments_text(v.at("params"), " "), v.at("registers").get<int>(),
                              occupancy, figure(v.at("measurement").at("time_seconds").at("median"), 1e6),
                              figure(v.at("gflops")), figure(v.at("gbps")), percent(v.at("roofline_fraction")),
                              percent(v.at("predicted_fraction")), first);
        else
            md += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} |\n", k + 1, v.at("index").get<std::size_t>(),
                              assignments_text(v.at("params"), " "), v.at("registers").get<int>(), occupancy,
                              percent(v.at("predicted_fraction")), first);
    }
    md += "\n";
    if (measured && !problem.at("prediction_quality").is_null()) {
        const json& q = problem.at("prediction_quality");
        md += fmt::format("Prediction quality: the model ranked the measured winner {}{}; Spearman correlation of the "
                          "model with the measurements {}.\n\n",
                          q.at("measured_winner_predicted_rank").is_null() ? std::string("–")
                              : std::to_string(q.at("measured_winner_predicted_rank").get<std::size_t>()),
                          q.at("measured_winner_in_predicted_top10").get<bool>() ? " (in its top 10)" : " (outside its top 10)",
                          figure(q.at("spearman")));
    }
    std::string counts;
    for (const auto& [status, count] : statuses)
        counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count, status);
    md += fmt::format("Variants by status: {}.\n\n", counts);
    return md;
}

} // namespace autotune
