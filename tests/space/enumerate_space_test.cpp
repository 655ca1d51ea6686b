#include "space/enumerate_space.hpp"

#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <set>
#include <string>

using namespace autotune;

namespace {

TunableParameter param(std::string name, std::vector<std::int64_t> values, std::vector<std::int64_t> defaults = {})
{
    return {std::move(name), values, defaults.empty() ? values : defaults};
}

KernelSpec small_spec()
{
    KernelSpec spec;
    spec.name = "t";
    spec.parameters = {param("BX", {32, 64, 2048}), param("BY", {1, 2}), param("MAXT", {0, 64, 128}),
                       param("MINB", {0, 2}), param("MAXNREG", {0, 40})};
    spec.register_policy = {"MAXT", "MINB", "MAXNREG", ""};
    spec.problem = {{"N", 1024}};
    spec.constraints = {{"divides", "N % (BX * BY) == 0"}};
    spec.launch.block = {"BX", "BY"};
    spec.launch.grid = {"N / (BX * BY)"};
    spec.cost = {"N", "4 * N"};
    return spec;
}

const RuleRemoval& removal(const Space& space, const std::string& prefix)
{
    for (const auto& r : space.removals)
        if (r.rule.rfind(prefix, 0) == 0)
            return r;
    throw std::runtime_error("no rule " + prefix);
}

TEST(EnumerateSpace, KeepsOnlyValidVariantsAndCountsEachRemovalOnce)
{
    const KernelSpec spec = small_spec();
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    EXPECT_EQ(space.combinations, 3u * 2 * 3 * 2 * 2);

    // An independent count by plain loops over the same rules.
    std::size_t expected = 0;
    for (std::int64_t bx : {32, 64, 2048})
        for (std::int64_t by : {1, 2})
            for (std::int64_t maxt : {0, 64, 128})
                for (std::int64_t minb : {0, 2})
                    for (std::int64_t maxnreg : {0, 40}) {
                        const std::int64_t threads = bx * by;
                        const bool ok = 1024 % threads == 0 && threads <= 1024 && bx <= 1024 &&
                                        !(minb > 0 && maxt == 0) && !(maxt > 0 && maxt < threads) &&
                                        !(maxnreg > 0 && (maxt > 0 || minb > 0));
                        expected += ok;
                    }
    EXPECT_EQ(space.variants.size(), expected);
    std::size_t removed = 0;
    for (const auto& r : space.removals)
        removed += r.removed;
    EXPECT_EQ(removed + space.variants.size(), space.combinations);
    EXPECT_GT(removal(space, "__maxnreg__ together").removed, 0u);
    EXPECT_GT(removal(space, "__launch_bounds__ max threads below").removed, 0u);
    EXPECT_GT(removal(space, "__launch_bounds__ min blocks without").removed, 0u);
    EXPECT_EQ(removal(space, "constraint divides").removed, 2u * 3 * 2 * 2); // BX = 2048: 1024 % 2048 != 0
}

// Where the spec says how much static shared memory a variant declares, one over the 48 KiB
// ptxas allows any kernel is removed before anything compiles, counted under its own rule;
// a spec that does not say lists no such rule (its results keep the rules they had).
TEST(EnumerateSpace, StaticSharedMemoryTheSpecDeclaresOverTheLimitIsRemovedBeforeCompiling)
{
    KernelSpec spec = small_spec();
    const Space without = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    EXPECT_THROW((void)removal(without, "static shared memory"), std::runtime_error);

    spec.launch.static_shared_bytes = "BX * BY * 512"; // 64 threads: 32 KiB; 128: 64 KiB, over
    const Space with = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    std::size_t over = 0;
    for (const auto& v : without.variants)
        over += v.block.volume() * 512 > 48 * 1024 ? 1 : 0;
    ASSERT_GT(over, 0u);
    EXPECT_EQ(removal(with, "static shared memory the spec declares").removed, over);
    EXPECT_EQ(with.variants.size(), without.variants.size() - over);
    for (const auto& v : with.variants)
        EXPECT_LE(v.block.volume() * 512, 48 * 1024) << v.key();
    // Exactly 48 KiB compiles (ptxas: 0xc000 max).
    spec.launch.static_shared_bytes = "BX * BY * 384";
    EXPECT_EQ(enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full).variants.size(),
              without.variants.size());
}

