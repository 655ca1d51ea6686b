// The tuned winner against its peers, on constructed results and peers documents.
#include "emit/peer_ratio.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

json measured_variant(std::int64_t index, double median)
{
    return {{"index", index},
            {"params", {{"BM", index}}},
            {"status", "ok"},
            {"measurement", {{"verified", true}, {"time_seconds", {{"count", 10}, {"median", median}}}}}};
}

// A two-problem gemm results file: 4096³ (winner #2, 2 ms) and 1024³ (winner #5, 50 µs),
// the second problem's record in its problems entry, as problem_views expects.
json gemm_results()
{
    json second_problem{{"variables", {{"M", 1024}, {"N", 1024}, {"K", 1024}}},
                        {"winner", {{"index", 5}, {"params", {{"BM", 5}}}, {"basis", "measured"}}},
                        {"variants", json::array({measured_variant(5, 50e-6), measured_variant(6, 80e-6)})}};
    return json{{"kernel", "gemm"},
                {"spec", "kernels/gemm.toml"},
                {"arch", "sm_90"},
                {"problem", {{"M", 4096}, {"N", 4096}, {"K", 4096}}},
                {"measured", true},
                {"problems",
                 json::array({json{{"variables", {{"M", 4096}, {"N", 4096}, {"K", 4096}}},
                                   {"winner", {{"index", 2}, {"params", {{"BM", 2}}}, {"basis", "measured"}}}},
                              second_problem})},
                {"variants", json::array({measured_variant(1, 3e-3), measured_variant(2, 2e-3)})}};
}

json peer(const std::string& kernel, json problem, const std::string& name, double median)
{
    return {{"kernel", kernel}, {"problem", std::move(problem)}, {"peer", name}, {"median_seconds", median}, {"samples", 12}};
}

json peers_document()
{
    return json{{"device", {{"name", "NVIDIA H200"}, {"arch", "sm_90"}}},
                {"date", "2025-01-01T00:00:00Z"},
                {"peers", json::array({
                              // Another key order than the results file: still the same problem.
                              peer("gemm", {{"K", 4096}, {"M", 4096}, {"N", 4096}}, "cublasSgemm", 1e-3),
                              peer("gemm", {{"M", 2048}, {"N", 2048}, {"K", 2048}}, "cublasSgemm", 0.3e-3),
                              peer("gemm_bf16", {{"M", 4096}, {"N", 4096}, {"K", 4096}}, "cublasGemmEx", 0.2e-3),
                              peer("gemm", {{"M", 1024}, {"N", 1024}, {"K", 1024}}, "cublasSgemm", 100e-6),
                              peer("copy", {{"N", 268435456}}, "cuMemcpyDtoD", 0.5e-3),
                          })}};
}

TEST(PeerRatio, EveryProblemWithAPeerGetsTheWinnersAndThePeersMediansAndTheirRatio)
{
    const auto c = compare_with_peers(gemm_results(), peers_document());
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].kernel, "gemm");
    EXPECT_EQ(c[0].problem, (json{{"M", 4096}, {"N", 4096}, {"K", 4096}}));
    EXPECT_EQ(c[0].peer, "cublasSgemm");
    EXPECT_EQ(c[0].winner_index, std::optional<std::int64_t>(2));
    EXPECT_EQ(c[0].winner_seconds, std::optional<double>(2e-3));
    EXPECT_DOUBLE_EQ(c[0].peer_seconds, 1e-3);
    ASSERT_TRUE(c[0].ratio.has_value());
    EXPECT_DOUBLE_EQ(*c[0].ratio, 0.5); // cuBLAS twice as fast: the winner is at half its speed

    EXPECT_EQ(c[1].problem, (json{{"M", 1024}, {"N", 1024}, {"K", 1024}}));
    EXPECT_EQ(c[1].winner_index, std::optional<std::int64_t>(5));
    EXPECT_EQ(c[1].winner_seconds, std::optional<double>(50e-6)); // from the second problem's own variants
    ASSERT_TRUE(c[1].ratio.has_value());
    EXPECT_DOUBLE_EQ(*c[1].ratio, 2.0); // the tuned winner twice as fast
}

