// autotune check-model SPEC --measured FILE --arch sm_XX [--device NAME] [--clock MHZ] [--sample N --seed K] [--compile-option=OPT] [--nvrtc PATH]
// [--json]: scores the model's ranking and its predicted failures against a measured file
// (a Kernel Tuner cache or an autotune results file). The pipeline and the scores are the
// engine's (tune/tune_problem.hpp, tune/model_check.hpp); this parses and prints.
#include "emit/assignments_text.hpp"
#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "cli/compile_cache_option.hpp"
#include "cli/output_paths.hpp"
#include "cli/progress_line.hpp"
#include "cli/nvrtc_option.hpp"
#include "cli/worker_programs.hpp"
#include "emit/kt_cache_import.hpp"
#include "emit/measured_file.hpp"
#include "emit/results_json.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "tune/failure_explanation.hpp"
#include "tune/model_check.hpp"
#include "tune/no_winner.hpp"
#include "tune/tune_problem.hpp"
#include "util/atomic_file.hpp"
#include "util/one_line.hpp"
#include "util/project_paths.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

struct CheckOptions {
    std::string spec, measured, arch, device, problem, cache, points, nvrtc;
    std::vector<std::string> compile_options; // beyond the spec's: what the measured binaries were compiled with
    std::size_t sample = 0;
    std::uint64_t seed = 1;
    double clock_mhz = 0; // --clock: the SM clock the GPU held while measured (0: none given)
    unsigned jobs = 0;
    double compile_timeout = 0; // set by its option's default
    bool json = false;
    bool quiet = false;
};

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

json scores_json(const OrderScores& s)
{
    return {{"spearman", optional_json(s.spearman)},
            {"top1_fraction", optional_json(s.top1_fraction)},
            {"best_in_top_1pct", optional_json(s.best_in_top_1pct)},
            {"best_in_top_5pct", optional_json(s.best_in_top_5pct)}};
}

std::string score_text(const std::optional<double>& value) { return value ? fmt::format("{:.3f}", *value) : "-"; }

// One row per joined point: what the model said beside what was measured.
void write_points(const std::filesystem::path& path, const MeasuredJoin& join, const TuningRun& run,
                  const std::vector<CheckedPoint>& points)
{
    json rows = json::array();
    for (std::size_t p = 0; p < points.size(); ++p) {
        const CheckedPoint& c = points[p];
        json predicted_time = nullptr;
        const std::size_t i = join.point_variant[p];
        if (i != static_cast<std::size_t>(-1) && run.ranking && run.ranking->variants[i].predicted_time)
            predicted_time = predicted_time_json(*run.ranking->variants[i].predicted_time);
        rows.push_back({{"params", join.points[p].params},
                        {"measured_seconds", optional_json(c.measured)},
                        {"predicted_failure", c.predicted_failure.empty() ? json(nullptr) : json(c.predicted_failure)},
                        {"predicted_rank", c.predicted_rank > 0 ? json(c.predicted_rank) : json(nullptr)},
                        {"occupancy", optional_json(c.occupancy)},
                        {"resident_warps", c.resident_warps ? json(*c.resident_warps) : json(nullptr)},
                        {"registers", c.registers ? json(*c.registers) : json(nullptr)},
                        {"predicted_time", predicted_time}});
    }
    write_file_atomically(path, rows.dump(1) + "\n");
}

// Why the prediction is not for the device the measured file names, and for which it is.
std::string device_not_found_note(const std::string& reported, const TuneSetup& setup)
{
    const std::string instead = setup.roofline_device ? fmt::format("the prediction is for {}, {}'s default",
                                                                     setup.roofline_device->key, setup.arch.name())
                                                      : fmt::format("the table has no device of {}", setup.arch.name());
    if (const DeviceSpec* other = find_device_by_name(reported))
        return fmt::format("the measured file's device {} is {}, sm_{}, not {}; {} (--device names another)", reported,
                           other->key, other->compute_capability, setup.arch.name(), instead);
    return fmt::format("the device table has no '{}', the measured file's device; {} (--device names another; autotune "
                       "archs lists them)",
                       reported, instead);
}

