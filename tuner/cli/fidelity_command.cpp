// autotune fidelity RESULTS: recompile variants of a results file with nvcc, exactly as a
// consumer build would, and report whether registers, spills and machine code match the
// variant that was tuned.
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/project_paths.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

namespace autotune::cli {
namespace {

json read_results(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw UsageError(fmt::format("results file '{}' not found", path));
    try {
        return json::parse(in);
    } catch (const json::exception& e) {
        throw UsageError(fmt::format("results file '{}' is not valid JSON: {}", path, e.what()));
    }
}

const Variant& find_variant(const Space& space, std::size_t index, const std::string& results_path)
{
    for (const auto& v : space.variants)
        if (v.index == index)
            return v;
    throw UsageError(fmt::format("{}: variant {} is not in the spec's space any more (was the spec edited?)",
                                 results_path, index));
}

} // namespace

int fidelity_command(const Arguments& args)
{
    std::string results_path;
    std::size_t limit = 10;
    unsigned jobs = 0;
    bool as_json = false;
    bool strict = false;
    po::options_description options("options");
    options.add_options()("help,h", "show this help")
        ("limit", po::value(&limit)->default_value(10), "how many variants to check (in the results' order)")
        ("jobs,j", po::value(&jobs)->default_value(0), "parallel nvcc processes (0: all cores)")
        ("strict", po::bool_switch(&strict), "exit 1 when any variant differs")
        ("json", po::bool_switch(&as_json), "print JSON");
    po::options_description all;
    all.add(options).add_options()("results", po::value(&results_path));
    po::positional_options_description positions;
    positions.add("results", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: autotune fidelity RESULTS [options]\n\n" << options;
        return exit_ok;
    }
    po::notify(vm);
    if (results_path.empty())
        throw UsageError("autotune fidelity needs a results file, e.g. results/sm_90/gemm.json");

    const json results = read_results(results_path);
    const auto root = project_root();
    std::filesystem::path spec_path;
    try {
        spec_path = results.at("spec").get<std::string>();
    } catch (const json::exception&) {
        throw UsageError(fmt::format("{}: no 'spec' field: not an autotune results file", results_path));
    }
    const KernelSpec spec = load_spec(spec_path.is_relative() ? root / spec_path : spec_path);
    std::vector<std::pair<std::string, std::int64_t>> problem_values;
    for (const auto& [name, value] : results.at("problem").items())
        problem_values.emplace_back(name, value.get<std::int64_t>());
    const Problem problem = resolve_problem(spec, problem_values);
    const ArchTarget arch = require_compilable_arch(results.at("arch").get<std::string>());
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);

    std::vector<Variant> variants;
    std::vector<json> records;
    for (const auto& record : results.at("variants")) {
        if (variants.size() >= limit)
            break;
        if (record.at("status") != "ok")
            continue;
        variants.push_back(find_variant(space, record.at("index").get<std::size_t>(), results_path));
        records.push_back(record);
    }

    CompileSettings settings;
    settings.compiler = CompilerKind::nvcc;
    settings.jobs = jobs;
    settings.nvcc = default_nvcc();
    settings.project_root = root;
    settings.cache_dir = default_cache_dir();
    const auto rebuilt = compile_variants(spec, problem, variants, arch, settings);

    json report = json::array();
    std::size_t identical = 0, same_registers = 0;
    if (!as_json)
        std::cout << fmt::format("{:>6}  {:<48}  {:>13}  {:>15}  {}\n", "#", "params", "regs tuned/nvcc",
                                 "spills tuned/nvcc", "machine code");
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const json& tuned = records[i];
        const CompiledVariant& nvcc = rebuilt[i];
        const bool ok = nvcc.status == CompileStatus::ok;
        const bool regs_equal = ok && tuned.at("registers") == nvcc.resources.registers;
        const bool spills_equal = ok && tuned.at("spill_stores") == nvcc.resources.spill_stores &&
                                  tuned.at("spill_loads") == nvcc.resources.spill_loads;
        const bool code_equal = ok && tuned.at("sass_sha256") == nvcc.sass_sha256;
        identical += code_equal;
        same_registers += regs_equal;
        report.push_back({{"index", tuned.at("index")},
                          {"params", tuned.at("params")},
                          {"tuned_compiler", tuned.at("compiler")},
                          {"nvcc_status", to_string(nvcc.status)},
                          {"nvcc_error", ok ? json(nullptr) : json(nvcc.error)},
                          {"registers", {tuned.at("registers"), ok ? json(nvcc.resources.registers) : json(nullptr)}},
                          {"spill_stores", {tuned.at("spill_stores"), ok ? json(nvcc.resources.spill_stores) : json(nullptr)}},
                          {"spill_loads", {tuned.at("spill_loads"), ok ? json(nvcc.resources.spill_loads) : json(nullptr)}},
                          {"registers_match", regs_equal},
                          {"spills_match", spills_equal},
                          {"machine_code_match", code_equal}});
        if (!as_json) {
            std::string params;
            for (const auto& [name, value] : tuned.at("params").items())
                params += fmt::format("{}{}={}", params.empty() ? "" : ",", name, value.get<std::int64_t>());
            std::cout << fmt::format("{:>6}  {:<48}  {:>13}  {:>15}  {}\n", tuned.at("index").get<std::size_t>(), params,
                                     ok ? fmt::format("{}/{}", tuned.at("registers").get<int>(), nvcc.resources.registers) : "-",
                                     ok ? fmt::format("{}/{}", tuned.at("spill_stores").get<std::int64_t>(), nvcc.resources.spill_stores) : "-",
                                     ok ? (code_equal ? "identical" : "differs") : "nvcc failed: " + nvcc.error);
        }
    }
    if (as_json)
        std::cout << json{{"results", results_path}, {"checked", variants.size()}, {"machine_code_identical", identical},
                          {"registers_identical", same_registers}, {"variants", report}}.dump(2) << "\n";
    else
        std::cout << fmt::format("{} of {} variants identical in machine code, {} of {} in registers (nvcc: {})\n",
                                 identical, variants.size(), same_registers, variants.size(), settings.nvcc.string());
    return strict && identical != variants.size() ? exit_failed : exit_ok;
}

} // namespace autotune::cli
