// docs/tuned-header.md's consumer project, built the way another project builds against
// autotune: its CMakeLists.txt and app.cu are cut out of the page verbatim (between the
// consumer-cmake and consumer-app markers), its results files lie in results/ next to them,
// named by relative paths as the page names them, and tests/consumer/checks.cmake adds the
// test's own targets. Install the package, generate the tuned header at build time, compile
// the tuned GEMM and copy kernels and the page's own policy-carrying kernel with nvcc for
// sm_80 and sm_90. Then: a consumer that forgets its header's include directory fails to
// compile, and the binary is read back with cuobjdump: each architecture's kernels carry
// that architecture's tuned launch bounds, register count and vector width.
#include "support/test_support.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
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

// The code block of docs/tuned-header.md between <!-- NAME:begin --> and <!-- NAME:end -->,
// without its fences.
std::string documented(const std::string& name)
{
    const std::string page = test::read_file(test::source_dir() / "docs" / "tuned-header.md");
    const std::string begin = "<!-- " + name + ":begin -->\n", end = "<!-- " + name + ":end -->";
    const auto from = page.find(begin), to = page.find(end);
    if (from == std::string::npos || to == std::string::npos || to < from)
        throw std::runtime_error("docs/tuned-header.md has no " + name + " block");
    const std::string block = page.substr(from + begin.size(), to - from - begin.size());
    const auto first_line = block.find('\n'), fence = block.rfind("```");
    if (block.rfind("```", 0) != 0 || fence == std::string::npos || fence <= first_line)
        throw std::runtime_error("the " + name + " block of docs/tuned-header.md is not one fenced code block");
    return block.substr(first_line + 1, fence - first_line - 1);
}

TEST(ConsumerBuild, TheDocumentedProjectBuildsAndEachArchitectureGetsItsTunedLaunchBoundsRegistersAndVectorWidth)
{
    test::TempDir dir;
    const auto source = dir.path() / "app";
    const auto results = source / "results";
    const std::string autotune = test::autotune_binary().string();
    // The page's project as a user writes it, relative results paths included.
    const std::string cmake = documented("consumer-cmake");
    ASSERT_THAT(cmake, ::testing::HasSubstr("RESULTS results/sm_80/gemm.json"));
    std::filesystem::create_directories(source);
    std::filesystem::copy(test::source_dir() / "tests" / "consumer", source);
    std::ofstream(source / "CMakeLists.txt") << cmake << "\ninclude(${CMAKE_CURRENT_SOURCE_DIR}/checks.cmake)\n";
    std::ofstream(source / "app.cu") << documented("consumer-app");
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
    const auto build = dir.path() / "build";
    ASSERT_TRUE(step(fmt::format("cmake -S {} -B {} -G Ninja -DCMAKE_PREFIX_PATH={} -DCMAKE_CUDA_COMPILER={}", source.string(),
                                 build.string(), (dir.path() / "prefix").string(), (test::cuda_bin_dir() / "nvcc").string())));
    ASSERT_TRUE(step(fmt::format("cmake --build {}", build.string())));
    // The header names its results as the project named them: the same bytes in any checkout.
    EXPECT_THAT(test::read_file(build / "tuned" / "autotune_tuned.hpp"), ::testing::HasSubstr("// from results/sm_90/gemm.json ("));
    // checks.cmake's relative OUTPUT, generated in the build directory.
    EXPECT_TRUE(std::filesystem::exists(build / "relative" / "autotune_tuned.hpp"));
    EXPECT_FALSE(std::filesystem::exists(source / "relative"));

    // Without its include directory, "autotune_tuned.hpp" is nowhere: the built-in kernels'
    // header is installed as autotune/builtin/autotune_tuned.hpp and does not answer for it.
    const auto forgot = test::run_command(fmt::format("cmake --build {} --target forgot_include_dir", build.string()));
    EXPECT_NE(forgot.exit_code, 0) << forgot.out << forgot.err;
    EXPECT_THAT(forgot.out + forgot.err, ::testing::ContainsRegex("autotune_tuned\\.hpp: No such file"));

    const std::string dump_tool = cuobjdump();
    if (dump_tool.empty())
        GTEST_SKIP() << "built; no cuobjdump to read the binary back (in the toolkit or from PyPI's "
                        "nvidia-cuda-cuobjdump; scripts/setup installs it)";
    const std::string binary = (build / "app").string();

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
        // The launch bounds by __CUDA_ARCH__: the page's own kernel carries the arch's gemm bounds.
        const Winner gemm = winner_of(results / arch / "gemm.json");
        const auto info = elf.at(arch).find("\n.nv.info._Z11scale_tilesPfif\n"); // the section's dump, not its table row
        ASSERT_NE(info, std::string::npos);
        const std::string policy = elf.at(arch).substr(info, elf.at(arch).find("\n\n\n", info) - info);
        if (gemm.max_threads > 0)
            EXPECT_THAT(policy, ::testing::ContainsRegex(fmt::format(R"(EIATTR_MAX_THREADS\s+Format:\s+\w+\s+Value:\s+0x{:x} 0x1 0x1)", gemm.max_threads)));
        else
            EXPECT_THAT(policy, ::testing::Not(::testing::HasSubstr("EIATTR_MAX_THREADS")));
    }
}

} // namespace
