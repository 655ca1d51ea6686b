// autotune replay RESULTS --strategy NAME --budget N|P% [--problem M=..] [--seed K] [--static COMPILED]
//     [--prior OTHER] [--json] [--trace]:
// runs a search strategy on a recorded space — the variants of one problem of a results
// file, ours or an imported Kernel Tuner cache — answering each evaluation with the
// recorded objective (Kernel Tuner's time for an imported cache, else the median), and reports how close to the problem's fastest variant the search came
// within the budget. --static (a compile-only run of the space) and --prior (the space
// measured on another GPU) give the strategy what a tuning run knows before measuring.
#include "emit/assignments_text.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "emit/measured_times_file.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_reader.hpp"
#include "spec/problem.hpp"
#include "strategy/replay.hpp"
#include "strategy/space_knowledge.hpp"
#include "util/one_line.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

// Runs `read`; what it refuses in its input becomes a usage error, `prefix` naming the option.
template <class Read>
void with_inputs_named(const std::string& prefix, Read&& read)
{
    try {
        read();
    } catch (const std::invalid_argument& e) {
        throw UsageError(prefix + one_line(e.what()));
    } catch (const ProblemError& e) {
        throw UsageError(prefix + one_line(e.what()));
    }
}

std::string names_text()
{
    std::string text;
    for (const auto& n : strategy_names())
        text += (text.empty() ? "" : ", ") + n;
    return text;
}

} // namespace

