// The spec's reference variant ([reference] variant) as a Variant of one problem: the
// same index, derived values and geometry the enumeration gives that point.
#include "space/reference_variant.hpp"

#include "space/check_problem.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

KernelSpec spec_with_reference(NamedValues reference)
{
    KernelSpec spec;
    spec.name = "t";
    spec.spec_path = "/specs/t.toml";
    spec.parameters = {{"BX", {16, 32, 64}, {16, 32, 64}}, {"BY", {1, 2, 4}, {1, 2, 4}}};
    spec.derived = {{"THREADS", "BX * BY"}};
    spec.problem = {{"W", 256}, {"H", 64}};
    spec.constraints = {{"enough", "THREADS >= 32"}};
    spec.launch.block = {"BX", "BY"};
    spec.launch.grid = {"W / BX", "H / BY"};
    spec.arguments = {{"out", ArgumentKind::buffer, "float", "W * H", "", BufferAccess::output}};
    spec.cost = {"W * H", "4 * W * H"};
    spec.reference.variant = std::move(reference);
    return spec;
}

TEST(ReferenceVariant, IsTheEnumeratedVariantOfThatPoint)
{
    const KernelSpec spec = spec_with_reference({{"BX", 32}, {"BY", 4}});
    const Problem problem = resolve_problem(spec, {});
    const auto reference = reference_variant(spec, problem);
    ASSERT_TRUE(reference.has_value());
    const Space space = enumerate_space(spec, problem, SpaceSelection::full);
    const auto same = std::find_if(space.variants.begin(), space.variants.end(),
                                   [&](const Variant& v) { return v.key() == "BX=32,BY=4"; });
    ASSERT_NE(same, space.variants.end());
    EXPECT_EQ(reference->index, same->index);
    EXPECT_EQ(reference->index, 1u * 3 + 2); // BX's second value, BY's third
    EXPECT_EQ(reference->derived, same->derived);
    EXPECT_EQ(reference->block, (Dim3{32, 4, 1}));
    EXPECT_EQ(reference->grid, (Dim3{8, 16, 1}));
}

TEST(ReferenceVariant, NoneWhenTheSpecNamesNone)
{
    const KernelSpec spec = spec_with_reference({});
    EXPECT_FALSE(reference_variant(spec, resolve_problem(spec, {})).has_value());
}

TEST(ReferenceVariant, APointTheRulesRemoveIsASpecErrorNamingTheProblemAndTheRule)
{
    const KernelSpec spec = spec_with_reference({{"BX", 16}, {"BY", 1}}); // 16 threads
    EXPECT_THAT([&] { (void)reference_variant(spec, resolve_problem(spec, {})); },
                ::testing::ThrowsMessage<SpecError>(
                    AllOf(HasSubstr("/specs/t.toml: [reference] variant BX=16,BY=1 is not a valid variant for problem "
                                    "W=256,H=64"),
                          HasSubstr("constraint enough"))));
    // CUDA's own limits count too: 2^20 blocks in y are beyond the 65535 allowed.
    KernelSpec big = spec_with_reference({{"BX", 64}, {"BY", 1}});
    big.problem = {{"W", 256}, {"H", 1 << 20}};
    EXPECT_THAT([&] { (void)reference_variant(big, resolve_problem(big, {})); },
                ::testing::ThrowsMessage<SpecError>(HasSubstr("grid")));
}

TEST(CheckProblem, AValidProblemPasses)
{
    const KernelSpec spec = spec_with_reference({{"BX", 32}, {"BY", 4}});
    const Problem problem = resolve_problem(spec, {});
    EXPECT_NO_THROW(check_problem(spec, problem, enumerate_space(spec, problem, SpaceSelection::full),
                                  SpaceSelection::full));
}

} // namespace
