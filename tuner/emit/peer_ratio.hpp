// The tuned winners against their performance peers (issue 7): a results document
// (results/<arch>/<kernel>.json) and a peers document (results/<arch>/peers.json, written
// by bench/peers: cuBLAS SGEMM and bf16 GEMM, cuMemcpyDtoD) give, for every problem the
// two share, the winner's median, the peer's median and peer / winner — above 1 the tuned
// winner is faster. Pure functions on plain documents; the report shows what they return.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace autotune {

// A malformed peers or results document; the message is one line naming `source`.
class PeerInputError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct PeerComparison {
    std::string kernel;
    nlohmann::ordered_json problem;            // the problem's variables, e.g. {"M":4096,"N":4096,"K":4096}
    std::string peer;                          // "cublasSgemm", "cublasGemmEx", "cuMemcpyDtoD"
    double peer_seconds = 0;                   // the peer's median
    std::optional<std::int64_t> winner_index;  // the problem's winner, when it has one
    std::optional<double> winner_seconds;      // its measured median; nullopt when it was not measured
    std::optional<double> ratio;               // peer_seconds / winner_seconds: > 1, the tuned winner is faster
};

// For each problem of `results` (every problem of a multi-problem file, in order) and each
// entry of `peers` with the same kernel and exactly the same problem variables (in the
// peers' order): one comparison. Problems without a peer are left out; a winner that is
// predicted only, or whose variant has no median, gives no ratio. Throws PeerInputError
// naming the source for a peers document without a "peers" list or with an entry lacking
// kernel, problem, peer or a positive median_seconds, and for a results document without
// kernel, problems or variants.
[[nodiscard]] std::vector<PeerComparison> compare_with_peers(const nlohmann::ordered_json& results,
                                                             const nlohmann::ordered_json& peers,
                                                             const std::string& results_source = "results",
                                                             const std::string& peers_source = "peers");

} // namespace autotune