KernelSpec load_checked_spec(const std::string& path)
{
    if (path.empty())
        throw UsageError("autotune check-model needs a spec: autotune check-model SPEC --measured FILE --arch sm_XX");
    if (!std::filesystem::exists(path) && std::filesystem::is_regular_file(builtin_kernels_dir() / (path + ".toml")))
        return load_spec(builtin_kernels_dir() / (path + ".toml")); // a built-in kernel by name
    return load_spec(path);
}

int check_model(const CheckOptions& o)
{
    // Every input is checked before anything compiles.
    KernelSpec spec = load_checked_spec(o.spec);
    append_compile_options(spec, o.compile_options);
    for (const auto& note : spec.notes)
        std::cerr << "autotune: " << note << "\n";
    if (o.measured.empty())
        throw UsageError("autotune check-model needs --measured FILE (a Kernel Tuner cache, a T4 document or an autotune results file)");
    if (!std::filesystem::is_regular_file(o.measured))
        throw UsageError(fmt::format("--measured '{}' not found", o.measured));
    if (!o.points.empty())
        require_writable_file("--points", o.points);
    MeasuredFile measured;
    try {
        measured = read_measured_file(o.measured, o.problem); // --problem: of a results file of several, that one
    } catch (const std::invalid_argument& e) { // KtCacheError, a bad results file
        throw UsageError(one_line(e.what()));
    } catch (const ProblemError& e) { // a --problem that does not parse (the message names it)
        throw UsageError(one_line(e.what()));
    }
    // Compiled as what was measured: Kernel Tuner's caches were compiled by CuPy, which
    // adds -ftz=true to every compile (cupy/cuda/compiler.py) and which its files do not
    // record; an -ftz option given or in the spec decides instead.
    const auto names_ftz = [](const std::string& option) { return option.starts_with("-ftz") || option.starts_with("--ftz"); };
    const std::vector<std::string> assumed =
        measured.kernel_tuner && std::ranges::none_of(spec.compile_options, names_ftz)
            ? std::vector<std::string>{"-ftz=true"}
            : std::vector<std::string>{};
    TuneSetup setup;
    setup.spec = &spec;
    settle_compiler(setup, spec, CompilerKind::nvrtc, o.nvrtc, o.arch, o.compile_options);
    append_compile_options(spec, assumed); // after the probe: what is refused is the spec's or the user's
    setup.arch_spec = &find_arch_spec(setup.arch.number());
    setup.roofline_device = o.device.empty() ? default_device_for(setup.arch.number()) : &find_device_spec(o.device);
    setup.roofline_device_named = !o.device.empty();
    if (setup.roofline_device && setup.roofline_device->compute_capability != setup.arch.number())
        throw UsageError(fmt::format("--device {} is sm_{}, not {}", setup.roofline_device->key,
                                     setup.roofline_device->compute_capability, setup.arch.name()));
    if (o.clock_mhz > 0 && !setup.roofline_device)
        throw UsageError(fmt::format("--clock {:g}: the device table has no device of {} to predict for at that clock",
                                     o.clock_mhz, setup.arch.name()));
    if (o.clock_mhz > 0)
        setup.sm_clock_mhz = o.clock_mhz;
    const std::vector<Problem> problems = resolve_problems(spec, o.problem.empty() ? std::vector<std::string>{}
                                                                                   : std::vector<std::string>{o.problem});
    if (problems.size() != 1)
        throw UsageError(fmt::format("the spec of {} has {} problems; name one with --problem", spec.name, problems.size()));
    // Without --device the prediction is for the device the file was measured on, where the
    // table has it and it is of --arch.
    const DeviceSpec* file_device = find_device_of_arch(measured.device, setup.arch.number());
    if (file_device && o.device.empty())
        setup.roofline_device = file_device;
    const std::string device_source = !setup.roofline_device ? ""
                                      : !o.device.empty()     ? "--device"
                                      : file_device           ? "measured file"
                                                              : "arch default";
    // The clock the file's measurements held (autotune's record it), where --clock names none.
    if (!setup.sm_clock_mhz && setup.roofline_device)
        setup.sm_clock_mhz = measured.sm_clock_mhz;
    MeasuredJoin join;
    try {
        if (o.sample > 0) {
            std::vector<MeasuredConfiguration> sampled;
            for (const std::size_t p : sample_positions(measured.configurations.size(), o.sample, o.seed))
                sampled.push_back(measured.configurations[p]);
            measured.configurations = std::move(sampled);
        }
        join = join_measured(spec, problems.front(), measured, o.measured);
        for (const auto& note : join.notes)
            std::cerr << "autotune: " << note << "\n";
        // Said, not silent: waves, the tail and the ceilings are then another GPU's.
        if (o.device.empty() && !measured.device.empty() && !file_device)
            std::cerr << "autotune: " << device_not_found_note(measured.device, setup) << "\n";
    } catch (const std::invalid_argument& e) { // KtCacheError, ModelCheckError, a bad results file
        throw UsageError(one_line(e.what()));
    }
    // Each configuration at the clock it ran at, where the file says (a GPU that throttles,
    // an energy-tuning space whose nvml_gr_clock is a parameter), unless --clock names one.
    if (o.clock_mhz <= 0 && setup.roofline_device)
        for (std::size_t p = 0; p < join.points.size(); ++p)
            if (join.point_variant[p] != static_cast<std::size_t>(-1) && join.points[p].sm_clock_mhz)
                setup.variant_clock_mhz[join.variants[join.point_variant[p]].index] = *join.points[p].sm_clock_mhz;

    setup.selection = SpaceSelection::full;
    setup.compile.jobs = o.jobs;
    setup.compile.limits = compile_limits(o.compile_timeout);
    setup.compile.nvcc = default_nvcc();
    setup.compile.project_root = project_root();
    setup.not_measured = "check-model: the measurements are the file's";
    ProgressLine progress(progress_style(o.quiet, o.json), "compiling", std::cerr);
    setup.compile.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    setup.compile.failed = compile_errors_note(progress);
    setup.progress.phase = [&progress](const std::string& label) { progress.relabel(label); };
    setup.progress.phase_done = [&progress] { progress.finish(); };
    use_compile_cache(o.cache, setup.compile, [&progress](const std::string& line) { progress.say(line); });
    const TuningRun run = predict_problem(setup, problems.front(), join.variants);
    // Nothing compiled (or nothing can run): there is no ranking to score.
    if (const auto failure = no_winner_line({run}, spec.spec_path.string())) {
        std::cerr << "autotune: " << *failure << "\n";
        return exit_failed;
    }
    const std::vector<CheckedPoint> points = checked_points(join, run);
    const ModelCheck check = score_model(points);
    const auto disagreement = [&](std::size_t p) -> FailureDisagreement {
        const CheckedPoint& c = points[p];
        return {c.measured.has_value(), join.points[p].failure, join.points[p].status, c.predicted_failure, c.threads,
                c.registers};
    };
    const auto explanation = [&](std::size_t p) { return explain_failure_disagreement(disagreement(p), *setup.arch_spec); };

    std::size_t by_registers = 0;
    for (const std::size_t p : check.misses)
        by_registers += registers_explain(disagreement(p), *setup.arch_spec);
    for (const std::size_t p : check.unpredicted)
        by_registers += registers_explain(disagreement(p), *setup.arch_spec);

    if (!o.points.empty())
        write_points(o.points, join, run, points);

    const std::string device = setup.roofline_device ? setup.roofline_device->key : "none";
    // The SM clock the predicted times are at: --clock, the file's recorded one, else the device's boost.
    const std::optional<double> clock_mhz =
        setup.sm_clock_mhz ? setup.sm_clock_mhz
        : setup.roofline_device ? std::optional<double>(setup.roofline_device->boost_clock_mhz)
                                : std::nullopt;
    const std::string clock_source = !clock_mhz ? "" : o.clock_mhz > 0 ? "--clock"
                                     : setup.sm_clock_mhz ? "measured file"
                                                          : "device boost";
    const auto source_json = [](const std::string& source) { return source.empty() ? json(nullptr) : json(source); };
    if (o.json) {
        json misses = json::array();
        for (const std::size_t p : check.misses)
            misses.push_back({{"params", join.points[p].params},
                              {"measured_seconds", *points[p].measured},
                              {"registers", points[p].registers ? json(*points[p].registers) : json(nullptr)},
                              {"predicted_failure", points[p].predicted_failure},
                              {"explanation", explanation(p)}});
        json unpredicted = json::array();
        for (const std::size_t p : check.unpredicted)
            unpredicted.push_back({{"params", join.points[p].params},
                                   {"measured_failure", join.points[p].failure},
                                   {"registers", points[p].registers ? json(*points[p].registers) : json(nullptr)},
                                   {"explanation", explanation(p)}});
        json out{{"spec", o.spec},
                 {"measured", o.measured},
                 {"measured_format", measured.format},
                 {"measured_device", measured.device.empty() ? json(nullptr) : json(measured.device)},
                 {"arch", setup.arch.name()},
                 {"device", device},
                 {"device_source", source_json(device_source)},
                 {"clock_mhz", optional_json(clock_mhz)},
                 {"clock_source", source_json(clock_source)},
                 {"clock_per_configuration", !setup.variant_clock_mhz.empty()},
                 {"problem", problems.front().to_string()},
                 {"sample", o.sample > 0 ? json(o.sample) : json(nullptr)},
                 {"seed", o.seed},
                 {"outside_space", join.outside_space},
                 {"not_measured", measured.not_measured},
                 {"points", check.points},
                 {"ran", check.ran},
                 {"measured_failures", check.measured_failures},
                 {"predicted_failures", check.predicted_failures},
                 {"failures_agree", check.failures_agree},
                 {"failures_only_measured", check.failures_only_measured},
                 {"failures_only_predicted", check.failures_only_predicted},
                 {"failures_by_registers", by_registers},
                 {"compile_options", spec.compile_options},
                 {"compile_options_assumed", assumed},
                 {"nvrtc_version", setup.compile.nvrtc.version}};
        const json model = scores_json(check.model); // a named object: items() would dangle on a temporary
        for (const auto& [key, value] : model.items())
            out[key] = value;
        out["baselines"] = {{"random", scores_json(check.random)}, {"occupancy_first", scores_json(check.occupancy_first)}};
        const auto scale_json = [](const std::optional<TimeScale>& scale) {
            return scale ? json{{"median", scale->median},
                                {"lower_quartile", scale->lower_quartile},
                                {"upper_quartile", scale->upper_quartile},
                                {"points", scale->points}}
                         : json(nullptr);
        };
        out["measured_over_predicted"] = scale_json(check.measured_over_predicted);
        const auto groups_json = [&](const std::map<std::string, TimeScale>& groups) {
            json by = json::object();
            for (const auto& [group, scale] : groups)
                by[group] = scale_json(scale);
            return by;
        };
        out["measured_over_predicted_by_bound"] = groups_json(check.measured_over_predicted_by_bound);
        out["measured_over_predicted_by_warps_per_scheduler"] =
            groups_json(check.measured_over_predicted_by_warps_per_scheduler);
        json by_parameter = json::object();
        for (const auto& [parameter, by_value] : check.measured_over_predicted_by_parameter)
            by_parameter[parameter] = groups_json(by_value);
        out["measured_over_predicted_by_parameter"] = by_parameter;
        out["instructions_counted_over_predicted"] = scale_json(check.instructions_counted_over_predicted);
        out["dram_bytes_counted_over_predicted"] = scale_json(check.dram_bytes_counted_over_predicted);
        out["misses"] = misses;
        out["unpredicted_failures"] = unpredicted;
        std::cout << out.dump(2) << "\n";
        return exit_ok;
    }
    std::cout << fmt::format("check-model: {} for {} ({}{}) against {} ({}{}): {} points, {} ran\n", spec.name,
                             setup.arch.name(), device,
                             clock_mhz ? fmt::format(" at {:g} MHz{}", *clock_mhz,
                                                     clock_source == "device boost" ? ", its boost"
                                                     : clock_source != "measured file" ? ""
                                                     : setup.variant_clock_mhz.empty()
                                                         ? ", the file's median measured clock"
                                                         : ", the file's median; each configuration at its own")
                                       : "",
                             o.measured, measured.format,
                             measured.device.empty() ? "" : ", " + measured.device, check.points, check.ran);
    if (!o.compile_options.empty() || !assumed.empty() || !o.nvrtc.empty())
        std::cout << fmt::format("compiled with: {}, {}{}\n", describe(setup.compile.nvrtc),
                                 fmt::join(spec.compile_options, " "),
                                 assumed.empty() ? ""
                                                 : " (-ftz=true as Kernel Tuner's CuPy backend compiles; "
                                                   "--compile-option=-ftz=false compiles without)");
    if (join.outside_space > 0 || measured.not_measured > 0)
        std::cout << fmt::format("left out: {} configurations outside the spec's values, {} records not measured\n",
                                 join.outside_space, measured.not_measured);
    std::cout << fmt::format("\n{:<18} {:>8} {:>16} {:>8}\n", "", "model", "occupancy-first", "random");
    const auto row = [&](const char* name, auto member) {
        std::cout << fmt::format("{:<18} {:>8} {:>16} {:>8}\n", name, score_text(check.model.*member),
                                 score_text(check.occupancy_first.*member), score_text(check.random.*member));
    };
    row("spearman", &OrderScores::spearman);
    row("top1_fraction", &OrderScores::top1_fraction);
    row("best_in_top_1pct", &OrderScores::best_in_top_1pct);
    row("best_in_top_5pct", &OrderScores::best_in_top_5pct);
    // Apart from the order: an even factor is the clock or the like (--clock takes it out).
    if (const auto& scale = check.measured_over_predicted)
        std::cout << fmt::format("\nmeasured / predicted time: median {:.2f}, quartiles {:.2f}-{:.2f} ({} points)\n",
                                 scale->median, scale->lower_quartile, scale->upper_quartile, scale->points);
    // Where it is off: by what the model says bounds the time (the most common bound first),
    // and by how many warps each scheduler holds (fewest first).
    const auto groups_line = [](const std::string& label, const std::map<std::string, TimeScale>& by, bool most_first) {
        if (by.size() < 2)
            return;
        std::vector<std::pair<std::string, TimeScale>> groups(by.begin(), by.end());
        if (most_first)
            std::stable_sort(groups.begin(), groups.end(),
                             [](const auto& a, const auto& b) { return a.second.points > b.second.points; });
        std::vector<std::string> parts;
        for (const auto& [name, scale] : groups)
            parts.push_back(fmt::format("{} {:.2f} ({})", name, scale.median, scale.points));
        std::cout << fmt::format("  by {}: {}\n", label, fmt::join(parts, ", "));
    };
    groups_line("the term that bounds it", check.measured_over_predicted_by_bound, true);
    groups_line("resident warps per scheduler", check.measured_over_predicted_by_warps_per_scheduler, false);
    // The one parameter whose values sort the error most (values of at least 3 points),
    // its values in order: the first place to look for what the model misjudges.
    if (const auto widest = widest_parameter_spread(check, 3)) {
        const auto& by_value = check.measured_over_predicted_by_parameter.at(widest->parameter);
        std::vector<std::pair<std::string, TimeScale>> values(by_value.begin(), by_value.end());
        const auto number = [](const std::string& text) {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            return end != text.c_str() && *end == '\0' ? std::optional<double>(v) : std::nullopt;
        };
        std::stable_sort(values.begin(), values.end(), [&](const auto& a, const auto& b) {
            const auto x = number(a.first), y = number(b.first);
            return x && y ? *x < *y : a.first < b.first;
        });
        std::vector<std::string> parts;
        for (const auto& [value, scale] : values)
            parts.push_back(fmt::format("{} {:.2f} ({})", value, scale.median, scale.points));
        std::cout << fmt::format("  by {}, the parameter that sorts it most ({:.2f}x between its values' medians): {}\n",
                                 widest->parameter, widest->spread, fmt::join(parts, ", "));
    }
    // The issue term's count apart from the time, where the file carries a profiler's count.
    if (const auto& counted = check.instructions_counted_over_predicted)
        std::cout << fmt::format("counted / predicted warp instructions: median {:.2f}, quartiles {:.2f}-{:.2f} ({} "
                                 "points, the file's smsp__inst_executed.sum)\n",
                                 counted->median, counted->lower_quartile, counted->upper_quartile, counted->points);
    if (const auto& counted = check.dram_bytes_counted_over_predicted)
        std::cout << fmt::format("counted / predicted DRAM bytes: median {:.2f}, quartiles {:.2f}-{:.2f} ({} points, the "
                                 "file's dram__sectors_read.sum + dram__sectors_write.sum)\n",
                                 counted->median, counted->lower_quartile, counted->upper_quartile, counted->points);
    std::cout << fmt::format("\nfailures: {} measured, {} predicted; {} agree, {} only measured, {} only predicted\n",
                             check.measured_failures, check.predicted_failures, check.failures_agree,
                             check.failures_only_measured, check.failures_only_predicted);
    // Registers a launch contradicts mean the binaries measured were not this compile's.
    if (by_registers > 0) {
        // Kernel Tuner's files record no options; its CuPy backend adds one (docs/prediction.md).
        const bool flushing = std::ranges::find(spec.compile_options, "-ftz=true") != spec.compile_options.end();
        std::cout << fmt::format("{} of the {} disagreements are register counts: the binaries measured were compiled "
                                 "otherwise (another toolkit: --nvrtc, or options the spec does not name{})\n",
                                 by_registers, check.misses.size() + check.unpredicted.size(),
                                 measured.kernel_tuner && !flushing ? "; Kernel Tuner's CuPy backend adds -ftz=true to every "
                                                             "compile: --compile-option=-ftz=true"
                                                           : "");
    }
    if (!check.misses.empty()) {
        std::cout << "ran, though predicted to fail:\n";
        for (const std::size_t p : check.misses)
            std::cout << fmt::format("  {}  {:.6g} s  registers {}: {}\n    {}\n", assignments_text(join.points[p].params),
                                     *points[p].measured,
                                     points[p].registers ? std::to_string(*points[p].registers) : "-",
                                     points[p].predicted_failure, explanation(p));
    }
    // Listed in full by --json; here the first few and how many more.
    constexpr std::size_t unpredicted_shown = 10;
    if (!check.unpredicted.empty()) {
        std::cout << "failed, though predicted to run:\n";
        for (std::size_t k = 0; k < std::min(check.unpredicted.size(), unpredicted_shown); ++k) {
            const std::size_t p = check.unpredicted[k];
            std::cout << fmt::format("  {}  {}  registers {}\n    {}\n", assignments_text(join.points[p].params),
                                     join.points[p].failure,
                                     points[p].registers ? std::to_string(*points[p].registers) : "-", explanation(p));
        }
        if (check.unpredicted.size() > unpredicted_shown)
            std::cout << fmt::format("  ... {} more (--json lists every one)\n",
                                     check.unpredicted.size() - unpredicted_shown);
    }
    return exit_ok;
}

} // namespace