int replay_command(const Arguments& args)
{
    std::string results_path, strategy, budget_text, problem, static_path, prior_path;
    std::uint64_t seed = 1;
    bool as_json = false, trace = false, median = false;
    CommandLine line("usage: autotune replay RESULTS --strategy NAME --budget N|P% [--problem M=..] [--seed K] [--static COMPILED] "
                     "[--prior OTHER] [--json] [--trace]\n\n"
                     "Runs a search strategy on the variants of a results file (one of ours, or a Kernel Tuner\n"
                     "cache or T4 document, gzipped or not, read as `autotune import kt-cache` would write it),\n"
                     "each evaluation answered by the recorded objective: Kernel Tuner's `time` (the mean of its\n"
                     "samples) for a cache, so that a replay compares with published results, else the median\n"
                     "(failed or unmeasured variants: a failed evaluation). Reports the best time found, the\n"
                     "evaluations used and fraction_of_optimum = the file's fastest / the best found (1 = found\n"
                     "the optimum, 0 = found nothing).");
    line.options()
        ("strategy", po::value(&strategy), ("NAME: " + names_text()).c_str())
        ("budget", po::value(&budget_text), "N evaluations, or P% of the space's points (rounded up)")
        ("problem", po::value(&problem), "M=1024,...: which problem of a file that holds several")
        ("seed", ranged_value(&seed, seed_range)->default_value(1), "K: the strategy's seed (default 1)")
        ("json", po::bool_switch(&as_json), "print JSON")
        ("trace", po::bool_switch(&trace), "also list every evaluation in order")
        ("median", po::bool_switch(&median), "answer with the median of the samples instead of the objective (more robust to outliers)")
        ("static", po::value(&static_path), "COMPILED: a compile-only results file of the same space; its registers, spills, shared memory, occupancy and predicted times are the strategy's features, the predicted time its first guess")
        ("prior", po::value(&prior_path), "OTHER: the same space measured on another GPU (a results file, a Kernel Tuner cache or a T4 document); its times are a feature and the first guess; with --static, averaged with the predicted time in log time, what forest corrects");
    line.positional("results", po::value(&results_path));
    if (!line.parse(args))
        return exit_ok;
    if (results_path.empty())
        throw UsageError("autotune replay needs a results file (autotune replay RESULTS --strategy NAME --budget N|P%)");
    if (strategy.empty())
        throw UsageError("autotune replay needs --strategy NAME (" + names_text() + ")");
    const auto names = strategy_names();
    if (std::find(names.begin(), names.end(), strategy) == names.end())
        throw UsageError("unknown strategy '" + strategy + "' (known: " + names_text() + ")");
    if (budget_text.empty())
        throw UsageError("autotune replay needs --budget N or --budget P%");

    ReplaySpace space;
    json view;
    std::size_t evaluations = 0, static_points = 0, prior_points = 0;
    bool named_by_file = false; // the space's kernel is its file's name: names cannot match
    with_inputs_named("", [&] {
        const json document = read_measured_times_file(results_path);
        named_by_file = kernel_named_by_file(document);
        view = chosen_problem_view(document, problem, results_path);
        space = replay_space(view, results_path, median ? MeasuredFigure::median : MeasuredFigure::objective);
        evaluations = replay_budget(budget_text, space.space.points.size());
    });
    // What the space knows before measuring, from files of the same kernel's space.
    const std::string kernel = view.value("kernel", std::string());
    const auto compiled_facts_file = [&](const std::string& path) {
        try {
            return read_results_file(path);
        } catch (const std::invalid_argument&) {
            // Compiled facts come from a compile-only run; an import of measured times has none.
            if (is_kernel_tuners_file(path))
                throw std::invalid_argument(fmt::format("'{}' holds measured times, not compiled facts: a compile-only "
                                                        "run of the space makes them (autotune run SPEC --arch sm_XX "
                                                        "--compile-only)",
                                                        path));
            throw;
        }
    };
    const auto same_space = [&](const std::string& path, bool times_only) {
        json other = times_only ? read_measured_times_file(path) : compiled_facts_file(path);
        require_kernel(other, kernel, path, named_by_file);
        return chosen_problem_view(other, problem, path);
    };
    if (!static_path.empty())
        with_inputs_named("--static: ", [&] {
            static_points = add_static_facts(space.space, space.params, same_space(static_path, false), static_path);
        });
    if (!prior_path.empty())
        with_inputs_named("--prior: ", [&] {
            prior_points = add_prior_times(space.space, space.params, same_space(prior_path, true), prior_path,
                                           median ? MeasuredFigure::median : MeasuredFigure::objective);
        });
    Budget budget;
    budget.max_evaluations = evaluations;
    const ReplayOutcome o = replay(space, strategy, budget, seed);

    const auto best_index = o.best ? json(space.indices[*o.best]) : json(nullptr);
    if (as_json) {
        json out{{"results", results_path},
                 {"problem", view.value("problem", json(nullptr))},
                 {"strategy", strategy},
                 {"seed", seed},
                 {"budget", evaluations},
                 {"points", space.space.points.size()},
                 {"evaluations", o.evaluations},
                 {"failed_evaluations", o.failed},
                 {"best_time", o.best_time ? json(*o.best_time) : json(nullptr)},
                 {"best_index", best_index},
                 {"best_params", o.best ? space.params[*o.best] : json(nullptr)},
                 {"optimum_time", space.optimum},
                 {"fraction_of_optimum", o.fraction_of_optimum},
                 {"static_points", static_path.empty() ? json(nullptr) : json(static_points)},
                 {"prior_points", prior_path.empty() ? json(nullptr) : json(prior_points)}};
        if (trace) {
            json steps = json::array();
            for (std::size_t i = 0; i < o.trace.evaluated.size(); ++i)
                steps.push_back({{"index", space.indices[o.trace.evaluated[i]]},
                                 {"time", o.trace.times[i] ? json(*o.trace.times[i]) : json(nullptr)}});
            out["trace"] = steps;
        }
        std::cout << out.dump(2) << "\n";
        return exit_ok;
    }
    if (trace)
        for (std::size_t i = 0; i < o.trace.evaluated.size(); ++i) {
            const std::size_t p = o.trace.evaluated[i];
            std::cout << fmt::format("{:>5}  #{:<8} {:>12}  {}\n", i + 1, space.indices[p],
                                     o.trace.times[i] ? fmt::format("{:.6g} s", *o.trace.times[i]) : "failed",
                                     assignments_text(space.params[p]));
        }
    std::cout << fmt::format("{} on {}{} ({} points): {} evaluations of a budget of {}, {} failed\n", strategy, results_path,
                             problem.empty() ? "" : ", problem " + problem_view_text(view), space.space.points.size(),
                             o.evaluations, evaluations, o.failed);
    if (!static_path.empty())
        std::cout << fmt::format("static facts from {} for {} of {} points\n", static_path, static_points, space.space.points.size());
    if (!prior_path.empty())
        std::cout << fmt::format("prior times from {} for {} of {} points\n", prior_path, prior_points, space.space.points.size());
    if (o.best)
        std::cout << fmt::format("best found: #{} {} at {:.6g} s; the optimum {:.6g} s; fraction_of_optimum {:.4f}\n",
                                 space.indices[*o.best], assignments_text(space.params[*o.best]), *o.best_time,
                                 space.optimum, o.fraction_of_optimum);
    else
        std::cout << fmt::format("nothing found: every evaluation failed; fraction_of_optimum 0\n");
    return exit_ok;
}

} // namespace autotune::cli
