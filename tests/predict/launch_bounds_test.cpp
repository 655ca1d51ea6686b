// The register cap __launch_bounds__ obliges ptxas to, against what ptxas chose.
#include "predict/launch_bounds.hpp"

#include "compile/compile_variants.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <gtest/gtest.h>

using namespace autotune;

namespace {

struct Case {
    int cc;
    int max_threads, min_blocks;
    int cap;
    bool resident;
};

// Caps ptxas 13.0 wrote into cubins (EIATTR_MAXREG_COUNT) for a trivial kernel with these
// bounds, read with cuobjdump; "not resident": ptxas warned it ignores min blocks.
const Case ptxas_caps[] = {
    {80, 96, 3, 168, true},   {80, 320, 4, 48, true},  {80, 160, 5, 72, true},  {80, 256, 3, 80, true},
    {80, 384, 2, 80, true},   {80, 640, 2, 48, true},  {80, 32, 32, 64, true},  {80, 64, 20, 48, true},
    {80, 224, 3, 80, true},   {80, 480, 4, 32, true},  {90, 96, 3, 168, true},  {90, 160, 5, 72, true},
    {90, 256, 2, 128, true},  {90, 1024, 0, 64, true}, {90, 1024, 2, 32, true}, {90, 480, 4, 32, true},
    {86, 32, 32, 255, false}, {86, 64, 20, 255, false}, {86, 480, 4, 128, false}, {86, 224, 3, 80, true},
    {75, 320, 4, 168, false}, {75, 640, 2, 96, false}, {75, 160, 5, 72, true},
};

TEST(LaunchBoundCap, MatchesTheCapsPtxasWrote)
{
    for (const Case& c : ptxas_caps) {
        const auto cap = launch_bound_register_cap(find_arch_spec(c.cc), c.max_threads, c.min_blocks);
        ASSERT_TRUE(cap.has_value());
        EXPECT_EQ(cap->register_cap, c.cap) << "sm_" << c.cc << " (" << c.max_threads << ", " << c.min_blocks << ")";
        EXPECT_EQ(cap->min_blocks_resident, c.resident) << "sm_" << c.cc << " (" << c.max_threads << ", " << c.min_blocks << ")";
    }
}

TEST(LaunchBoundCap, NoBoundNoCap)
{
    EXPECT_FALSE(launch_bound_register_cap(find_arch_spec(90), 0, 0).has_value());
}

// Live: GEMM variants with a sample of bounds compiled for sm_80 and sm_90; ptxas' cap is
// the computed one and its registers stay under it.
TEST(LaunchBoundCap, AgreesWithPtxasOnCompiledGemmVariants)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    const std::pair<int, int> bounds[] = {{128, 4}, {256, 3}, {256, 1}, {512, 2}, {1024, 1}, {128, 3}};
    std::vector<Variant> sample;
    for (const auto& [max_threads, min_blocks] : bounds)
        for (const auto& v : space.variants)
            if (v.value("MAX_THREADS") == max_threads && v.value("MIN_BLOCKS") == min_blocks &&
                v.value("MAXRREGCOUNT") == 0 && v.value("TM") * v.value("TN") == 64 && v.block.volume() == max_threads) {
                sample.push_back(v); // register-hungry tiles, so the cap binds
                break;
            }
    ASSERT_EQ(sample.size(), std::size(bounds));
    for (const char* arch_name : {"sm_80", "sm_90"}) {
        const ArchTarget arch = parse_arch(arch_name);
        const auto compiled = compile_variants(spec, problem, sample, arch, CompileSettings{});
        for (std::size_t i = 0; i < sample.size(); ++i) {
            SCOPED_TRACE(std::string(arch_name) + " " + sample[i].key());
            ASSERT_EQ(compiled[i].status, CompileStatus::ok) << compiled[i].error;
            const auto cap = launch_bound_register_cap(find_arch_spec(arch.number()), sample[i].register_policy.max_threads,
                                                       sample[i].register_policy.min_blocks);
            ASSERT_TRUE(cap.has_value());
            EXPECT_EQ(compiled[i].resources.register_cap, cap->register_cap);
            EXPECT_LE(compiled[i].resources.registers, cap->register_cap);
        }
    }
}

} // namespace
