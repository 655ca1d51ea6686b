// Results files as input, through the program: every command that reads one refuses a
// misshapen file with exit 2 and one line naming the file and the JSON path of the first
// problem, writing nothing; an imported Kernel Tuner space is read, or refused in one line
// saying why.
#include "support/test_support.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::HasSubstr;
using json = nlohmann::ordered_json;

namespace {

class ResultsInputCli : public ::testing::Test {
protected:
    // A results file as the tool wrote it: the committed compile-only run of copy.
    static json compile_only()
    {
        return json::parse(test::read_file(test::source_dir() / "results" / "sm_90" / "copy.json"));
    }
    // The same with its winner measured on a GPU.
    static json measured()
    {
        json d = compile_only();
        d["measured"] = true;
        d["device"] = {{"name", "NVIDIA H100 80GB HBM3"}};
        json& winner = d["problems"][0]["winner"];
        winner["basis"] = "measured";
        for (auto& v : d["variants"])
            if (v.at("index") == winner.at("index"))
                v["measurement"] = {{"time_seconds", {{"median", 2e-5}, {"relative_spread", 0.01}}},
                                    {"objective_seconds", 2e-5}};
        return d;
    }

    test::CommandResult autotune(const std::string& arguments) { return test::run_autotune(arguments, dir.path()); }
    std::string write(const std::string& name, const json& document)
    {
        const auto path = dir.path() / name;
        std::ofstream(path) << document.dump(2);
        return path.string();
    }
    std::filesystem::path written(const char* name) const { return dir.path() / "written" / name; }

    // Every command that reads a results file, reading `file`; what they would write goes
    // under written/.
    std::vector<std::string> readers(const std::string& file) const
    {
        return {"header " + file + " --no-check -o " + written("h.hpp").string(),
                "report " + file + " -o " + written("report").string(),
                "fidelity " + file,
                "merge " + file + " -o " + written("merged.json").string(),
                "compare " + file + " " + file,
                "replay " + file + " --strategy random --budget 5",
                "export t4 " + file + " -o " + written("t4.json").string(),
                "check-model " + (test::source_dir() / "kernels" / "copy.toml").string() + " --measured " + file +
                    " --arch sm_90 --quiet",
                "copy --arch sm_90 --compile-only --quiet --prior " + file + " --out " + written("out").string()};
    }
    static std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

