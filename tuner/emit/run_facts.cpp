#include "emit/run_facts.hpp"

#include "util/atomic_file.hpp"
#include "emit/results_json.hpp"

namespace autotune {

using json = nlohmann::ordered_json;

json run_facts_json(const std::vector<TuningRun>& runs)
{
    json problems = json::array();
    for (const TuningRun& run : runs) {
        json variables = json::object();
        for (const auto& [name, value] : run.problem.values)
            variables[name] = value;
        json variants = json::array();
        std::size_t cache_hits = 0;
        for (std::size_t i = 0; i < run.variants.size() && i < run.compiled.size(); ++i) {
            cache_hits += run.compiled[i].cache_hit ? 1 : 0;
            variants.push_back({{"index", run.variants[i].index},
                                {"cache_hit", run.compiled[i].cache_hit},
                                {"compile_seconds", run.compiled[i].compile_seconds}});
        }
        problems.push_back({{"variables", variables},
                            {"compile_seconds", run.seconds},
                            {"cache_hits", cache_hits},
                            {"variants", variants}});
    }
    return json{{"created", runs.empty() ? std::string() : runs.front().created},
                {"tool", tool_json()},
                {"problems", problems}};
}

std::filesystem::path run_facts_path(const std::filesystem::path& results_path)
{
    return results_path.parent_path() / "runs" / results_path.filename();
}

std::filesystem::path write_run_facts(const std::vector<TuningRun>& runs, const std::filesystem::path& results_path)
{
    const auto path = run_facts_path(results_path);
    write_file_atomically(path, run_facts_json(runs).dump(2) + "\n");
    return path;
}

} // namespace autotune
