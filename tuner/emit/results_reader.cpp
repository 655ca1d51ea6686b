#include "emit/results_reader.hpp"

#include "emit/results_shape.hpp"
#include "space/variant_from_values.hpp"
#include "spec/load_spec.hpp"
#include "util/gzip_text.hpp"
#include "util/project_paths.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace autotune {

using json = nlohmann::ordered_json;

json read_results_file(const std::filesystem::path& path)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw std::invalid_argument(fmt::format("results file '{}' not found", path.string()));
    // Gzipped or not, as a Kernel Tuner cache may be: one that is gzipped is then named as a
    // cache (check_results_shape) rather than failing as JSON at its first byte.
    std::string text;
    try {
        text = read_maybe_gzipped(path);
    } catch (const std::invalid_argument& e) { // GzipError, an unreadable file
        throw std::invalid_argument(fmt::format("results file '{}': {}", path.string(), e.what()));
    }
    json results;
    try {
        results = json::parse(text);
    } catch (const json::exception& e) {
        throw std::invalid_argument(fmt::format("results file '{}' is not valid JSON: {}", path.string(), e.what()));
    }
    check_results_shape(results, path.string());
    return results;
}

json read_tuning_run_file(const std::filesystem::path& path, std::string_view needs)
{
    json results = read_results_file(path);
    if (results_origin(results) == ResultsOrigin::imported)
        throw std::invalid_argument(fmt::format("{}: an imported Kernel Tuner space ({}); {}", path.string(),
                                                results.at("imported_from").get<std::string>(), needs));
    return results;
}

ResultsContext results_context(const json& results, const std::string& path)
{
    const std::filesystem::path spec_path = results.at("spec").get<std::string>();
    // The arch as recorded, not checked against this toolkit's NVRTC: the run may have
    // compiled with another (--nvrtc, e.g. CUDA 12 for sm_70), and reading needs none.
    ArchTarget arch;
    try {
        arch = parse_arch(results.at("arch").get<std::string>());
    } catch (const ArchError& e) {
        throw std::invalid_argument(fmt::format("{}: arch: {}", path, e.what()));
    }
    ResultsContext context{load_spec(spec_path.is_relative() ? project_root() / spec_path : spec_path), {}, arch};
    // --compile-option's: the variants were compiled with them beyond the spec file's.
    for (const auto& option : results.value("compile_options_added", json::array()))
        context.spec.compile_options.push_back(option.get<std::string>());
    std::vector<std::pair<std::string, std::int64_t>> values;
    for (const auto& [name, value] : results.at("problem").items())
        values.emplace_back(name, value.get<std::int64_t>());
    try {
        context.problem = resolve_problem(context.spec, values);
    } catch (const std::exception& e) {
        throw std::invalid_argument(fmt::format("{}: {}", path, e.what()));
    }
    return context;
}

Variant variant_of_record(const ResultsContext& context, const json& record, const std::string& path)
{
    NamedValues values;
    for (const auto& [name, value] : record.at("params").items())
        values.emplace_back(name, value.get<std::int64_t>());
    try {
        return variant_from_values(context.spec, context.problem, values);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: variant {}: {} (was the spec edited?)", path,
                                                record.at("index").get<std::size_t>(), e.what()));
    }
}

} // namespace autotune