    test::TempDir dir;
};

struct Misshapen {
    const char* what;
    std::function<void(json&)> edit;
    bool measured = false; // the edit applies to the measured document
    std::string said;      // in the one line, after the file's name
};

TEST_F(ResultsInputCli, EveryReaderRefusesAMisshapenFileInOneLineNamingTheFileAndTheField)
{
    const json compiled = compile_only();
    const std::size_t winner = [&] {
        for (std::size_t i = 0; i < compiled.at("variants").size(); ++i)
            if (compiled["variants"][i]["index"] == compiled["problems"][0]["winner"]["index"])
                return i;
        return std::size_t{0};
    }();
    const std::vector<Misshapen> cases{
        {"variants a string", [](json& d) { d["variants"] = "oops"; }, false, ": variants: expected an array, got a string"},
        {"arch a number", [](json& d) { d["arch"] = 90; }, false, ": arch: expected a string, got 90"},
        {"an added compile option a number", [](json& d) { d["compile_options_added"] = json::array({3}); }, false,
         ": compile_options_added[0]: expected a string, got 3"},
        {"no kernel", [](json& d) { d.erase("kernel"); }, false, ": not an autotune results file (no 'kernel')"},
        {"registers a string", [](json& d) { d["variants"][3]["registers"] = "32"; }, false,
         ": variants[3].registers: expected an integer or null, got a string"},
        {"an unknown status", [](json& d) { d["variants"][3]["status"] = "mostly_ok"; }, false,
         ": variants[3].status: 'mostly_ok' is not a status autotune writes"},
        {"a variant twice", [](json& d) { d["variants"].push_back(d["variants"][1]); }, false,
         fmt::format(": variants[{}].index: {} again (also variants[1].index)", compiled.at("variants").size(),
                     compiled["variants"][1]["index"].dump())},
        {"a winner but no variants", [](json& d) { d["variants"] = json::array(); }, false,
         ": variants: no variants; a results file holds at least one"},
        {"a median of 0", [winner](json& d) { d["variants"][winner]["measurement"]["time_seconds"]["median"] = 0; }, true,
         fmt::format(": variants[{}].measurement.time_seconds.median: 0 is not a measured time", winner)},
    };
    std::size_t runs = 0;
    for (const auto& c : cases) {
        json document = c.measured ? measured() : compiled;
        c.edit(document);
        const std::string file = write("bad.json", document);
        for (const auto& command : readers(file)) {
            const auto r = autotune(command);
            ++runs;
            EXPECT_EQ(r.exit_code, 2) << c.what << ": " << command << "\n" << r.err;
            EXPECT_THAT(r.err, HasSubstr(file + c.said)) << c.what << ": " << command;
            EXPECT_EQ(lines(r.err), 1u) << c.what << ": " << command << "\n" << r.err;
            EXPECT_FALSE(std::filesystem::exists(dir.path() / "written")) << c.what << ": " << command;
        }
    }
    std::cout << runs << " runs of the readers on misshapen files\n";
}

// Kernel Tuner's small cache: two configurations ran, one failed to compile; measured on a
// GPU whose architecture is known (sm_86) or not named at all.
std::string small_cache(bool device_named)
{
    return fmt::format(R"({{
{}"kernel_name": "small_kernel",
"problem_size": [1024, 512],
"tune_params_keys": ["bx", "order"],
"tune_params": {{"bx": [32, 64], "order": ["a", "b"]}},
"objective": "time",
"cache": {{
"32,a": {{"bx": 32, "order": "a", "time": 2.5, "times": [1.0, 2.0, 3.0, 4.0, 2.5]}},
"64,b": {{"bx": 64, "order": "b", "time": 0.5, "times": [0.5, 0.5]}},
"64,a": {{"bx": 64, "order": "a", "time": "CompilationFailedConfig"}}
}}
}})",
                       device_named ? R"("device_name": "NVIDIA GeForce RTX 3090",)" : "");
}

TEST_F(ResultsInputCli, AnImportedKernelTunerSpaceIsReadOrRefusedInOneLineSayingWhy)
{
    for (const bool device_named : {true, false}) {
        const auto cache = dir.path() / "cache.json";
        std::ofstream(cache) << small_cache(device_named);
        const std::string file = (dir.path() / "imported.json").string();
        const auto import = autotune(fmt::format("import kt-cache {} -o {}", cache.string(), file));
        ASSERT_EQ(import.exit_code, 0) << import.err;
        for (const auto& command : readers(file)) {
            const auto r = autotune(command);
            const std::string verb = command.substr(0, command.find(' '));
            if (verb == "replay" || verb == "export" || (verb == "compare" && device_named)) {
                EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
                continue;
            }
            EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
            EXPECT_THAT(r.err, HasSubstr(file)) << command;
            EXPECT_EQ(lines(r.err), 1u) << command << "\n" << r.err;
            if (verb == "header" || verb == "report" || verb == "fidelity" || verb == "merge")
                EXPECT_THAT(r.err, HasSubstr("an imported Kernel Tuner space")) << command;
            if (verb == "compare")
                EXPECT_THAT(r.err, HasSubstr("no architecture")) << command;
            if (verb == "copy") // another kernel's times, compiling or searching
                EXPECT_THAT(r.err, HasSubstr("results of kernel 'small_kernel', not 'copy'")) << command;
        }
        std::filesystem::remove_all(dir.path() / "written");
    }
}