TEST(PeerRatio, SeveralPeersOfOneProblemEachGetARow)
{
    json peers = peers_document();
    peers["peers"].push_back(peer("gemm", {{"M", 4096}, {"N", 4096}, {"K", 4096}}, "cublasLtMatmul", 4e-3));
    const auto c = compare_with_peers(gemm_results(), peers);
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0].peer, "cublasSgemm");
    EXPECT_EQ(c[1].peer, "cublasLtMatmul");
    EXPECT_DOUBLE_EQ(*c[1].ratio, 2.0);
    EXPECT_EQ(c[2].problem.at("M"), 1024);
}

TEST(PeerRatio, APredictedWinnerHasNoRatio)
{
    json results = gemm_results();
    results["problems"][0]["winner"]["basis"] = "predicted";
    results["variants"][1]["measurement"] = nullptr;
    const auto c = compare_with_peers(results, peers_document());
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].winner_index, std::optional<std::int64_t>(2));
    EXPECT_FALSE(c[0].winner_seconds.has_value());
    EXPECT_FALSE(c[0].ratio.has_value());
    EXPECT_DOUBLE_EQ(c[0].peer_seconds, 1e-3);
    EXPECT_TRUE(c[1].ratio.has_value());
}

TEST(PeerRatio, AWinnerThatFailedOrHasNoWinnerHasNoRatio)
{
    json results = gemm_results();
    results["variants"][1]["status"] = "wrong_result";
    results["problems"][1]["winner"] = nullptr;
    const auto c = compare_with_peers(results, peers_document());
    ASSERT_EQ(c.size(), 2u);
    EXPECT_FALSE(c[0].ratio.has_value());
    EXPECT_FALSE(c[1].winner_index.has_value());
    EXPECT_FALSE(c[1].ratio.has_value());
}

TEST(PeerRatio, OtherKernelsAndProblemsDoNotMatch)
{
    json copy{{"kernel", "copy"},
              {"problems", json::array({json{{"variables", {{"N", 268435456}}},
                                             {"winner", {{"index", 1}, {"basis", "measured"}}}}})},
              {"variants", json::array({measured_variant(1, 0.6e-3)})}};
    const auto c = compare_with_peers(copy, peers_document());
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].peer, "cuMemcpyDtoD");
    EXPECT_NEAR(*c[0].ratio, 0.5 / 0.6, 1e-12);

    copy["problems"][0]["variables"]["N"] = 1024;
    EXPECT_TRUE(compare_with_peers(copy, peers_document()).empty());
    copy["problems"][0]["variables"] = {{"N", 268435456}, {"M", 1}}; // an extra variable
    EXPECT_TRUE(compare_with_peers(copy, peers_document()).empty());
    json triad = copy;
    triad["kernel"] = "triad";
    triad["problems"][0]["variables"] = {{"N", 268435456}};
    EXPECT_TRUE(compare_with_peers(triad, peers_document()).empty());
}

TEST(PeerRatio, MalformedDocumentsThrowNamingTheSource)
{
    const auto expect_bad = [](const json& results, const json& peers, const std::string& why) {
        try {
            (void)compare_with_peers(results, peers, "results/sm_90/gemm.json", "results/sm_90/peers.json");
            ADD_FAILURE() << "no error: " << why;
        } catch (const PeerInputError& e) {
            EXPECT_THAT(e.what(), HasSubstr(why));
            EXPECT_THAT(e.what(), HasSubstr("results/sm_90/"));
        }
    };
    expect_bad(gemm_results(), json::object(), "no \"peers\" list");
    json peers = peers_document();
    peers["peers"][1].erase("kernel");
    expect_bad(gemm_results(), peers, "peers[1] has no kernel");
    peers = peers_document();
    peers["peers"][2]["median_seconds"] = 0;
    expect_bad(gemm_results(), peers, "peers[2] has no positive median_seconds");
    peers = peers_document();
    peers["peers"][0]["problem"] = 4096;
    expect_bad(gemm_results(), peers, "peers[0] has no problem");
    json results = gemm_results();
    results.erase("variants");
    expect_bad(results, peers_document(), "no variants");
    results = gemm_results();
    results.erase("kernel");
    expect_bad(results, peers_document(), "no kernel");
    results = gemm_results();
    results["problems"][1].erase("variants");
    expect_bad(results, peers_document(), "problems[1] has no variants");
}

} // namespace
