// autotune <kernel> / autotune run SPEC: the main job. Spec → space → compile, then
// (until the measure stage exists) a compile-only result that says nothing was measured.
#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "arch/arch_target.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/header_generation.hpp"
#include "cli/progress_line.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"
#include "emit/compile_table.hpp"
#include "emit/results_json.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "rank/measured_ceilings.hpp"
#include "rank/rank_problem.hpp"
#include "predict/variant_prediction.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/project_paths.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <charconv>
#include <ctime>
#include <set>
#include <sstream>
#include <unistd.h>

namespace po = boost::program_options;

namespace autotune::cli {
namespace {

struct TuneOptions {
    std::string arch;
    std::string problem;
    std::string space = "default";
    std::string compiler = "nvrtc";
    std::string nvcc_flags;
    std::string device;
    std::string variants; // comma-separated indices: tune only these
    std::string header;   // write the tuned header here after the run
    std::string cache;
    std::string out = "results";
    unsigned jobs = 0;
    bool compile_only = false;
    double max_noise_percent = 1.0;
    std::size_t min_samples = 10;
    double max_seconds = 5.0;
    double variant_timeout = 60.0;
    bool json = false;
};

po::options_description tune_options(TuneOptions& o)
{
    po::options_description d("options");
    d.add_options()
        ("help,h", "show this help")
        ("arch", po::value(&o.arch)->required(), "target architecture: sm_XX, e.g. sm_80, sm_90, sm_90a")
        ("problem", po::value(&o.problem), "problem sizes, e.g. M=1024,N=1024,K=1024 (default: the spec's)")
        ("space", po::value(&o.space)->default_value("default"), "default: the spec's default space; full: all values")
        ("compile-only", po::bool_switch(&o.compile_only), "compile and predict; measure nothing")
        ("compiler", po::value(&o.compiler)->default_value("nvrtc"), "nvrtc (in-process, default) or nvcc (one process per variant)")
        ("nvcc-flags", po::value(&o.nvcc_flags), "with --compiler nvcc: your build's extra nvcc flags, e.g. \"-Xcicc=--sharedmem32=0\"")
        ("header", po::value(&o.header), "also write the tuned header for this kernel from every architecture's results in --out")
        ("variants", po::value(&o.variants), "only these variants: indices as the table's # column shows, e.g. 556650,556722")
        ("device", po::value(&o.device), "device whose datasheet ceilings apply (autotune archs lists them; default: the arch's)")
        ("jobs,j", po::value(&o.jobs)->default_value(0), "parallel compiles (0: all cores)")
        ("cache", po::value(&o.cache), "compile cache directory, or 'none' (default: ~/.cache/autotune)")
        ("out", po::value(&o.out)->default_value("results"), "results directory; writes DIR/<arch>/<kernel>.json")
        ("json", po::bool_switch(&o.json), "print the results JSON instead of the table")
        ("max-noise", po::value(&o.max_noise_percent)->default_value(1.0), "stop sampling when the median's relative standard error is below this, percent")
        ("min-samples", po::value(&o.min_samples)->default_value(10), "samples before the noise rule may stop")
        ("max-time", po::value(&o.max_seconds)->default_value(5.0), "seconds of sampling per variant at most")
        ("variant-timeout", po::value(&o.variant_timeout)->default_value(60.0), "seconds after which a silent variant is killed and marked fault");
    return d;
}

std::vector<std::string> split_flags(const std::string& text)
{
    std::vector<std::string> flags;
    std::istringstream words(text);
    for (std::string word; words >> word;)
        flags.push_back(word);
    return flags;
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

// The variants named by --variants (full-space indices), in the space's order.
std::vector<Variant> select_variants(const std::vector<Variant>& all, const std::string& list)
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
    std::vector<Variant> chosen;
    for (const auto& v : all)
        if (wanted.erase(v.index))
            chosen.push_back(v);
    if (!wanted.empty())
        throw UsageError(fmt::format("--variants: {} is not a valid variant of this space (see the # column of "
                                     "autotune <kernel> --compile-only, or --space full)", *wanted.begin()));
    return chosen;
}

std::string utc_date()
{
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

std::filesystem::path own_executable()
{
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find the autotune executable to start a measuring worker: " + ec.message());
    return path;
}

// The measure stage: the first GPU of the target architecture verifies and times every
// variant that can run; without one, the run stays compile-and-predict and says why.
void measure_run(const KernelSpec& spec, const Problem& problem, const ArchTarget& arch, const TuneOptions& o,
                 TuningRun& run, ProgressLine& progress)
{
    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    if (!driver) {
        run.not_measured = why_not;
        return;
    }
    const std::vector<GpuDevice> gpus = list_gpus(*driver);
    for (const auto& gpu : gpus)
        if (gpu.compute_capability == arch.number()) {
            run.device = gpu;
            break;
        }
    if (!run.device) {
        std::string present;
        for (const auto& gpu : gpus)
            present += fmt::format("{}{} (sm_{})", present.empty() ? "" : ", ", gpu.name, gpu.compute_capability);
        run.not_measured = fmt::format("no {} device (this machine has {})", arch.name(), present.empty() ? "none" : present);
        return;
    }
    MeasureSettings settings;
    settings.worker_argv = {own_executable().string(), "measure-worker"};
    settings.device = run.device->ordinal;
    settings.timing.max_median_noise = o.max_noise_percent / 100.0;
    settings.timing.min_samples = o.min_samples;
    settings.timing.max_seconds = o.max_seconds;
    settings.variant_timeout = std::chrono::milliseconds(static_cast<long long>(o.variant_timeout * 1000));
    settings.journal = std::filesystem::path(o.out) / arch.name() / (spec.name + ".journal.jsonl");
    const auto scratch = std::filesystem::temp_directory_path() / fmt::format("autotune-{}-{}", spec.name, getpid());
    std::filesystem::create_directories(scratch);
    settings.scratch_dir = scratch;
    progress.relabel(fmt::format("measuring {} on {}", spec.name, run.device->name));
    settings.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    run.measurements = measure_variants(spec, problem, run.variants, run.compiled, run.predictions, settings);
    progress.finish();
    std::filesystem::remove_all(scratch);
}

// The rank stage: ceilings measured on this GPU by `autotune roofline` when there are
// some, the device table's datasheet otherwise.
ProblemRanking rank_run(const KernelSpec& spec, const Problem& problem, const TuneOptions& o, const TuningRun& run)
{
    std::optional<Ceilings> ceilings;
    if (run.device) {
        const auto devices_dir = std::filesystem::path(o.out) / "devices";
        if (const auto measured = read_measured_ceilings(devices_dir, run.device->name))
            ceilings = ceilings_for(*measured, spec.cost.precision,
                                    devices_dir / (device_slug(run.device->name) + ".json"));
    }
    if (!ceilings && run.roofline_device)
        ceilings = datasheet_ceilings(*run.roofline_device, spec.cost.precision);
    RankInputs inputs;
    inputs.spec = &spec;
    inputs.problem = &problem;
    inputs.variants = &run.variants;
    inputs.compiled = &run.compiled;
    inputs.predictions = &run.predictions;
    inputs.measurements = &run.measurements;
    inputs.ceilings = ceilings;
    inputs.sms = run.device ? run.device->sms : run.roofline_device ? run.roofline_device->sms : 0;
    return rank_problem(inputs);
}

int tune(const KernelSpec& spec, const TuneOptions& o)
{
    // Validate every input before any work, so bad input never leaves partial output.
    const ArchTarget arch = require_compilable_arch(o.arch);
    const ArchSpec& arch_spec = find_arch_spec(arch.number());
    const DeviceSpec* device = o.device.empty() ? default_device_for(arch.number()) : &find_device_spec(o.device);
    if (device && device->compute_capability != arch.number())
        throw UsageError(fmt::format("--device {} is sm_{}, not {}", device->key, device->compute_capability,
                                     arch.name()));
    const SpaceSelection selection = parse_space(o.space);
    const Problem problem =
        resolve_problem(spec, o.problem.empty() ? decltype(parse_problem_assignments("")){} : parse_problem_assignments(o.problem));
    CompileSettings settings;
    settings.compiler = parse_compiler(o.compiler);
    settings.jobs = o.jobs;
    settings.nvcc = default_nvcc();
    if (!o.nvcc_flags.empty() && settings.compiler != CompilerKind::nvcc)
        throw UsageError("--nvcc-flags applies to --compiler nvcc only");
    settings.nvcc_flags = split_flags(o.nvcc_flags);
    settings.project_root = project_root();
    if (o.cache != "none")
        settings.cache_dir = o.cache.empty() ? default_cache_dir() : std::filesystem::path(o.cache);

    Space space = enumerate_space(spec, problem, selection);
    if (!o.variants.empty())
        space.variants = select_variants(space.variants, o.variants);
    TuningRun run;
    run.kernel = spec.name;
    run.spec_path = portable_path(spec.spec_path, settings.project_root);
    run.arch = arch.name();
    run.nvrtc_version = nvrtc_version();
    run.created = utc_date();
    run.roofline_device = device;
    run.roofline_device_named = !o.device.empty();
    run.compiler = settings.compiler;
    run.problem = problem;
    run.selection = selection;
    run.combinations = space.combinations;
    run.removals = space.removals;
    run.variants = space.variants;

    ProgressLine progress(!o.json && isatty(STDERR_FILENO),
                          fmt::format("compiling {} for {}", spec.name, arch.name()));
    settings.progress = [&progress](std::size_t done, std::size_t total) { progress.update(done, total); };
    const auto start = std::chrono::steady_clock::now();
    run.compiled = compile_variants(spec, problem, run.variants, arch, settings);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.finish();
    run.predictions = predict_variants(arch_spec, run.variants, run.compiled);
    if (o.compile_only)
        run.not_measured.clear();
    else
        measure_run(spec, problem, arch, o, run, progress);

    run.ranking = rank_run(spec, problem, o, run);
    const auto path = write_results(run, o.out);
    // The journal kept each measurement safe while the run was going; the results file
    // now holds them all.
    std::filesystem::remove(std::filesystem::path(o.out) / arch.name() / (spec.name + ".journal.jsonl"));
    if (o.json) {
        std::cout << results_json(run).dump(2) << "\n";
    } else {
        std::cout << compile_table(run) << "\n" << compile_summary(run) << "\n";
        std::cout << "results: " << path.string() << "\n";
    }
    if (!o.header.empty()) {
        // Every architecture tuned so far for this kernel goes into the header.
        std::vector<std::string> inputs;
        for (const auto& entry : std::filesystem::directory_iterator(o.out))
            if (const auto file = entry.path() / (spec.name + ".json"); entry.is_directory() && std::filesystem::exists(file))
                inputs.push_back(file.string());
        std::sort(inputs.begin(), inputs.end());
        const HeaderOutcome outcome = generate_tuned_header(inputs, o.header, true);
        for (const auto& line : outcome.mismatches)
            std::cerr << "autotune: mismatch: " << line << "\n";
        if (!o.json)
            std::cout << fmt::format("header: {} ({} tuned configurations from {} results files)\n", o.header,
                                     outcome.entries, inputs.size());
    }
    if (!run.not_measured.empty())
        std::cerr << "autotune: nothing was measured: " << run.not_measured << "; compiled and predicted only\n";
    return exit_ok;
}

int parse_and_tune(const Arguments& args, const std::string& usage_line,
                   const std::function<KernelSpec(const std::string& positional)>& load)
{
    TuneOptions o;
    std::string positional;
    auto options = tune_options(o);
    po::options_description all;
    all.add(options).add_options()("spec-path", po::value(&positional));
    po::positional_options_description positions;
    positions.add("spec-path", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << usage_line << "\n\n" << options;
        return exit_ok;
    }
    po::notify(vm);
    return tune(load(positional), o);
}

} // namespace

int tune_builtin_command(const std::string& kernel, const Arguments& args)
{
    return parse_and_tune(args, fmt::format("usage: autotune {} --arch sm_XX [options]", kernel),
                          [&kernel](const std::string& extra) {
                              if (!extra.empty())
                                  throw UsageError(fmt::format("unexpected argument '{}'", extra));
                              const auto path = builtin_kernels_dir() / (kernel + ".toml");
                              if (!std::filesystem::is_regular_file(path)) {
                                  std::string known;
                                  for (const auto& spec : builtin_kernel_specs())
                                      known += (known.empty() ? "" : ", ") + spec.stem().string();
                                  throw UsageError(fmt::format("unknown kernel '{}' (built-in: {}; or autotune run SPEC "
                                                               "for your own)", kernel, known));
                              }
                              return load_spec(path);
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
