// Every built-in kernel (kernels/*.toml, globbed, so a new kernel is covered the day it
// lands): its spec loads, its default space is non-empty for its default problem, and its
// first default variant compiles with NVRTC for each architecture family we ship for.
// One variant per architecture per kernel keeps this quick; the compile tests cover the rest.
#include "compile/compile_variants.hpp"
#include "measure/cpu_reference.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

using namespace autotune;

namespace {

std::vector<std::filesystem::path> builtin_specs()
{
    std::vector<std::filesystem::path> specs;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "kernels"))
        if (entry.path().extension() == ".toml")
            specs.push_back(entry.path());
    std::ranges::sort(specs);
    return specs;
}

TEST(BuiltinKernels, TheKernelsFolderHoldsTheBuiltIns)
{
    // Guards the glob: an empty or misplaced folder must not make the suite below vacuous.
    std::vector<std::string> names;
    for (const auto& path : builtin_specs())
        names.push_back(path.stem().string());
    for (const char* name : {"copy", "gemm", "reduce", "transpose", "triad"})
        EXPECT_THAT(names, ::testing::Contains(name));
}

class BuiltinKernel : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(BuiltinKernel, LoadsHasADefaultSpaceAndItsFirstVariantCompiles)
{
    const KernelSpec spec = load_spec(GetParam());
    EXPECT_EQ(spec.name, GetParam().stem().string()) << "results/<arch>/<name>.json must match the file name";
    if (!spec.reference.cpu.empty())
        EXPECT_THAT(cpu_reference_names(), ::testing::Contains(spec.reference.cpu));
    const Problem problem = resolve_problem(spec, {});
    const Space space = enumerate_space(spec, problem, SpaceSelection::default_space);
    ASSERT_FALSE(space.variants.empty()) << "no valid variant for " << problem.to_string();

    test::TempDir cache;
    CompileSettings settings;
    settings.cache_dir = cache.path();
    const std::vector<Variant> first{space.variants.front()};
    for (const char* arch : {"sm_80", "sm_90", "sm_100"}) {
        SCOPED_TRACE(std::string(arch) + " " + first.front().key());
        const auto compiled = compile_variants(spec, problem, first, parse_arch(arch), settings);
        ASSERT_EQ(compiled.size(), 1u);
        EXPECT_EQ(compiled[0].status, CompileStatus::ok) << compiled[0].error << "\n" << compiled[0].log;
        EXPECT_FALSE(compiled[0].cubin.empty());
        EXPECT_FALSE(compiled[0].lowered_name.empty());
    }
}

INSTANTIATE_TEST_SUITE_P(EveryBuiltinKernel, BuiltinKernel, ::testing::ValuesIn(builtin_specs()),
                         [](const ::testing::TestParamInfo<std::filesystem::path>& info) {
                             std::string name = info.param.stem().string();
                             std::ranges::replace_if(name, [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                             return name;
                         });

} // namespace