int check_model_command(const Arguments& args)
{
    CheckOptions o;
    CommandLine line("usage: autotune check-model SPEC --measured FILE --arch sm_XX [--device NAME] [--clock MHZ] [--sample N --seed K] "
                     "[--compile-option=OPT] [--nvrtc PATH] [--points FILE] [--json]\n\n"
                     "Compiles the configurations a measured file holds (a Kernel Tuner cache, a T4 document,\n"
                     "or an autotune results file with measurements), predicts each the way `autotune run`\n"
                     "does, and scores the model against the measured times: spearman (predicted order vs\n"
                     "time), top1_fraction (the optimum over the time of the predicted best),\n"
                     "best_in_top_1pct/5pct (the optimum over the best time among the predicted first\n"
                     "ceil(1%/5% of the points that ran)), beside the same for a random pick (exact\n"
                     "expectations) and for highest predicted occupancy first; and the failures the pipeline\n"
                     "predicts (compile errors, launchability) against the measured ones, each disagreement\n"
                     "explained where a limit can (a launch bounds the registers of the binary measured).\n"
                     "Beside the order, how far the predicted times are: the median and quartiles of\n"
                     "measured / predicted (a GPU held below the table's boost clock, as a profiler holds it,\n"
                     "is slower evenly where the SMs bound the time: --clock MHZ predicts at its clock), and the\n"
                     "same for the points each term of the model bounds (where it is off, by what it says limits\n"
                     "the time), by resident warps per scheduler and by each parameter's value (the text names\n"
                     "the parameter whose values sort it most: what the model misjudges); where the file\n"
                     "counted each one's warp instructions (KTT's T4: Nsight Compute's\n"
                     "smsp__inst_executed.sum), counted / predicted the same way.\n"
                     "Parameters are joined by name; a parameter missing on one side is an error unless the\n"
                     "other holds it at one value (a fixed setting: noted). A file Kernel Tuner measured is\n"
                     "compiled as its CuPy backend compiled it: with -ftz=true (--compile-option=-ftz=false:\n"
                     "without).");
    line.options()
        ("measured", po::value(&o.measured), "FILE: a Kernel Tuner cache (.json or .json.gz), a T4 document or an autotune results file")
        ("arch", po::value(&o.arch)->required(), "the architecture to compile for: sm_XX")
        ("device", po::value(&o.device), "device the prediction is for (autotune archs lists them; default: the measured file's device where the table has it, else the arch's)")
        ("clock", ranged_value(&o.clock_mhz, {.least = 0, .most = highest_sm_clock_mhz, .least_excluded = true}),
         "MHZ: predict at this SM clock, the one the GPU held while measured (a profiler locks it to the base clock; "
         "default: each configuration at the clock the file records for it (autotune's sm_clock_mhz, Kernel Tuner's "
         "core_freq or nvml_gr_clock), else the device's boost)")
        ("problem", po::value(&o.problem), "K=V,...: the problem, over the spec's defaults, and of a results file of several "
                   "problems the one checked (default: the spec's one problem)")
        ("sample", ranged_value(&o.sample, {.least = 1}), "N: check a seeded sample of N of the file's configurations (default: all)")
        ("seed", ranged_value(&o.seed, seed_range)->default_value(1), "K: the sample's seed")
        ("jobs,j", ranged_value(&o.jobs, jobs_range)->default_value(0), "parallel compiles (0: all cores)");
    add_compile_timeout_option(line.options(), o.compile_timeout);
    add_nvrtc_option(line.options(), o.nvrtc);
    add_compile_option_option(line.options(), o.compile_options,
                              "to compile what was measured (for a file Kernel Tuner measured, -ftz=true is added "
                              "unless an -ftz option is given: its CuPy backend compiles so)");
    line.options()
        ("cache", po::value(&o.cache), "compile cache directory, or 'none' (default: ~/.cache/autotune)")
        ("points", po::value(&o.points), "FILE: also write every joined point (parameters, measured time, the model's rank, "
                   "predicted time with its terms) as JSON, to see where the model is wrong")
        ("json", po::bool_switch(&o.json), "print JSON")
        ("quiet,q", po::bool_switch(&o.quiet), "no progress line");
    line.positional("spec", po::value(&o.spec));
    if (!line.parse(args))
        return exit_ok;
    return check_model(o);
}

} // namespace autotune::cli
