// autotune <kernel> / autotune run SPEC: the main job. Settles and checks every option,
// finds the GPU, tunes each problem (tune_problem.hpp) and writes one results file.
#include "arch/arch_spec.hpp"
#include "arch/arch_target.hpp"
#include "arch/device_spec.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/compile_cache_option.hpp"
#include "cli/header_generation.hpp"
#include "cli/option_range.hpp"
#include "cli/output_paths.hpp"
#include "cli/progress_line.hpp"
#include "cli/nvrtc_option.hpp"
#include "cli/worker_programs.hpp"
#include "emit/compile_table.hpp"
#include "emit/measured_times_file.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_reader.hpp"
#include "emit/results_json.hpp"
#include "emit/run_facts.hpp"
#include "measure/gpu_devices.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "strategy/search_measurements.hpp"
#include "strategy/search_space.hpp"
#include "strategy/space_knowledge.hpp"
#include "tune/no_winner.hpp"
#include "tune/lazy_search.hpp"
#include "tune/tune_problem.hpp"
#include "util/one_line.hpp"
#include "util/project_paths.hpp"
#include "util/scratch_dir.hpp"
#include "util/writable_directory.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <charconv>
#include <ctime>
#include <set>
#include <sstream>

namespace po = boost::program_options;

namespace autotune::cli {
namespace {

struct TuneOptions {
    std::string arch;
    std::vector<std::string> problems;
    std::string space = "default";
    std::string compiler = "nvrtc";
    std::string nvrtc; // --nvrtc PATH; empty: the linked NVRTC
    std::vector<std::string> compile_options; // --compile-option, beyond the spec's
    std::string nvcc_flags;
    std::string device;
    std::string variants; // comma-separated indices: tune only these
    std::string header;   // write the tuned header here after the run
    std::string strategy = "exhaustive";
    std::string budget;
    std::uint64_t seed = 1;
    std::string shard;    // "I/N"
    bool launch_bounds = false;
    std::string cache;
    std::string prior; // another GPU's results of the same kernel
    std::string out = "results";
    unsigned jobs = 0;
    bool compile_only = false;
    bool lazy_compile = false;
    double max_noise_percent = 1.0;
    std::size_t min_samples = 10;
    double max_seconds = 5.0;
    double variant_timeout = 60.0;
    double compile_timeout = 0; // set by its option's default
    bool json = false;
    bool quiet = false;
};

// --max-time and --variant-timeout: above zero, and at most a day.
constexpr OptionRange<double> seconds_range{.least = 0, .most = 86400, .least_excluded = true};

void add_tune_options(po::options_description_easy_init add, TuneOptions& o)
{
    add
        ("arch", po::value(&o.arch)->required(), "target architecture: sm_XX, e.g. sm_80, sm_90, sm_90a")
        ("problem", po::value(&o.problems)->composing(), "problem sizes, e.g. M=1024,N=1024,K=1024; repeat for several (default: the spec's problem set)")
        ("space", po::value(&o.space)->default_value("default"), "default: the spec's default space; full: all values")
        ("compile-only", po::bool_switch(&o.compile_only), "compile and predict; measure nothing")
        ("compiler", po::value(&o.compiler)->default_value("nvrtc"), "nvrtc (default; a pool of --jobs compile workers) or nvcc (one process per variant)")
        ("nvcc-flags", po::value(&o.nvcc_flags), "with --compiler nvcc: your build's extra nvcc flags, e.g. \"-Xcicc=--sharedmem32=0\"")
        ("strategy", po::value(&o.strategy)->default_value("exhaustive"), fmt::format("which variants get GPU time: {}", fmt::join(strategy_names(), ", ")).c_str())
        ("budget", po::value(&o.budget), "at most N measurements, P% of the variants the search may choose from, or a duration: 90s, 30m, 2h")
        ("seed", ranged_value(&o.seed, seed_range)->default_value(1), "seed of the strategy and of the input data")
        ("shard", po::value(&o.shard), "I/N: tune the I-th of N deterministic parts of the space (merge them with autotune merge)")
        ("launch-bounds", po::bool_switch(&o.launch_bounds), "sweep the register policy (launch bounds, register caps) around the 3 best and report the register/time frontier")
        ("prior", po::value(&o.prior), "RESULTS: the same kernel measured on another GPU (a results file, a Kernel Tuner cache or a T4 document); the search starts from its fastest variants and learns from its times")
        ("lazy-compile", po::bool_switch(&o.lazy_compile), "with a GPU and a --budget: compile only the variants the search measures (the strategy then sees parameters and --prior times, no compiled facts); without a GPU every variant is compiled and predicted")
        ("header", po::value(&o.header), "also write the tuned header for this kernel from every architecture's results in --out")
        ("variants", po::value(&o.variants), "only these variants: indices as the table's # column shows, e.g. 556650,556722")
        ("device", po::value(&o.device), "device whose datasheet ceilings apply (autotune archs lists them; default: the GPU measured on where the table has it, else the arch's)")
        ("jobs,j", ranged_value(&o.jobs, jobs_range)->default_value(0), "parallel compiles (0: all cores)");
    add_compile_timeout_option(add, o.compile_timeout);
    add_nvrtc_option(add, o.nvrtc);
    add_compile_option_option(add, o.compile_options, "as your build compiles the kernel (e.g. -use_fast_math)");
    add
        ("cache", po::value(&o.cache), "compile cache directory, or 'none' (default: ~/.cache/autotune)")
        ("out", po::value(&o.out)->default_value("results"), "results directory; writes DIR/<arch>/<kernel>.json")
        ("json", po::bool_switch(&o.json), "print the results JSON instead of the table")
        ("quiet,q", po::bool_switch(&o.quiet), "no progress lines on stderr (errors and warnings still print)")
        ("max-noise", ranged_value(&o.max_noise_percent, {.least = 0, .most = 100, .least_excluded = true})->default_value(1.0), "stop sampling when the median's relative standard error is below this, percent")
        ("min-samples", ranged_value(&o.min_samples, {.least = 1, .most = 1000000})->default_value(10), "samples before the noise rule may stop")
        ("max-time", ranged_value(&o.max_seconds, seconds_range)->default_value(5.0), "seconds of sampling per variant at most")
        ("variant-timeout", ranged_value(&o.variant_timeout, seconds_range)->default_value(60.0), "seconds after which a silent variant is killed and marked fault");
}

std::vector<std::string> split_flags(const std::string& text)
{
    std::vector<std::string> flags;
    std::istringstream words(text);
    for (std::string word; words >> word;)
        flags.push_back(word);
    return flags;
}

// The view of `document` for `problem`: the one with the same problem values, else the
// only one; a prior for another problem still ranks the variants much as this one does.
PriorResults prior_for(const nlohmann::ordered_json& document, const Problem& problem, const std::string& path)
{
    const std::vector<nlohmann::ordered_json> views = problem_views(document);
    for (const auto& view : views) {
        const auto& recorded = view.value("problem", nlohmann::ordered_json::object());
        if (std::all_of(problem.values.begin(), problem.values.end(), [&](const auto& v) {
                return recorded.contains(v.first) && recorded.at(v.first) == v.second;
            }))
            return {view, path};
    }
    if (views.size() == 1)
        return {views.front(), path};
    throw UsageError(fmt::format("--prior {}: holds {} problems and none is {}", path, views.size(), problem.to_string()));
}

SpaceSelection parse_space(const std::string& text)
{
    if (text == "default") return SpaceSelection::default_space;
    if (text == "full") return SpaceSelection::full;
    throw UsageError(fmt::format("--space '{}' is not one of: default, full", text));
}

CompilerKind parse_compiler(const std::string& text)
{
    try {
        return parse_compiler_kind(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

std::filesystem::path journal_path(const TuneOptions& o, const ArchTarget& arch, const KernelSpec& spec,
                                   const std::optional<std::pair<std::size_t, std::size_t>>& shard)
{
    auto name = results_file_name(spec.name, shard);
    name.replace(name.size() - 5, 5, ".journal.jsonl");
    return std::filesystem::path(o.out) / arch.name() / name;
}

// "I/N" with I < N; nullopt for "".
std::optional<std::pair<std::size_t, std::size_t>> parse_shard(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    std::size_t index = 0, count = 0;
    char slash = 0, extra = 0;
    std::istringstream in(text);
    if (!(in >> index >> slash >> count) || slash != '/' || (in >> extra) || count == 0 || index >= count)
        throw UsageError(fmt::format("--shard '{}' is not I/N with 0 <= I < N (e.g. 0/4)", text));
    return std::pair{index, count};
}

// --variants "556650,556722": full-space indices.
std::set<std::size_t> parse_variant_list(const std::string& list)
{
    std::set<std::size_t> wanted;
    std::stringstream stream(list);
    for (std::string item; std::getline(stream, item, ',');) {
        std::size_t index = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), index);
        if (ec != std::errc() || end != item.data() + item.size())
            throw UsageError(fmt::format("--variants '{}': '{}' is not a variant index", list, item));
        wanted.insert(index);
    }
    return wanted;
}

std::string utc_time()
{
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return text;
}

// The measure stage runs on the first GPU of the target architecture; without one (no
// driver, no device of the arch) the run stays compile-and-predict and says why.
void find_measuring_device(const ArchTarget& arch, TuneSetup& setup)
{
    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    if (!driver) {
        setup.not_measured = why_not;
        return;
    }
    const std::vector<GpuDevice> gpus = list_gpus(*driver);
    for (const auto& gpu : gpus)
        if (gpu.compute_capability == arch.number()) {
            setup.device = gpu;
            // The model predicts for this GPU where the table has it and --device names none.
            if (const DeviceSpec* d = find_device_of_arch(gpu.name, arch.number()); d && !setup.roofline_device_named)
                setup.roofline_device = d;
            return;
        }
    std::string present;
    for (const auto& gpu : gpus)
        present += fmt::format("{}{} (sm_{})", present.empty() ? "" : ", ", gpu.name, gpu.compute_capability);
    setup.not_measured = fmt::format("no {} device (this machine has {})", arch.name(), present.empty() ? "none" : present);
}

// --out (where the results file goes) and --header, before anything is compiled for them.
void require_writable_outputs(const TuneOptions& o, const ArchTarget& arch)
{
    if (!o.header.empty()) // first: a bad --header leaves no results folder made for nothing
        require_writable_file("--header", o.header);
    const auto results_dir = std::filesystem::path(o.out) / arch.name();
    if (const auto why_not = why_not_writable_directory(results_dir))
        throw UsageError(fmt::format("--out {}: {} {}", o.out, results_dir.string(), *why_not));
}

MeasureSettings measure_settings(const TuneOptions& o, const GpuDevice& device, const NvrtcLibrary& nvrtc,
                                 const std::filesystem::path& journal, const std::filesystem::path& scratch)
{
    MeasureSettings settings;
    settings.worker_argv = measure_worker_argv(nvrtc);
    settings.device = device.ordinal;
    settings.timing.max_median_noise = o.max_noise_percent / 100.0;
    settings.timing.min_samples = o.min_samples;
    settings.timing.max_seconds = o.max_seconds;
    settings.variant_timeout = std::chrono::milliseconds(static_cast<long long>(o.variant_timeout * 1000));
    settings.journal = journal;
    settings.device_id = device.pci_bus_id + " " + device.name;
    settings.seed = o.seed;
    settings.scratch_dir = scratch;
    return settings;
}

void print_runs(const std::vector<TuningRun>& runs, const std::filesystem::path& path)
{
    if (runs.size() == 1) {
        std::cout << compile_table(runs[0]) << launch_bound_table(runs[0]) << "\n" << compile_summary(runs[0]) << "\n";
    } else {
        // A table per problem would bury the winners; each problem's summary says them.
        for (std::size_t k = 0; k < runs.size(); ++k)
            std::cout << fmt::format("{}problem {} of {}: {} (its table: --problem {})\n{}\n", k ? "\n" : "", k + 1,
                                     runs.size(), runs[k].problem.to_string(), runs[k].problem.to_string(),
                                     compile_summary(runs[k]));
    }
    std::cout << "results: " << path.string() << "\n";
}

int tune(const KernelSpec& spec, const TuneOptions& o)
{
    // Validate every input before any work, so bad input never leaves partial output.
    for (const auto& note : spec.notes)
        std::cerr << "autotune: " << note << "\n";
    TuneSetup setup;
    setup.spec = &spec;
    settle_compiler(setup, spec, parse_compiler(o.compiler), o.nvrtc, o.arch, o.compile_options);
    const ArchTarget& arch = setup.arch;
    setup.arch_spec = &find_arch_spec(arch.number());
    setup.roofline_device = o.device.empty() ? default_device_for(arch.number()) : &find_device_spec(o.device);
    setup.roofline_device_named = !o.device.empty();
    if (setup.roofline_device && setup.roofline_device->compute_capability != arch.number())
        throw UsageError(fmt::format("--device {} is sm_{}, not {}", setup.roofline_device->key,
                                     setup.roofline_device->compute_capability, arch.name()));
    // The worker answers a variant after up to --max-time of sampling; a timeout below that
    // would kill every slow or noisy variant as a fault.
    if (o.variant_timeout <= o.max_seconds)
        throw UsageError(fmt::format("--variant-timeout {} must exceed --max-time {} (a variant is sampled for up to "
                                     "--max-time before it answers)", o.variant_timeout, o.max_seconds));
    setup.selection = parse_space(o.space);
    const std::vector<Problem> problems = resolve_problems(spec, o.problems);
    CompileSettings& settings = setup.compile;
    settings.jobs = o.jobs;
    settings.limits = compile_limits(o.compile_timeout);
    settings.nvcc = default_nvcc();
    if (!o.nvcc_flags.empty() && settings.compiler != CompilerKind::nvcc)
        throw UsageError("--nvcc-flags applies to --compiler nvcc only");
    settings.nvcc_flags = split_flags(o.nvcc_flags);
    settings.project_root = project_root();

    const auto strategies = strategy_names();
    if (std::find(strategies.begin(), strategies.end(), o.strategy) == strategies.end())
        throw UsageError(fmt::format("--strategy '{}' is not one of: {}", o.strategy, fmt::join(strategies, ", ")));
    setup.search.strategy = o.strategy;
    try {
        setup.search.budget = parse_budget(o.budget);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    setup.search.seed = o.seed;
    // Read and matched to every problem now: a prior that cannot be used stops the run
    // before anything is compiled.
    std::vector<PriorResults> priors;
    if (!o.prior.empty()) {
        nlohmann::ordered_json document;
        try {
            document = read_measured_times_file(o.prior);
        } catch (const std::exception& e) {
            throw UsageError(fmt::format("--prior: {}", one_line(e.what())));
        }
        // Another kernel's times say nothing of this space; --compile-only would carry the
        // file into the results unused, a search would find no point of it.
        try {
            require_kernel(document, spec.name, o.prior);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("--prior: {}", e.what()));
        }
        for (const auto& problem : problems)
            priors.push_back(prior_for(document, problem, o.prior));
    }
    if (o.lazy_compile) {
        SearchSettings asked = setup.search;
        if (!priors.empty())
            asked.prior = priors.front();
        try {
            check_lazy_search(asked);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    setup.shard = parse_shard(o.shard);
    if (o.lazy_compile && setup.shard)
        throw UsageError("--lazy-compile with --shard: a lazily compiled part holds only what its search measured, "
                         "which autotune merge cannot put back together; search the whole space lazily");
    if (!o.variants.empty())
        setup.only_variants = parse_variant_list(o.variants);
    setup.launch_bounds = o.launch_bounds;
    setup.lazy_compile = o.lazy_compile;
    setup.out = o.out;
    // Every problem's space is enumerated and checked now: an impossible problem of the set,
    // a reference variant outside one, or a bad --variants fails before any GPU time, not
    // after the problems before it were measured.
    for (const auto& problem : problems)
        (void)checked_space(setup, problem);

    ProgressLine progress(progress_style(o.quiet, o.json), fmt::format("compiling {} for {}", spec.name, arch.name()),
                          std::cerr);
    settings.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    settings.failed = compile_errors_note(progress);
    setup.search.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    setup.progress.phase = [&progress](const std::string& label) { progress.relabel(label); };
    setup.progress.phase_done = [&progress] { progress.finish(); };
    ScratchDir scratch("autotune"); // cubins handed to the measuring worker
    const auto journal = journal_path(o, arch, spec, setup.shard);
    if (o.compile_only)
        setup.not_measured = "--compile-only";
    else
        find_measuring_device(arch, setup);
    if (setup.device && !spec.not_measurable.empty())
        throw SpecError(spec.not_measurable);
    if (setup.device)
        setup.measure = measure_settings(o, *setup.device, setup.compile.nvrtc, journal, scratch.path());
    // What the run writes to and keeps compiles in is checked last before compiling: no
    // bad input found later leaves a directory behind, and no run compiles for nothing.
    use_compile_cache(o.cache, settings, [&progress](const std::string& line) { progress.say(line); });
    require_writable_outputs(o, arch);

    std::vector<TuningRun> runs;
    const std::string created = utc_time();
    for (std::size_t p = 0; p < problems.size(); ++p) {
        const Problem& problem = problems[p];
        if (!priors.empty())
            setup.search.prior = priors[p];
        runs.push_back(tune_problem(setup, problem));
        runs.back().created = created;
    }
    const auto path = write_results(runs, o.out);
    write_run_facts(runs, path);
    // The journal kept each measurement safe while the run was going; the results file
    // now holds them all.
    std::filesystem::remove(journal);
    if (o.json)
        std::cout << results_document(runs).dump(2) << "\n";
    else
        print_runs(runs, path);
    if (!o.header.empty()) {
        // Every architecture tuned so far for this kernel goes into the header.
        std::vector<std::string> inputs;
        for (const auto& entry : std::filesystem::directory_iterator(o.out))
            if (const auto file = entry.path() / (spec.name + ".json"); entry.is_directory() && std::filesystem::exists(file))
                inputs.push_back(file.string());
        std::sort(inputs.begin(), inputs.end());
        const HeaderOutcome outcome = generate_tuned_header(inputs, o.header, true, settings.cache_dir);
        for (const auto& line : outcome.mismatches)
            std::cerr << "autotune: mismatch: " << line << "\n";
        if (!o.json)
            std::cout << fmt::format("header: {} ({} tuned configurations from {} results files)\n", o.header,
                                     outcome.entries, inputs.size());
    }
    if (!setup.device && !o.compile_only)
        std::cerr << "autotune: nothing was measured: " << setup.not_measured << "; compiled and predicted only\n";
    if (!setup.device && o.lazy_compile)
        std::cerr << "autotune: --lazy-compile: no GPU to measure on, so every variant was compiled for its prediction\n";
    if (const auto failure = no_winner_line(runs, spec.spec_path.string())) {
        std::cerr << "autotune: " << *failure << "\n";
        return exit_failed;
    }
    return exit_ok;
}

int parse_and_tune(const Arguments& args, const std::string& usage_line,
                   const std::function<KernelSpec(const std::string& positional)>& load)
{
    TuneOptions o;
    std::string positional;
    CommandLine line(usage_line);
    add_tune_options(line.options(), o);
    line.positional("spec-path", po::value(&positional));
    if (!line.parse(args))
        return exit_ok;
    KernelSpec spec = load(positional);
    append_compile_options(spec, o.compile_options);
    return tune(spec, o);
}

} // namespace

int tune_builtin_command(const std::string& kernel, const Arguments& args)
{
    return parse_and_tune(args, fmt::format("usage: autotune {} --arch sm_XX [options]", kernel),
                          [&kernel](const std::string& extra) {
                              if (!extra.empty())
                                  throw UsageError(fmt::format("unexpected argument '{}'", extra));
                              return load_spec(builtin_kernels_dir() / (kernel + ".toml"));
                          });
}

int run_spec_command(const Arguments& args)
{
    return parse_and_tune(args, "usage: autotune run SPEC --arch sm_XX [options]", [](const std::string& path) {
        if (path.empty())
            throw UsageError("autotune run needs a spec file: autotune run SPEC --arch sm_XX");
        return load_spec(path);
    });
}

} // namespace autotune::cli
