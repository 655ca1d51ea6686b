// tests/consumer/ built the way another project builds against autotune: install the
// package, generate the tuned header from results at build time, compile the tuned GEMM
// and copy kernels with nvcc for sm_80 and sm_90. Then the binary is read back with
// cuobjdump: each architecture's kernels carry that architecture's tuned launch bounds,
// register count and vector width.
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using namespace autotune;
using json = nlohmann::json;

namespace {

std::string cuobjdump()
{
    if (const std::string configured = AUTOTUNE_CUOBJDUMP; !configured.empty())
        return configured;
    const auto in_toolkit = test::cuda_bin_dir() / "cuobjdump";
    return std::filesystem::exists(in_toolkit) ? in_toolkit.string() : std::string();
}

// cuobjdump prints one block per embedded image, each starting "arch = sm_XX"; the text of
// every ELF image, by architecture.
std::map<std::string, std::string> by_arch(const std::string& dump)
{
    std::map<std::string, std::string> out;
    static const std::regex marker(R"(Fatbin elf code:\s*=+\s*arch = (sm_\d+))");
    std::vector<std::pair<std::size_t, std::string>> starts;
    for (auto it = std::sregex_iterator(dump.begin(), dump.end(), marker); it != std::sregex_iterator(); ++it)
        starts.emplace_back(static_cast<std::size_t>(it->position()), (*it)[1].str());
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::size_t end = i + 1 < starts.size() ? starts[i + 1].first : dump.size();
        out[starts[i].second] += dump.substr(starts[i].first, end - starts[i].first);
    }
    return out;
}

struct Winner {
    std::string lowered_name;
    int registers = 0;
    int vec = 0;
    int max_threads = 0;
};

Winner winner_of(const std::filesystem::path& results)
{
    const json doc = json::parse(test::read_file(results));
    const auto index = doc.at("problems").at(0).at("winner").at("index");
    for (const auto& v : doc.at("variants"))
        if (v.at("index") == index)
            return {v.at("lowered_name"), v.at("registers"), v.at("params").at("VEC"), v.at("params").at("MAX_THREADS")};
    throw std::runtime_error("no winner in " + results.string());
}

TEST(ConsumerBuild, EachArchitectureGetsItsTunedLaunchBoundsRegistersAndVectorWidth)
{
    const std::string dump_tool = cuobjdump();
    if (dump_tool.empty())
        GTEST_SKIP() << "no cuobjdump (in the toolkit or from PyPI's nvidia-cuda-cuobjdump; scripts/setup installs it)";
    test::TempDir dir;
    const auto results = dir.path() / "results";
    const std::string autotune = test::autotune_binary().string();
    // One variant per arch and kernel, chosen so the architectures differ: sm_80 gets
    // __launch_bounds__(256, 2) (gemm's padded, double-buffered 128×128×8 tile) and copy's
    // 16-byte loads, sm_90 no bounds and copy's 8-byte loads.
    for (const auto& [kernel, arch, variant] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"gemm", "sm_80", "3318891"}, {"gemm", "sm_90", "3363600"}, {"copy", "sm_80", "5010"}, {"copy", "sm_90", "3600"}}) {
        const auto r = test::run_command(fmt::format("{} {} --arch {} --compile-only --variants {} --out {}", autotune,
                                                     kernel, arch, variant, results.string()));
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    auto step = [&](const std::string& command) {
        const auto r = test::run_command(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.out << r.err;
        return r.exit_code == 0;
    };
    ASSERT_TRUE(step(fmt::format("cmake --install {} --prefix {}", AUTOTUNE_BINARY_DIR, (dir.path() / "prefix").string())));
    ASSERT_TRUE(step(fmt::format("cmake -S {}/tests/consumer -B {} -G Ninja -DCMAKE_PREFIX_PATH={} -DCMAKE_CUDA_COMPILER={} "
                                 "'-DAUTOTUNE_RESULTS={r}/sm_80/gemm.json;{r}/sm_90/gemm.json;{r}/sm_80/copy.json;{r}/sm_90/copy.json'",
                                 test::source_dir().string(), (dir.path() / "build").string(), (dir.path() / "prefix").string(),
                                 (test::cuda_bin_dir() / "nvcc").string(), fmt::arg("r", results.string()))));
    ASSERT_TRUE(step(fmt::format("cmake --build {}", (dir.path() / "build").string())));
    const std::string binary = (dir.path() / "build" / "consumer").string();

    const auto usage = by_arch(test::run_command(dump_tool + " -res-usage " + binary).out);
    const auto elf = by_arch(test::run_command(dump_tool + " -elf " + binary).out);
    const auto sass = by_arch(test::run_command(dump_tool + " -sass " + binary).out);
    for (const std::string arch : {"sm_80", "sm_90"}) {
        SCOPED_TRACE(arch);
        ASSERT_TRUE(usage.count(arch) && elf.count(arch) && sass.count(arch));
        for (const std::string kernel : {"gemm", "copy"}) {
            const Winner w = winner_of(results / arch / (kernel + ".json"));
            // The tuned registers: the consumer's nvcc build gives the machine code that was tuned.
            std::smatch m;
            ASSERT_TRUE(std::regex_search(usage.at(arch), m, std::regex("Function " + w.lowered_name + R"(:\s*REG:(\d+))")))
                << kernel << " " << w.lowered_name;
            EXPECT_EQ(std::stoi(m[1].str()), w.registers) << kernel;
            // The vector width: 16-byte global loads exactly when VEC is 4.
            const auto function = sass.at(arch).find("Function : " + w.lowered_name);
            ASSERT_NE(function, std::string::npos);
            const auto next = sass.at(arch).find("Function : ", function + 1);
            const std::string code = sass.at(arch).substr(function, next - function);
            EXPECT_EQ(code.find("LDG.E.128") != std::string::npos, w.vec == 4) << kernel;
        }
        // The launch bounds by __CUDA_ARCH__: the probe kernel carries the arch's gemm bounds.
        const Winner gemm = winner_of(results / arch / "gemm.json");
        const auto info = elf.at(arch).find("\n.nv.info._Z12policy_probePf\n"); // the section's dump, not its table row
        ASSERT_NE(info, std::string::npos);
        const std::string probe = elf.at(arch).substr(info, elf.at(arch).find("\n\n\n", info) - info);
        if (gemm.max_threads > 0)
            EXPECT_THAT(probe, ::testing::ContainsRegex(fmt::format(R"(EIATTR_MAX_THREADS\s+Format:\s+\w+\s+Value:\s+0x{:x} 0x1 0x1)", gemm.max_threads)));
        else
            EXPECT_THAT(probe, ::testing::Not(::testing::HasSubstr("EIATTR_MAX_THREADS")));
    }
}

} // namespace