TEST(EnumerateSpace, CountingGivesTheEnumerationsNumbersWithoutItsVariants)
{
    const KernelSpec small = small_spec();
    const KernelSpec gemm = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    for (const KernelSpec* spec : {&small, &gemm})
        for (const SpaceSelection selection : {SpaceSelection::default_space, SpaceSelection::full}) {
            if (spec == &gemm && selection == SpaceSelection::full)
                continue; // millions of variants: what counting is for, too many to enumerate here
            const Problem problem = resolve_problem(*spec, {});
            const Space space = enumerate_space(*spec, problem, selection);
            const SpaceCount count = count_space(*spec, problem, selection);
            EXPECT_EQ(count.valid, space.variants.size()) << spec->name;
            EXPECT_EQ(count.combinations, space.combinations);
            ASSERT_EQ(count.removals.size(), space.removals.size());
            for (std::size_t i = 0; i < count.removals.size(); ++i) {
                EXPECT_EQ(count.removals[i].rule, space.removals[i].rule);
                EXPECT_EQ(count.removals[i].removed, space.removals[i].removed) << count.removals[i].rule;
            }
        }
}

TEST(EnumerateSpace, AWantedSetHoldsExactlyThoseVariantsAndCountsTheWholeSpace)
{
    const KernelSpec spec = small_spec();
    const Problem problem = resolve_problem(spec, {});
    const Space all = enumerate_space(spec, problem, SpaceSelection::full);
    EXPECT_EQ(all.valid, all.variants.size());
    ASSERT_GE(all.variants.size(), 3u);
    // The first, the last, one between, and an index no valid variant has.
    std::set<std::size_t> wanted{all.variants.front().index, all.variants[all.variants.size() / 2].index,
                                 all.variants.back().index};
    std::size_t invalid = 0;
    while (std::any_of(all.variants.begin(), all.variants.end(), [&](const Variant& v) { return v.index == invalid; }))
        ++invalid;
    wanted.insert(invalid);
    const Space picked = enumerate_space(spec, problem, SpaceSelection::full, wanted);
    ASSERT_EQ(picked.variants.size(), 3u);
    for (const Variant& v : picked.variants) {
        const auto same = std::find_if(all.variants.begin(), all.variants.end(), [&](const Variant& a) { return a.index == v.index; });
        ASSERT_NE(same, all.variants.end());
        EXPECT_EQ(v.key(), same->key());
        EXPECT_EQ(v.grid.x, same->grid.x);
    }
    EXPECT_TRUE(std::is_sorted(picked.variants.begin(), picked.variants.end(),
                               [](const Variant& a, const Variant& b) { return a.index < b.index; }));
    EXPECT_EQ(picked.valid, all.valid);
    EXPECT_EQ(picked.combinations, all.combinations);
}

TEST(EnumerateSpace, NoVariantCombinesMaxnregWithLaunchBounds)
{
    const KernelSpec spec = small_spec();
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    bool saw_maxnreg = false;
    for (const auto& v : space.variants) {
        const RegisterPolicy& p = v.register_policy;
        EXPECT_FALSE(p.maxnreg > 0 && (p.max_threads > 0 || p.min_blocks > 0)) << v.key();
        saw_maxnreg |= p.maxnreg > 0;
        EXPECT_GE(p.max_threads == 0 ? 1024 : p.max_threads, v.block.volume()) << v.key();
    }
    EXPECT_TRUE(saw_maxnreg);
}

TEST(EnumerateSpace, OrderIsDeterministicWithTheLastParameterFastest)
{
    const KernelSpec spec = small_spec();
    const Space a = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    const Space b = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::full);
    ASSERT_EQ(a.variants.size(), b.variants.size());
    for (std::size_t i = 0; i < a.variants.size(); ++i)
        EXPECT_EQ(a.variants[i].key(), b.variants[i].key());
    EXPECT_EQ(a.variants[0].key(), "BX=32,BY=1,MAXT=0,MINB=0,MAXNREG=0");
    EXPECT_EQ(a.variants[1].key(), "BX=32,BY=1,MAXT=0,MINB=0,MAXNREG=40");
    for (std::size_t i = 1; i < a.variants.size(); ++i)
        EXPECT_LT(a.variants[i - 1].index, a.variants[i].index);
}

TEST(EnumerateSpace, GeometryAndPolicyFollowTheVariant)
{
    const KernelSpec spec = small_spec();
    const Space space = enumerate_space(spec, resolve_problem(spec, {{"N", 4096}}), SpaceSelection::full);
    const Variant& v = space.variants.back();
    EXPECT_EQ(v.block, (Dim3{64, 2, 1}));
    EXPECT_EQ(v.grid, (Dim3{4096 / 128, 1, 1}));
    EXPECT_EQ(v.register_policy.kind(), "launch_bounds");
}

TEST(EnumerateSpace, DefaultSpaceUsesDefaultValues)
{
    KernelSpec spec = small_spec();
    spec.parameters[0].default_values = {64};
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
    EXPECT_EQ(space.combinations, 1u * 2 * 3 * 2 * 2);
    for (const auto& v : space.variants)
        EXPECT_EQ(v.value("BX"), 64);
}

