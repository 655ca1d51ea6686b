// The report's "Against the peers" part: the tuned winner of each problem next to what
// cuBLAS or cuMemcpyDtoD take on the same problem in the same kind of run (bench/peers).
#pragma once

#include "emit/peer_ratio.hpp"

#include <string>
#include <vector>

namespace autotune {

// `peers_path` is where the peers file was looked for; `found` whether it exists. Without
// it the part says plainly that no peer has been measured, instead of giving numbers.
[[nodiscard]] std::string markdown_peer_section(const std::vector<PeerComparison>& comparisons,
                                                const std::string& peers_path, bool found);

} // namespace autotune
