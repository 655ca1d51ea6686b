#include "cli/header_generation.hpp"

#include "cli/cli_error.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_variants.hpp"
#include "emit/problem_views.hpp"
#include "emit/results_reader.hpp"
#include "emit/tuned_header.hpp"
#include "util/atomic_file.hpp"
#include "util/project_paths.hpp"

#include <fmt/format.h>

namespace autotune::cli {

namespace {

using json = nlohmann::ordered_json;

// Rebuilds the winner of `entry` with nvcc as a consumer build does and says how it
// compares with the tuned variant; appends a note to the entry.
void check_with_nvcc(HeaderEntry& entry, const json& results, const std::string& path,
                     const std::optional<std::filesystem::path>& cache_dir, std::vector<std::string>& mismatches)
{
    const ResultsContext context = results_context(results, path);
    const json* record = nullptr;
    for (const auto& v : results.at("variants")) {
        NamedValues values;
        for (const auto& [name, value] : v.at("params").items())
            values.emplace_back(name, value.get<std::int64_t>());
        if (values == entry.values)
            record = &v;
    }
    if (record == nullptr || record->at("sass_sha256").is_null())
        return;
    // What nvcc must build: the machine code measured as nvcc built it where the run did
    // that (it may differ from NVRTC's), else NVRTC's.
    std::string measured_sass = record->at("sass_sha256").get<std::string>();
    for (const auto& b : results.at("problems").at(0).value("nvcc_builds", json::array()))
        if (b.at("index") == record->at("index") && b.at("sass_sha256").is_string())
            measured_sass = b.at("sass_sha256").get<std::string>();
    CompileSettings settings;
    settings.compiler = CompilerKind::nvcc;
    settings.nvcc = default_nvcc();
    settings.nvcc_flags = {nvcc_flag_matching_nvrtc};
    settings.project_root = project_root();
    settings.cache_dir = cache_dir;
    const Variant variant = variant_of_record(context, *record, path);
    const auto rebuilt = compile_variants(context.spec, context.problem, {variant}, context.arch, settings).front();
    const std::string build = fmt::format("nvcc {}", nvcc_flag_matching_nvrtc);
    if (rebuilt.status != CompileStatus::ok) {
        entry.notes.push_back(fmt::format("MISMATCH: {} fails: {}", build, rebuilt.error));
    } else if (rebuilt.sass_sha256 == measured_sass) {
        entry.notes.push_back(fmt::format("{} builds the tuned machine code ({} registers)", build, rebuilt.resources.registers));
        return;
    } else {
        entry.notes.push_back(fmt::format("MISMATCH: {} builds other machine code: {} registers and {} bytes spilled, "
                                          "tuned {} and {}",
                                          build, rebuilt.resources.registers, rebuilt.resources.spill_stores,
                                          record->at("registers").get<int>(), record->at("spill_stores").get<std::int64_t>()));
    }
    mismatches.push_back(fmt::format("{} sm_{}: {}", entry.kernel, entry.compute_capability, entry.notes.back()));
}

} // namespace

HeaderOutcome generate_tuned_header(const std::vector<std::string>& results_paths, const std::filesystem::path& output,
                                    bool check, const std::optional<std::filesystem::path>& cache_dir)
{
    HeaderOutcome outcome;
    std::vector<HeaderEntry> entries;
    try {
        for (const auto& path : results_paths) {
            // One entry set per tuned problem: a file may hold several (a spec's [[problems]]).
            const json document = read_tuning_run_file(
                path, "autotune header builds from a tuning run's compiled variants (launch shape, register policy), "
                      "which an import does not record");
            for (const json& results : problem_views(document))
                for (HeaderEntry& entry : header_entries(results, path)) {
                    if (check)
                        check_with_nvcc(entry, results, path, cache_dir, outcome.mismatches);
                    else
                        entry.notes.push_back("not checked against an nvcc build (--no-check)");
                    entries.push_back(std::move(entry));
                }
        }
        outcome.entries = entries.size();
        write_file_atomically(output, tuned_header(std::move(entries), results_paths));
    } catch (const HeaderError& e) {
        throw UsageError(e.what());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return outcome;
}

} // namespace autotune::cli