TEST(EnumerateSpace, BuiltInGemmDefaultSpaceMatchesAnIndependentCount)
{
    const KernelSpec spec = load_spec(test::source_dir() / "kernels" / "gemm.toml");
    const Space space = enumerate_space(spec, resolve_problem(spec, {}), SpaceSelection::default_space);
    std::size_t expected = 0;
    const int tm = 8, vec = 4;
    for (int bm : {64, 128})
        for (int bn : {64, 128})
            for (int bk : {8, 16})
                for (int tn : {4, 8})
                    for (int maxt : {0, 256})
                        for (int minb : {0, 2})
                            for (int pad : {0, 4})
                                for (int stages : {1, 2}) {
                                    const int threads = (bm / tm) * (bn / tn);
                                    expected += threads <= 1024 && !(minb > 0 && maxt == 0) && bk % vec == 0 &&
                                                !(maxt > 0 && maxt < threads) &&
                                                4 * stages * bk * (bm + bn + 2 * pad) <= 48 * 1024;
                                }
    EXPECT_EQ(space.variants.size(), expected);
    EXPECT_EQ(space.combinations, 256u);
    // Every variant's block is its derived THREADS, and its grid covers C exactly.
    for (const auto& v : space.variants) {
        EXPECT_EQ(v.block.volume(), v.value("THREADS"));
        EXPECT_EQ(v.grid.x * v.value("BN"), 4096);
        EXPECT_EQ(v.grid.y * v.value("BM"), 4096);
    }
}

// A space too large to walk is refused at once, naming its size, instead of a walk of hours
// without a word (BAT's FFT: 21 parameters, 8 * 10^11 combinations); counting refuses it too.
TEST(EnumerateSpace, ASpaceTooLargeToWalkIsRefusedAtOnceWithItsSize)
{
    KernelSpec spec = small_spec();
    std::vector<std::int64_t> ten(10);
    for (std::size_t i = 0; i < ten.size(); ++i)
        ten[i] = static_cast<std::int64_t>(i);
    for (int k = 0; k < 7; ++k) // 3 * 2 * 3 * 2 * 2 * 10^7 = 720 million
        spec.parameters.push_back(param("P" + std::to_string(k), ten));
    const Problem problem = resolve_problem(spec, {});
    EXPECT_EQ(cartesian_size(spec, SpaceSelection::full), 720'000'000u);
    for (const bool counting : {false, true})
        try {
            if (counting)
                (void)count_space(spec, problem, SpaceSelection::full);
            else
                (void)enumerate_space(spec, problem, SpaceSelection::full);
            FAIL() << "a space of 720 million combinations was walked";
        } catch (const SpecError& e) {
            EXPECT_THAT(e.what(), ::testing::HasSubstr("the space has 720000000 combinations of its parameters' "
                                                       "values (the product of their counts), more than the "
                                                       "100000000 autotune enumerates"));
        }
    // 21 parameters of 10 values overflow a 64-bit count: the size saturates, it does not wrap.
    for (int k = 7; k < 21; ++k)
        spec.parameters.push_back(param("P" + std::to_string(k), ten));
    EXPECT_EQ(cartesian_size(spec, SpaceSelection::full), std::numeric_limits<std::size_t>::max());
    EXPECT_THROW((void)count_space(spec, problem, SpaceSelection::full), SpecError);
}

TEST(EnumerateSpace, AGeometryThatIsNotAnIntegerNamesTheExpression)
{
    KernelSpec spec = small_spec();
    spec.constraints.clear();
    try {
        (void)enumerate_space(spec, resolve_problem(spec, {{"N", 1000}}), SpaceSelection::full);
        FAIL() << "a fractional grid was accepted";
    } catch (const SpecError& e) {
        // The spec's error: it names the problem (and the spec file, which this spec built here has not).
        EXPECT_THAT(e.what(), ::testing::HasSubstr("problem N=1000: launch.grid[0]"));
    }
}

} // namespace

namespace {

TEST(EnumerateSpace, AVariantHasTheSameIndexInTheDefaultAndTheFullSpace)
{
    KernelSpec spec = small_spec();
    spec.parameters[0].default_values = {64};
    spec.parameters[2].default_values = {0, 128};
    const Problem problem = resolve_problem(spec, {});
    const Space full = enumerate_space(spec, problem, SpaceSelection::full);
    const Space partial = enumerate_space(spec, problem, SpaceSelection::default_space);
    ASSERT_FALSE(partial.variants.empty());
    for (const auto& v : partial.variants) {
        auto it = std::find_if(full.variants.begin(), full.variants.end(),
                               [&](const Variant& f) { return f.index == v.index; });
        ASSERT_NE(it, full.variants.end()) << v.key();
        EXPECT_EQ(it->key(), v.key());
    }
}

} // namespace
