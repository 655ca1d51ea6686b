// A user's own kernel through `autotune run SPEC`: the example in examples/ (a Kernel Tuner
// style kernel: macros, extern "C", a 2-D grid dividing the image, a reference variant)
// compiles and is ranked end to end, and a spec whose space or reference is impossible for
// the problem asked is bad input in one line naming the spec.
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace autotune;
using ::testing::Contains;
using ::testing::HasSubstr;
using json = nlohmann::json;

namespace {

class UserKernelCli : public ::testing::Test {
protected:
    test::CommandResult autotune(const std::string& arguments)
    {
        return test::run_autotune(arguments, dir.path());
    }
    std::string out_dir() const { return (dir.path() / "results").string(); }
    static std::filesystem::path example() { return test::source_dir() / "examples" / "blur.toml"; }
    test::TempDir dir;
};

TEST_F(UserKernelCli, TheExampleCompilesAndRanksEndToEnd)
{
    const auto r = autotune(fmt::format("run {} --arch sm_90 --compile-only --quiet --out {}", example().string(), out_dir()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err; // the reference variant is valid: nothing to warn about
    EXPECT_THAT(r.out, HasSubstr("variants of blur for sm_90"));
    EXPECT_THAT(r.out, HasSubstr("winner, predicted (nothing measured)"));

    const json results = json::parse(test::read_file(dir.path() / "results" / "sm_90" / "blur.json"));
    EXPECT_EQ(results.at("kernel"), "blur");
    EXPECT_EQ(results.at("measured"), false);
    EXPECT_TRUE(results.at("device").is_null());
    const json& variants = results.at("variants");
    const KernelSpec spec = load_spec(example());
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
    ASSERT_EQ(variants.size(), space.variants.size());
    ASSERT_GE(variants.size(), 24u);
    std::size_t ok = 0;
    for (const auto& v : variants) {
        SCOPED_TRACE(v.at("index").get<std::size_t>());
        ok += v.at("status") == "ok";
        EXPECT_EQ(v.at("lowered_name"), "blur"); // extern "C"
        const json& p = v.at("params");
        // The 2-D grid divides the image by the block's tile.
        EXPECT_EQ(v.at("grid").at(0), 4096 / (p.at("block_size_x").get<int>() * p.at("tile_size_x").get<int>()));
        EXPECT_EQ(v.at("grid").at(1), 4096 / (p.at("block_size_y").get<int>() * p.at("tile_size_y").get<int>()));
        const auto options = v.at("options").get<std::vector<std::string>>();
        EXPECT_THAT(options, Contains(fmt::format("-Dblock_size_x={}", p.at("block_size_x").get<int>())));
        EXPECT_THAT(options, Contains(std::string("-Dimage_width=4096")));
        EXPECT_THAT(options, Contains(std::string("-Dkernel_tuner=1")));
        if (v.at("status") == "ok") {
            EXPECT_GT(v.at("registers").get<int>(), 0);
            // The shared window is there exactly when use_shared is.
            EXPECT_EQ(v.at("shared_static").get<int>() > 0, p.at("use_shared").get<int>() == 1);
        }
    }
    EXPECT_EQ(ok, variants.size()); // every variant compiles
    const json& winner = results.at("problems").at(0).at("winner");
    EXPECT_EQ(winner.at("basis"), "predicted");
    EXPECT_GT(winner.at("predicted_fraction").get<double>(), 0.0);
}

TEST_F(UserKernelCli, AProblemTheReferenceVariantCannotRunIsBadInputNamingTheSpec)
{
    // 4100 is not a multiple of the reference's 32-pixel tile... nor of any tile: no variant at all.
    auto r = autotune(fmt::format("run {} --arch sm_90 --compile-only --problem image_width=4100 --out {}",
                                  example().string(), out_dir()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(example().string()));
    EXPECT_THAT(r.err, HasSubstr("no valid variant"));
    EXPECT_THAT(r.err, HasSubstr("constraint tiles_divide_image"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("--space full"))); // no other tile divides 4100 either
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);

    // 4096 × 4 rows: variants with block_size_y × tile_size_y ≤ 4 remain, but the reference's 8 rows do not fit.
    r = autotune(fmt::format("run {} --arch sm_90 --compile-only --problem image_height=4 --out {}", example().string(),
                             out_dir()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(example().string() + ": [reference] variant block_size_x=32,block_size_y=8"));
    EXPECT_THAT(r.err, HasSubstr("image_width=4096,image_height=4"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "results"));
}

} // namespace
