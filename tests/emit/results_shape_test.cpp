// The one check of a results document's shape: what autotune writes passes it, and the
// first field a user's edit broke is named by file and JSON path. The sweep edits every
// field of a real document every way and holds the readers to it: an edit is refused by
// the check, or every reader takes the document without a JSON library error.
#include "arch/arch_target.hpp"
#include "emit/markdown_report.hpp"
#include "emit/merge_results.hpp"
#include "emit/problem_views.hpp"
#include "emit/registers_svg.hpp"
#include "emit/results_shape.hpp"
#include "emit/roofline_svg.hpp"
#include "emit/t4_format.hpp"
#include "emit/tuned_header.hpp"
#include "rank/compare_results.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"
#include "strategy/replay.hpp"
#include "strategy/space_knowledge.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using json = nlohmann::ordered_json;

namespace {

json committed(const std::string& file)
{
    return json::parse(std::ifstream(test::source_dir() / "results" / file));
}

// The message check_results_shape gives `document`; empty when it passes.
std::string refusal(const json& document, const std::string& path = "r.json")
{
    try {
        check_results_shape(document, path);
    } catch (const JsonShapeError& e) {
        return e.what();
    }
    return {};
}

std::size_t position_of_index(const json& document, const json& index)
{
    const json& variants = document.at("variants");
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (variants[i].at("index") == index)
            return i;
    throw std::logic_error("no such variant");
}

// The committed compile-only copy run, as a GPU run would have written it: every ranked
// variant measured and verified, the winner rebuilt by nvcc.
json measured_copy()
{
    json d = committed("sm_90/copy.json");
    d["measured"] = true;
    d["not_measured"] = nullptr;
    d["device"] = {{"name", "NVIDIA H100 80GB HBM3"}, {"ordinal", 0}};
    json& problem = d["problems"][0];
    problem["measured"] = true;
    problem["winner"]["basis"] = "measured";
    problem["prediction_quality"] = {{"spearman", 0.5}, {"measured_winner_predicted_rank", 1},
                                     {"measured_winner_in_predicted_top10", true}};
    for (auto& v : d["variants"]) {
        if (v.at("rank").is_null())
            continue;
        const double seconds = 1e-5 * v.at("rank").get<double>();
        v["measurement"] = {{"verified", true},
                            {"verified_elements", 1024},
                            {"verification_error", 0.0},
                            {"time_seconds",
                             {{"count", 3}, {"median", seconds}, {"min", seconds}, {"max", seconds}, {"mean", seconds},
                              {"relative_spread", 0.01}, {"median_noise", 0.005}}},
                            {"samples_seconds", {seconds, seconds, seconds}},
                            {"throttled_discarded", 0},
                            {"converged", true},
                            {"sm_clock_mhz", 1980.0},
                            {"driver", nullptr},
                            {"disagreements", json::array()}};
        v["roofline_fraction"] = 0.5;
        v["gbps"] = 1000.0;
        v["gflops"] = 0.0;
    }
    const json& winner = problem.at("winner");
    problem["nvcc_builds"] = json::array({{{"index", winner.at("index")}, {"same_machine_code", true},
                                           {"sass_sha256", "ab"}, {"median_seconds", 1e-5}, {"median_noise", 0.005},
                                           {"measured_again", false}, {"error", nullptr}}});
    problem["winner_as_built_by_nvcc"] = {{"index", winner.at("index")}, {"params", winner.at("params")},
                                          {"median_seconds", 1e-5}, {"median_noise", 0.005}};
    return d;
}

TEST(ResultsShape, EveryCommittedResultsFilePasses)
{
    std::size_t files = 0;
    for (const auto& arch : std::filesystem::directory_iterator(test::source_dir() / "results")) {
        if (!arch.is_directory())
            continue;
        for (const auto& file : std::filesystem::directory_iterator(arch.path()))
            if (file.path().extension() == ".json" && file.path().filename() != "peers.json") {
                const json document = json::parse(std::ifstream(file.path()));
                EXPECT_EQ(refusal(document, file.path().string()), "") << file.path();
                EXPECT_EQ(results_origin(document), ResultsOrigin::tuning_run);
                ++files;
            }
    }
    EXPECT_GE(files, 12u);
    EXPECT_EQ(refusal(measured_copy()), "");
}

TEST(ResultsShape, TheFirstMisshapenFieldIsNamedByFileAndJsonPath)
{
    const json copy = committed("sm_90/copy.json");
    const auto edited = [&](auto edit, json document) {
        edit(document);
        return refusal(document, "results.json");
    };
    EXPECT_EQ(edited([](json& d) { d["variants"] = "oops"; }, copy), "results.json: variants: expected an array, got a string");
    EXPECT_EQ(edited([](json& d) { d["arch"] = 90; }, copy), "results.json: arch: expected a string, got 90");
    EXPECT_EQ(edited([](json& d) { d.erase("kernel"); }, copy), "results.json: not an autotune results file (no 'kernel')");
    EXPECT_EQ(edited([](json& d) { d["variants"][3]["registers"] = "32"; }, copy),
              "results.json: variants[3].registers: expected an integer or null, got a string");
    EXPECT_EQ(edited([](json& d) { d["variants"][3]["block"] = {128, 1}; }, copy),
              "results.json: variants[3].block: expected 3 sizes (x, y, z), got 2");
    EXPECT_EQ(edited([](json& d) { d["variants"][0]["spill_stores"] = nullptr; }, copy),
              "results.json: variants[0].spill_stores: expected an integer (the variant compiled: it has registers), got "
              "null");
    EXPECT_EQ(edited([](json& d) { d["problems"][0]["ceilings"]["bandwidth_gbs"] = "fast"; }, copy),
              "results.json: problems[0].ceilings.bandwidth_gbs: expected a number, got a string");
    EXPECT_EQ(edited([](json& d) { d["problems"][0].erase("flops"); }, copy),
              "results.json: problems[0].flops: missing; expected a number");
    EXPECT_EQ(edited([](json& d) { d["schema_version"] = 99; }, copy),
              "results.json: schema_version: results schema version 99; this autotune reads schema versions up to 2 (a "
              "newer autotune wrote it)");
    EXPECT_EQ(refusal(json::array()), "r.json: not an autotune results file (a JSON array, not an object)");
    EXPECT_EQ(edited(
                  [](json& d) {
                      auto& work = d["variants"][0]["ptx_facts"]["warp_work"];
                      work["phases"] = json::array({work, json::object()});
                      work["phases"][0].erase("unknown_trip_counts");
                  },
                  copy),
              "results.json: variants[0].ptx_facts.warp_work.phases[1].issue: missing; expected a number");

    // A further problem's variants sit in its problems entry; the path says so.
    json gemm = committed("sm_90/gemm.json");
    gemm["problems"][2]["variants"][5]["registers"] = "many";
    EXPECT_EQ(refusal(gemm, "gemm.json"),
              "gemm.json: problems[2].variants[5].registers: expected an integer or null, got a string");
}

TEST(ResultsShape, AProblemWithoutACostHasCeilingsButNoPlaceOnTheRoofline)
{
    // What a T1 kernel's run writes: its spec names no flops or bytes.
    json copy = committed("sm_90/copy.json");
    json& problem = copy["problems"][0];
    ASSERT_FALSE(problem.at("ceilings").is_null());
    problem["flops"] = 0.0;
    problem["bytes"] = 0.0;
    problem["intensity"] = nullptr;
    problem["ridge"] = nullptr;
    problem["bound"] = nullptr;
    EXPECT_EQ(refusal(copy), "");
    problem["bytes"] = 1024.0;
    EXPECT_EQ(refusal(copy, "results.json"),
              "results.json: problems[0].ridge: expected a value (the problem has ceilings and bytes), got null");
}

// What import kt-cache reads is named as such, with the command that turns it into a
// results file, not refused by its first field (a T4 schema_version is a string).
TEST(ResultsShape, AT4DocumentOrKernelTunerCacheIsToldToBeImported)
{
    const json t4 = t4_document(measured_copy(), "copy.json");
    EXPECT_EQ(refusal(t4, "copy.t4.json"), "copy.t4.json: a T4 document, not an autotune results file: `autotune "
                                           "import kt-cache copy.t4.json -o RESULTS` makes one of it");
    const json cache{{"tune_params_keys", {"bx"}}, {"tune_params", {{"bx", {32}}}}, {"cache", json::object()}};
    EXPECT_THAT(refusal(cache, "kt.json"), StartsWith("kt.json: a Kernel Tuner cache, not an autotune results file"));
}

TEST(ResultsShape, AStatusAutotuneNeverWritesIsRefused)
{
    json copy = committed("sm_90/copy.json");
    copy["variants"][3]["status"] = "sort_of_ok";
    EXPECT_THAT(refusal(copy), StartsWith("r.json: variants[3].status: 'sort_of_ok' is not a status autotune writes (ok, "
                                          "compile_error, pruned"));
    for (const auto& status : variant_statuses()) {
        copy["variants"][3]["status"] = status;
        EXPECT_EQ(refusal(copy), "") << status;
    }
}

TEST(ResultsShape, AVariantIndexRecordedTwiceIsRefused)
{
    json copy = committed("sm_90/copy.json");
    copy["variants"].push_back(copy["variants"][2]);
    const std::string index = copy["variants"][2]["index"].dump();
    EXPECT_EQ(refusal(copy), fmt::format("r.json: variants[36].index: {} again (also variants[2].index): each variant is "
                                         "recorded once",
                                         index));
}

TEST(ResultsShape, AWinnerMustBeOneOfTheVariants)
{
    json copy = committed("sm_90/copy.json");
    copy["problems"][0]["winner"]["index"] = 99999999;
    EXPECT_EQ(refusal(copy), "r.json: problems[0].winner.index: 99999999 is not the index of any variant in variants (36 "
                             "variants)");
    copy = committed("sm_90/copy.json");
    copy["variants"] = json::array();
    EXPECT_EQ(refusal(copy), "r.json: variants: no variants; a results file holds at least one");
    copy["shard"] = {{"index", 5}, {"count", 40}}; // a shard of a space smaller than the shard count
    EXPECT_THAT(refusal(copy), HasSubstr("problems[0].winner.index"));
    copy["problems"][0]["winner"] = nullptr;
    EXPECT_EQ(refusal(copy), "");
}

TEST(ResultsShape, AMeasuredTimeIsAPositiveNumberOfSeconds)
{
    json d = measured_copy();
    const std::size_t w = position_of_index(d, d["problems"][0]["winner"]["index"]);
    d["variants"][w]["measurement"]["time_seconds"]["median"] = 0;
    EXPECT_EQ(refusal(d), fmt::format("r.json: variants[{}].measurement.time_seconds.median: 0 is not a measured time "
                                      "(expected seconds > 0)",
                                      w));
    d["variants"][w]["measurement"]["time_seconds"]["median"] = -1e-5;
    EXPECT_THAT(refusal(d), HasSubstr("-1e-05 is not a measured time"));
    d = measured_copy();
    d["variants"][w]["measurement"]["time_seconds"].erase("median");
    EXPECT_EQ(refusal(d), fmt::format("r.json: variants[{}].measurement.time_seconds.median: missing; expected a number", w));
    d = measured_copy();
    d["variants"][w]["measurement"]["objective_seconds"] = 0.0;
    EXPECT_THAT(refusal(d), HasSubstr(fmt::format("variants[{}].measurement.objective_seconds: 0.0 is not a measured time", w)));
}

// An imported Kernel Tuner space, as `autotune import kt-cache` writes it.
json imported_space()
{
    return json{{"schema_version", 2},
                {"kernel", "pnpoly"},
                {"spec", nullptr},
                {"arch", "sm_86"},
                {"device", {{"name", "NVIDIA GeForce RTX 3090"}}},
                {"measured", true},
                {"imported_from", "kt-cache pnpoly.json"},
                {"objective", "time"},
                {"problem", {{"problem_size", {20000, 1}}}},
                {"space", {{"combinations", 4}, {"valid", 2}, {"removed", json::array()}}},
                {"problems",
                 {{{"variables", {{"problem_size", {20000, 1}}}},
                   {"winner", {{"index", 1}, {"params", {{"bx", 64}, {"order", "b"}}}, {"basis", "measured"}}}}}},
                {"variants",
                 {{{"index", 0}, {"params", {{"bx", 32}, {"order", "a"}}}, {"status", "compile_error"},
                   {"error", "CompilationFailedConfig"}, {"measurement", nullptr}},
                  {{"index", 1},
                   {"params", {{"bx", 64}, {"order", "b"}}},
                   {"status", "ok"},
                   {"error", nullptr},
                   {"measurement",
                    {{"time_seconds", {{"count", 2}, {"median", 0.002}, {"min", 0.002}, {"max", 0.002}, {"mean", 0.002},
                                       {"relative_spread", 0.0}, {"median_noise", 0.0}}},
                     {"samples_seconds", {0.002, 0.002}},
                     {"objective_seconds", 0.002}}}}}}};
}

TEST(ResultsShape, AnImportedSpaceHasItsOwnShape)
{
    json imported = imported_space();
    EXPECT_EQ(refusal(imported), "");
    EXPECT_EQ(results_origin(imported), ResultsOrigin::imported);
    // Kernel Tuner names no GPU, or one no table maps to an architecture.
    imported["arch"] = nullptr;
    imported["device"] = nullptr;
    EXPECT_EQ(refusal(imported), "");
    json edited = imported;
    edited["variants"][1]["params"]["bx"] = json::object();
    EXPECT_EQ(refusal(edited), "r.json: variants[1].params.bx: expected a number or a string or true or false, got an "
                               "object");
    edited = imported;
    edited["variants"][1]["measurement"]["objective_seconds"] = 0;
    EXPECT_THAT(refusal(edited), HasSubstr("variants[1].measurement.objective_seconds: 0 is not a measured time"));
}

// Every place in `value` as a JSON pointer, parents before children. Of a list of variants
// only the first and the winner's record are walked: the others are the same fields again.
void places(const json& value, const json::json_pointer& at, const std::vector<std::size_t>& walked_variants,
            std::vector<json::json_pointer>& out)
{
    out.push_back(at);
    if (value.is_object()) {
        for (const auto& [key, member] : value.items())
            places(member, at / key, walked_variants, out);
    } else if (value.is_array()) {
        const bool variants = !at.empty() && at.back() == "variants";
        for (std::size_t i = 0; i < value.size(); ++i)
            if (!variants || std::find(walked_variants.begin(), walked_variants.end(), i) != walked_variants.end())
                places(value[i], at / i, walked_variants, out);
    }
}

// Runs every reader of a results document on `document`. The errors a reader raises on
// purpose, naming the file (no plot without ceilings, nothing measured, ...), are its
// answer to a document it cannot use and are caught; anything else (a JSON library
// error, std::out_of_range) escapes: the command would end with exit 1.
// The errors that end a command with exit 2 naming the input: a reader's answer to a
// document it cannot use.
void answered(const std::function<void()>& read)
{
    try {
        read();
    } catch (const nlohmann::json::exception&) {
        throw;
    } catch (const std::invalid_argument&) { // CompareInputError, a plot's "no ceilings", ...
    } catch (const HeaderError&) {
    } catch (const SpecError&) { // merge loads the spec the document names
    } catch (const ArchError&) {
    } catch (const ProblemError&) {
    } catch (const ExpressionError&) {
    }
}

// Report, header and fidelity take a tuning run's document only (an import is refused
// before they read it).
void read_everything(const json& document)
{
    const bool run = results_origin(document) == ResultsOrigin::tuning_run;
    for (const json& view : problem_views(document)) {
        if (run) {
            answered([&] { (void)markdown_report_section(view, {}); });
            answered([&] { (void)roofline_svg(view); });
            answered([&] { (void)registers_svg(view); });
            answered([&] { (void)header_entries(view, "r.json"); });
        }
        answered([&] { (void)t4_document(view, "r.json"); });
        answered([&] {
            ReplaySpace space = replay_space(view, "r.json");
            (void)add_static_facts(space.space, space.params, view, "r.json");
            (void)add_prior_times(space.space, space.params, view, "r.json", MeasuredFigure::objective);
        });
    }
    answered([&] { (void)compare_results({{"a.json", document}}, {{"b.json", document}}, 0.05); });
}

struct SweepCount {
    std::size_t edits = 0;
    std::size_t refused = 0;
};

// Each place of `document` under `under` removed and replaced by a value of every kind;
// what passes the check is given to `read`.
SweepCount sweep(const json& document, const json::json_pointer& under, const std::vector<std::size_t>& walked_variants,
                 const std::function<void(const json&)>& read = read_everything)
{
    std::vector<json::json_pointer> all;
    places(document.at(under), under, walked_variants, all);
    const std::vector<json> replacements{nullptr, "x", -1, 0, 1.5, true, json::object(), json::array()};
    SweepCount count;
    for (const auto& at : all) {
        if (at.empty())
            continue;
        std::vector<json> edited;
        json removed = document;
        const std::string last = at.back();
        json& parent = removed[at.parent_pointer()];
        if (parent.is_object())
            parent.erase(last);
        else
            parent.erase(static_cast<std::size_t>(std::stoul(last)));
        edited.push_back(std::move(removed));
        for (const json& replacement : replacements) {
            json changed = document;
            changed[at] = replacement;
            edited.push_back(std::move(changed));
        }
        for (const json& d : edited) {
            ++count.edits;
            const std::string why = refusal(d, "r.json");
            if (!why.empty()) {
                ++count.refused;
                EXPECT_THAT(why, StartsWith("r.json: ")) << at.to_string();
                EXPECT_EQ(why.find('\n'), std::string::npos) << at.to_string();
                continue;
            }
            try {
                read(d);
            } catch (const std::exception& e) {
                ADD_FAILURE() << at.to_string() << " edited to " << (d.contains(at) ? d.at(at).dump() : "(removed)")
                              << " passed the check, and a reader failed: " << e.what();
            }
        }
    }
    return count;
}

// `document` with the first `keep` variants of each problem and its winner: the sweep's
// copies stay small, and nothing of the shape is lost.
json trimmed(json document, std::size_t keep)
{
    const auto trim = [keep](json& variants, const json& problem) {
        json kept = json::array();
        for (std::size_t i = 0; i < variants.size(); ++i)
            if (i < keep || variants[i].at("index") == problem.at("winner").at("index"))
                kept.push_back(variants[i]);
        variants = std::move(kept);
    };
    trim(document["variants"], document.at("problems").at(0));
    for (std::size_t k = 1; k < document.at("problems").size(); ++k)
        trim(document["problems"][k]["variants"], document.at("problems").at(k));
    return document;
}

TEST(ResultsShape, NoEditOfAFieldReachesAReaderAsAJsonLibraryError)
{
    const json measured = trimmed(measured_copy(), 3);
    const SweepCount run = sweep(measured, json::json_pointer(),
                                 {0, position_of_index(measured, measured.at("problems").at(0).at("winner").at("index"))});
    // Nothing measured: the readers take other paths (the datasheet's device, predictions).
    const SweepCount predicted = sweep(trimmed(committed("sm_90/copy.json"), 3), json::json_pointer(), {});
    // A further problem's record: its own variants, space, pruning and search.
    const json gemm = trimmed(committed("sm_90/gemm.json"), 2);
    const SweepCount problems = sweep(gemm, json::json_pointer("/problems/1"), {0});
    std::cout << fmt::format("edits: {} of a measured run ({} refused), {} of a compile-only run ({} refused), {} of a "
                             "run of {} problems ({} refused)\n",
                             run.edits, run.refused, predicted.edits, predicted.refused, problems.edits,
                             gemm.at("problems").size(), problems.refused);
    EXPECT_GT(run.refused, 0u);
    EXPECT_LT(run.refused, run.edits); // some edits are harmless: a string where a string was
}

TEST(ResultsShape, NoEditOfAnImportedSpaceReachesAReaderAsAJsonLibraryError)
{
    const SweepCount imported = sweep(imported_space(), json::json_pointer(), {0, 1});
    std::cout << fmt::format("edits: {} of an imported space ({} refused)\n", imported.edits, imported.refused);
    EXPECT_GT(imported.refused, 0u);
}

// Shard I of 2 of a measured run: every second variant from the I-th, its best the winner.
json shard_part(const json& whole, std::size_t shard)
{
    json part = whole;
    part["shard"] = {{"index", shard}, {"count", 2}};
    json variants = json::array();
    for (std::size_t i = shard; i < whole.at("variants").size(); i += 2)
        variants.push_back(whole.at("variants").at(i));
    part["space"]["valid"] = variants.size();
    const json* best = nullptr;
    for (const auto& v : variants)
        if (!v.at("rank").is_null() && (!best || v.at("rank") < best->at("rank")))
            best = &v;
    json& problem = part["problems"][0];
    problem["winner"]["index"] = best->at("index");
    problem["winner"]["params"] = best->at("params");
    problem["nvcc_builds"][0]["index"] = best->at("index");
    problem["winner_as_built_by_nvcc"]["index"] = best->at("index");
    problem["winner_as_built_by_nvcc"]["params"] = best->at("params");
    part["variants"] = std::move(variants);
    return part;
}

TEST(ResultsShape, NoEditOfAShardPartReachesMergeAsAJsonLibraryError)
{
    const json whole = measured_copy();
    const json first = shard_part(whole, 0);
    const json second = shard_part(whole, 1);
    ASSERT_EQ(refusal(first), "");
    ASSERT_EQ(refusal(second), "");
    ASSERT_EQ(merge_results({first, second}, {"part0.json", "r.json"}).at("variants").size(), whole.at("variants").size());
    const auto merge = [&](const json& edited) {
        answered([&] { (void)merge_results({first, edited}, {"part0.json", "r.json"}); });
    };
    const SweepCount parts = sweep(second, json::json_pointer(), {0}, merge);
    std::cout << fmt::format("edits: {} of a shard's part given to merge ({} refused by the check)\n", parts.edits,
                             parts.refused);
    EXPECT_GT(parts.refused, 0u);
}

} // namespace
