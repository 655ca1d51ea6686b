// autotune fidelity RESULTS: recompile variants of a results file with nvcc, as a
// consumer build would, and report whether registers, spills and machine code match
// what was tuned. Two consumer builds by default: plain nvcc, and nvcc with the flag
// that makes it generate NVRTC's code (docs/fidelity.md); --nvcc-flags names yours.
#include "emit/assignments_text.hpp"
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/compile_cache_option.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"
#include "emit/results_reader.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/one_line.hpp"
#include "util/project_paths.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

struct TunedVariants {
    ResultsContext context;
    std::vector<Variant> variants; // the ok variants checked, in the results' order
    std::vector<json> records;     // their records in the results file
};

TunedVariants select_variants(const json& results, const std::string& path, std::size_t limit)
{
    TunedVariants tuned{results_context(results, path), {}, {}};
    for (const auto& record : results.at("variants")) {
        if (tuned.variants.size() >= limit)
            break;
        if (record.at("status") != "ok" || record.at("sass_sha256").is_null())
            continue;
        tuned.variants.push_back(variant_of_record(tuned.context, record, path));
        tuned.records.push_back(record);
    }
    return tuned;
}

struct ConsumerBuild {
    std::string name;
    std::vector<std::string> flags;
};

std::vector<ConsumerBuild> consumer_builds(const std::string& nvcc_flags, bool given)
{
    if (!given)
        return {{"nvcc", {}}, {fmt::format("nvcc {}", nvcc_flag_matching_nvrtc), {nvcc_flag_matching_nvrtc}}};
    std::vector<std::string> flags;
    std::istringstream words(nvcc_flags);
    for (std::string word; words >> word;)
        flags.push_back(word);
    return {{fmt::format("nvcc {}", fmt::join(flags, " ")), flags}};
}

} // namespace

int fidelity_command(const Arguments& args)
{
    std::string results_path, nvcc_flags, cache;
    std::size_t limit = 10;
    unsigned jobs = 0;
    bool as_json = false, strict = false;
    CommandLine line("usage: autotune fidelity RESULTS [options]");
    line.options()
        ("limit", ranged_value(&limit, {.least = 1})->default_value(10), "how many variants to check (the first ok ones, in the results' order)")
        ("nvcc-flags", po::value(&nvcc_flags), "your build's nvcc flags (default: compare plain nvcc and nvcc -Xcicc=--sharedmem32=0)")
        ("jobs,j", ranged_value(&jobs, jobs_range)->default_value(0), "parallel nvcc processes (0: all cores)")
        ("cache", po::value(&cache), "compile cache directory, or 'none' (default: ~/.cache/autotune)")
        ("strict", po::bool_switch(&strict), "exit 1 when any variant's machine code differs in the last build")
        ("json", po::bool_switch(&as_json), "print JSON");
    line.positional("results", po::value(&results_path));
    if (!line.parse(args))
        return exit_ok;
    if (results_path.empty())
        throw UsageError("autotune fidelity needs a results file, e.g. results/sm_90/gemm.json");

    const TunedVariants tuned = [&] {
        try {
            return select_variants(read_tuning_run_file(results_path, "autotune fidelity rebuilds variants from their "
                                                                      "spec, and an import has none"),
                                   results_path, limit);
        } catch (const std::invalid_argument& e) {
            throw UsageError(one_line(e.what()));
        }
    }();
    // The cache is settled once, before any build: one that cannot be used is said once.
    CompileSettings cached;
    use_compile_cache(cache, cached, [](const std::string& said) { std::cerr << said << "\n"; });
    const auto builds = consumer_builds(nvcc_flags, line.given("nvcc-flags"));
    json report_builds = json::array();
    std::size_t identical_in_last = 0;
    std::size_t params_width = 6;
    for (const auto& record : tuned.records)
        params_width = std::max(params_width, assignments_text(record.at("params")).size());
    for (const auto& build : builds) {
        CompileSettings settings;
        settings.compiler = CompilerKind::nvcc;
        settings.nvcc_flags = build.flags;
        settings.jobs = jobs;
        settings.nvcc = default_nvcc();
        settings.project_root = project_root();
        settings.cache_dir = cached.cache_dir;
        settings.cache_store_failed = cached.cache_store_failed;
        const auto rebuilt = compile_variants(tuned.context.spec, tuned.context.problem, tuned.variants,
                                              tuned.context.arch, settings);

        json rows = json::array();
        std::size_t identical = 0, same_registers = 0;
        if (!as_json)
            std::cout << fmt::format("{} (from {}):\n{:>6}  {:<{}}  {:>15}  {:>13}  {}\n", build.name,
                                     settings.nvcc.string(), "#", "params", params_width, "regs tuned/nvcc",
                                     "spill stores", "machine code");
        for (std::size_t i = 0; i < rebuilt.size(); ++i) {
            const json& record = tuned.records[i];
            const CompiledVariant& nvcc = rebuilt[i];
            const bool ok = nvcc.status == CompileStatus::ok;
            const bool regs_equal = ok && record.at("registers") == nvcc.resources.registers;
            const bool spills_equal = ok && record.at("spill_stores") == nvcc.resources.spill_stores &&
                                      record.at("spill_loads") == nvcc.resources.spill_loads;
            const bool code_equal = ok && record.at("sass_sha256") == nvcc.sass_sha256;
            identical += code_equal;
            same_registers += regs_equal;
            rows.push_back({{"index", record.at("index")},
                            {"params", record.at("params")},
                            {"status", to_string(nvcc.status)},
                            {"error", ok ? json(nullptr) : json(nvcc.error)},
                            {"registers", {record.at("registers"), ok ? json(nvcc.resources.registers) : json(nullptr)}},
                            {"spill_stores", {record.at("spill_stores"), ok ? json(nvcc.resources.spill_stores) : json(nullptr)}},
                            {"spill_loads", {record.at("spill_loads"), ok ? json(nvcc.resources.spill_loads) : json(nullptr)}},
                            {"registers_match", regs_equal},
                            {"spills_match", spills_equal},
                            {"machine_code_match", code_equal}});
            if (!as_json)
                std::cout << fmt::format(
                    "{:>6}  {:<{}}  {:>15}  {:>13}  {}\n", record.at("index").get<std::size_t>(), assignments_text(record.at("params")),
                    params_width,
                    ok ? fmt::format("{}/{}", record.at("registers").get<int>(), nvcc.resources.registers) : "-",
                    ok ? fmt::format("{}/{}", record.at("spill_stores").get<std::int64_t>(), nvcc.resources.spill_stores) : "-",
                    ok ? (code_equal ? "identical" : "differs") : "nvcc failed: " + nvcc.error);
        }
        if (!as_json)
            std::cout << fmt::format("{}: {} of {} identical in machine code, {} of {} in registers\n\n", build.name,
                                     identical, rebuilt.size(), same_registers, rebuilt.size());
        report_builds.push_back({{"build", build.name},
                                 {"nvcc_flags", build.flags},
                                 {"checked", rebuilt.size()},
                                 {"machine_code_identical", identical},
                                 {"registers_identical", same_registers},
                                 {"variants", rows}});
        identical_in_last = identical;
    }
    if (as_json)
        std::cout << json{{"results", results_path}, {"tuned_with", tuned.records.empty() ? json(nullptr) : tuned.records[0].at("compiler")},
                          {"builds", report_builds}}.dump(2) << "\n";
    return strict && identical_in_last != tuned.variants.size() ? exit_failed : exit_ok;
}

} // namespace autotune::cli