// Gzipped, as Kernel Tuner ships its caches: a results file reads as it would plain, and gzip
// that does not inflate is one line naming the file. A Kernel Tuner cache, gzipped or not, is
// read where only measured times are (replay's space, --prior), as `import kt-cache` would
// write it; a command that needs a tuning run's file names it as a cache, with the import,
// rather than failing as JSON at its first byte.
TEST_F(ResultsInputCli, AGzippedFileIsReadAsItsTextAndACacheWhereTimesAreAllThatIsRead)
{
    const auto gzipped = [&](const std::string& plain) {
        const std::string gz = plain + ".gz";
        EXPECT_EQ(std::system(("gzip -c '" + plain + "' > '" + gz + "'").c_str()), 0);
        return gz;
    };
    const std::string results = gzipped(write("measured.json", measured()));
    for (const auto& command : {"header " + results + " --no-check -o " + written("h.hpp").string(),
                                "replay " + results + " --strategy random --budget 5"}) {
        const auto r = autotune(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    }
    EXPECT_THAT(test::read_file(written("h.hpp")), HasSubstr("copy"));

    const auto cache = dir.path() / "cache.json";
    std::ofstream(cache) << small_cache(true);
    const std::string cache_gz = gzipped(cache.string());
    const auto replayed = autotune("replay " + cache_gz + " --strategy exhaustive --budget 3 --prior " + cache.string());
    EXPECT_EQ(replayed.exit_code, 0) << replayed.err;
    EXPECT_THAT(replayed.out, HasSubstr("prior times from " + cache.string() + " for 2 of 3 points"));
    EXPECT_THAT(replayed.out, HasSubstr("best found: #"));
    EXPECT_THAT(replayed.out, HasSubstr("bx=64,order=b"));
    // A cache an interrupted Kernel Tuner run left unclosed (ending in ",") replays as its import does.
    std::string unclosed = small_cache(true);
    unclosed = unclosed.substr(0, unclosed.find_last_of('}'));
    unclosed = unclosed.substr(0, unclosed.find_last_of('}')) + ",\n";
    const auto cut_cache = dir.path() / "interrupted.json";
    std::ofstream(cut_cache) << unclosed;
    const auto resumed = autotune("replay " + cut_cache.string() + " --strategy exhaustive --budget 3");
    EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_THAT(resumed.out, HasSubstr("bx=64,order=b"));
    const auto refused = autotune("header " + cache_gz + " --no-check -o " + written("c.hpp").string());
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_THAT(refused.err, HasSubstr(cache_gz + ": a Kernel Tuner cache, not an autotune results file"));
    EXPECT_EQ(lines(refused.err), 1u) << refused.err;

    const std::string whole = test::read_file(results);
    const auto cut = dir.path() / "cut.json.gz";
    std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() / 2);
    const auto broken = autotune("replay " + cut.string() + " --strategy random --budget 5");
    EXPECT_EQ(broken.exit_code, 2) << broken.err;
    EXPECT_THAT(broken.err, HasSubstr("results file '" + cut.string() + "': not a readable gzip file"));
    EXPECT_EQ(lines(broken.err), 1u) << broken.err;
}

// A run may compile with another toolkit's NVRTC (--nvrtc: CUDA 12 for a V100, sm_70, which
// CUDA 13 no longer builds). Its results are read all the same; what must rebuild with this
// toolkit's nvcc says, per variant, why it could not.
TEST_F(ResultsInputCli, AFileOfAnArchThisToolkitCannotBuildIsReadAndTheRebuildSaysWhyNot)
{
    json document = compile_only();
    document["arch"] = "sm_70";
    document["nvrtc_version"] = "12.4";
    const std::string file = write("v100.json", document);
    const auto header = autotune(fmt::format("header {} --no-check -o {}", file, written("h.hpp").string()));
    ASSERT_EQ(header.exit_code, 0) << header.err;
    EXPECT_THAT(test::read_file(written("h.hpp")), HasSubstr("(CUDA 12.4, nvrtc)"));
    const auto fidelity = autotune(fmt::format("fidelity {} --limit 2 --json", file));
    ASSERT_EQ(fidelity.exit_code, 0) << fidelity.err;
    const json checked = json::parse(fidelity.out);
    for (const auto& build : checked.at("builds"))
        for (const auto& v : build.at("variants")) {
            EXPECT_EQ(v.at("status"), "compile_error") << v.dump();
            EXPECT_THAT(v.at("error").get<std::string>(), HasSubstr("Unsupported gpu architecture")) << v.dump();
        }
    // Not an arch at all is still one line naming the file.
    document["arch"] = "sm_7";
    const std::string broken = write("broken.json", document);
    const auto refused = autotune("fidelity " + broken);
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_THAT(refused.err, HasSubstr(broken + ": arch: --arch 'sm_7' is not an architecture"));
    EXPECT_EQ(lines(refused.err), 1u) << refused.err;
}

} // namespace
