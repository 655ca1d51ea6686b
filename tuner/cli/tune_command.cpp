// autotune <kernel> / autotune run SPEC: the main job. Spec → space → compile, then
// (until the measure stage exists) a compile-only result that says nothing was measured.
#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "arch/arch_target.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"
#include "emit/compile_table.hpp"
#include "emit/results_json.hpp"
#include "predict/variant_prediction.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/project_paths.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
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
    std::string cache;
    std::string out = "results";
    unsigned jobs = 0;
    bool compile_only = false;
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
        ("device", po::value(&o.device), "device whose datasheet ceilings apply (autotune archs lists them; default: the arch's)")
        ("jobs,j", po::value(&o.jobs)->default_value(0), "parallel compiles (0: all cores)")
        ("cache", po::value(&o.cache), "compile cache directory, or 'none' (default: ~/.cache/autotune)")
        ("out", po::value(&o.out)->default_value("results"), "results directory; writes DIR/<arch>/<kernel>.json")
        ("json", po::bool_switch(&o.json), "print the results JSON instead of the table");
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

    const Space space = enumerate_space(spec, problem, selection);
    TuningRun run;
    run.kernel = spec.name;
    run.spec_path = portable_path(spec.spec_path, settings.project_root);
    run.arch = arch.name();
    run.nvrtc_version = nvrtc_version();
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

    const auto path = write_results(run, o.out);
    if (o.json) {
        std::cout << results_json(run).dump(2) << "\n";
    } else {
        std::cout << compile_table(run) << "\n" << compile_summary(run) << "\n";
        std::cout << "results: " << path.string() << "\n";
    }
    if (!o.compile_only)
        std::cerr << "autotune: nothing was measured: the measure stage is not built yet, so there are no timings "
                     "and no ranking; these are compile results only\n";
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
