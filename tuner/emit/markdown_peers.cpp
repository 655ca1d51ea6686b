#include "emit/markdown_peers.hpp"

#include <fmt/format.h>

namespace autotune {

std::string markdown_peer_section(const std::vector<PeerComparison>& comparisons, const std::string& peers_path,
                                  bool found)
{
    std::string md = "### Against the peers\n\n";
    if (!found)
        return md + fmt::format("No peer has been measured for this architecture: `{}` does not exist. "
                                "`bench/peers` writes it on a GPU (`scripts/gpu-check` runs it).\n\n",
                                peers_path);
    if (comparisons.empty())
        return md + fmt::format("`{}` has no peer for this kernel and problem.\n\n", peers_path);
    md += "| problem | peer | peer median | tuned winner | winner median | peer / winner |\n"
          "|---|---|---:|---|---:|---:|\n";
    for (const auto& c : comparisons) {
        std::string problem;
        for (const auto& [name, value] : c.problem.items())
            problem += fmt::format("{}{}={}", problem.empty() ? "" : ",", name, value.dump());
        md += fmt::format("| {} | {} | {:.4g} ms | {} | {} | {} |\n", problem, c.peer, c.peer_seconds * 1e3,
                          c.winner_index ? fmt::format("#{}", *c.winner_index) : "none",
                          c.winner_seconds ? fmt::format("{:.4g} ms", *c.winner_seconds * 1e3) : "not measured",
                          c.ratio ? fmt::format("{:.2f}", *c.ratio) : "-");
    }
    return md + "\nAbove 1 the tuned winner is faster than the peer on the same problem.\n\n";
}

} // namespace autotune
