// Search efficiency on real measured spaces: Kernel Tuner caches of three kernels measured
// exhaustively on an RTX 3090 and an RTX 3060 Laptop GPU (../shared/data/kernel-tuner-caches)
// are imported, and each strategy is replayed on each space at budgets of 1 %, 2 % and 5 %
// of the space, over 20 seeds — knowing nothing before measuring, or with what a search can
// know: `--static DIR` (DIR/<space>.json, a compile-only run of the space: registers, spills,
// occupancy, the model's predicted time) and `--prior` (the same space measured on the other
// GPU). Reported: the mean and the minimum fraction of the optimum found (1.0 = the
// fastest configuration), and the mean wall time of one search. A plain program (no
// Google Benchmark): the figure of merit is search quality, not the tuner's speed.
//   build/bench/search_efficiency [--data DIR] [--spaces gemm,convolution,pnpoly]
//       [--gpus RTX_3090,RTX_3060_Laptop] [--static DIR] [--prior]
//       [--strategies random,ils,...] [--budgets 1,2,5] [--seeds 20] [--threads 2] [--markdown FILE]
//       [--per-seed]   (each seed's fraction on stderr: which seeds a mean's misses are)
#include "autotune_build_config.hpp"
#include "comma_list.hpp"
#include "emit/kt_cache_import.hpp"
#include "strategy/replay.hpp"
#include "strategy/space_knowledge.hpp"
#include "emit/results_reader.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <sstream>
#include <thread>

using namespace autotune;
namespace fs = std::filesystem;

namespace {

struct Cell {
    double mean = 0, min = 1, seconds = 0;
    std::size_t evaluations = 0;
};

} // namespace

int main(int argc, char** argv)
{
    fs::path data = fs::path(AUTOTUNE_SOURCE_DIR) / ".." / "shared" / "data" / "kernel-tuner-caches";
    std::vector<std::string> spaces{"gemm", "convolution", "pnpoly"};
    std::vector<std::string> gpus{"RTX_3090", "RTX_3060_Laptop"};
    fs::path static_dir;
    bool prior = false;
    std::vector<std::string> strategies;
    for (const auto& s : strategy_names())
        if (s != "exhaustive" && s != "model") // no prior in a Kernel Tuner cache: model = exhaustive
            strategies.push_back(s);
    std::vector<double> budgets{1, 2, 5};
    std::size_t seeds = 20;
    std::size_t threads = 2;
    std::string markdown;
    bool per_seed = false; // each seed's fraction on stderr: where a mean's misses are
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "search_efficiency: " << arg << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--data") data = value();
        else if (arg == "--spaces") spaces = bench::comma_list(value());
        else if (arg == "--gpus") gpus = bench::comma_list(value());
        else if (arg == "--static") static_dir = value();
        else if (arg == "--prior") prior = true;
        else if (arg == "--strategies") strategies = bench::comma_list(value());
        else if (arg == "--budgets") { budgets.clear(); for (const auto& b : bench::comma_list(value())) budgets.push_back(std::stod(b)); }
        else if (arg == "--seeds") seeds = std::stoul(value());
        else if (arg == "--threads") threads = std::max<std::size_t>(1, std::stoul(value()));
        else if (arg == "--markdown") markdown = value();
        else if (arg == "--per-seed") per_seed = true;
        else {
            std::cerr << "search_efficiency: unknown argument " << arg << "\n";
            return 2;
        }
    }

    if (prior && gpus.size() != 2) {
        std::cerr << "search_efficiency: --prior needs two --gpus (each is the other's prior)\n";
        return 2;
    }
    const std::string knowing = std::string(static_dir.empty() ? "" : "static") + (prior ? (static_dir.empty() ? "prior" : " + prior") : "");
    std::string table = "| space | gpu | points | knows | strategy |";
    for (double b : budgets)
        table += fmt::format(" {}% mean | {}% min |", b, b);
    table += " s/search |\n|---|---|---:|---|---|";
    for (std::size_t i = 0; i < budgets.size(); ++i)
        table += "---:|---:|";
    table += "---:|\n";
    std::cout << table << std::flush;

    for (const auto& name : spaces)
      for (std::size_t g = 0; g < gpus.size(); ++g) {
        const fs::path file = data / (name + "_" + gpus[g] + ".json.gz");
        ReplaySpace space;
        std::string notes;
        try {
            space = replay_space(import_kt_cache(file), file.string());
            if (!static_dir.empty()) {
                const fs::path compiled = static_dir / (name + ".json");
                if (!fs::exists(compiled)) {
                    std::cerr << "search_efficiency: no compile-only run " << compiled << "; " << name << " left out\n";
                    continue;
                }
                const std::size_t n = add_static_facts(space.space, space.params, read_results_file(compiled), compiled.string());
                notes += fmt::format(" static facts for {} of {} points;", n, space.space.points.size());
            }
            if (prior) {
                const fs::path other = data / (name + "_" + gpus[1 - g] + ".json.gz");
                const std::size_t n = add_prior_times(space.space, space.params, import_kt_cache(other), other.string());
                notes += fmt::format(" prior times for {} of {} points;", n, space.space.points.size());
            }
        } catch (const std::exception& e) {
            std::cerr << "search_efficiency: " << e.what() << "\n";
            return 2;
        }
        if (!notes.empty())
            std::cerr << name << " " << gpus[g] << ":" << notes << "\n";
        for (const auto& strategy : strategies) {
            std::vector<Cell> cells(budgets.size());
            // Work items: (budget, seed), shared among the threads.
            std::vector<std::vector<double>> fractions(budgets.size(), std::vector<double>(seeds));
            std::vector<std::vector<double>> durations(budgets.size(), std::vector<double>(seeds));
            std::atomic<std::size_t> next{0};
            const auto work = [&] {
                for (std::size_t item; (item = next++) < budgets.size() * seeds;) {
                    const std::size_t b = item / seeds, seed = item % seeds;
                    Budget budget;
                    budget.max_evaluations = replay_budget(fmt::format("{}%", budgets[b]), space.space.points.size());
                    const auto start = std::chrono::steady_clock::now();
                    const ReplayOutcome o = replay(space, strategy, budget, seed + 1);
                    durations[b][seed] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                    fractions[b][seed] = o.fraction_of_optimum;
                }
            };
            std::vector<std::thread> pool;
            for (std::size_t t = 0; t < threads; ++t)
                pool.emplace_back(work);
            for (auto& t : pool)
                t.join();
            std::string row = fmt::format("| {} | {} | {} | {} | {} |", name, gpus[g], space.space.points.size(),
                                          knowing.empty() ? "nothing" : knowing, strategy);
            double seconds = 0;
            for (std::size_t b = 0; b < budgets.size(); ++b) {
                double sum = 0, low = 1;
                for (std::size_t s = 0; s < seeds; ++s) {
                    sum += fractions[b][s];
                    low = std::min(low, fractions[b][s]);
                    seconds += durations[b][s];
                }
                row += fmt::format(" {:.3f} | {:.3f} |", sum / static_cast<double>(seeds), low);
                if (per_seed)
                    std::cerr << fmt::format("{} {} {} {}%: {:.3f}\n", name, gpus[g], strategy, budgets[b], fmt::join(fractions[b], " "));
            }
            row += fmt::format(" {:.2f} |\n", seconds / static_cast<double>(budgets.size() * seeds));
            table += row;
            std::cout << row << std::flush;
        }
    }
    if (!markdown.empty())
        write_file_atomically(markdown, table);
    return 0;
}
