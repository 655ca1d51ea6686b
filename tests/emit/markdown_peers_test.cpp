// The report's peers part: numbers only where a peer was measured, and a plain sentence
// where none was.
#include "emit/markdown_peers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

TEST(MarkdownPeers, WithoutAPeersFileItSaysNothingWasMeasured)
{
    const std::string md = markdown_peer_section({}, "results/sm_90/peers.json", false);
    EXPECT_THAT(md, HasSubstr("No peer has been measured"));
    EXPECT_THAT(md, HasSubstr("results/sm_90/peers.json"));
    EXPECT_THAT(md, Not(HasSubstr("| peer /")));
}

TEST(MarkdownPeers, EachComparisonIsARowWithTheRatio)
{
    PeerComparison measured{"gemm", {{"M", 4096}, {"N", 4096}, {"K", 4096}}, "cublasSgemm", 0.0020, 42, 0.0025, 0.8};
    PeerComparison predicted{"gemm", {{"M", 1024}, {"N", 1024}, {"K", 1024}}, "cublasSgemm", 0.0001, 7, {}, {}};
    const std::string md = markdown_peer_section({measured, predicted}, "peers.json", true);
    EXPECT_THAT(md, HasSubstr("| M=4096,N=4096,K=4096 | cublasSgemm | 2 ms | #42 | 2.5 ms | 0.80 |"));
    EXPECT_THAT(md, HasSubstr("| M=1024,N=1024,K=1024 | cublasSgemm | 0.1 ms | #7 | not measured | - |"));
    EXPECT_THAT(markdown_peer_section({}, "peers.json", true), HasSubstr("has no peer for this kernel"));
}

} // namespace
