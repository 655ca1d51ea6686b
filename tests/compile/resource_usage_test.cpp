// What the compile stage takes from ptxas' log and what from the cubin, and where the two
// must agree. CUDA 11's ptxas never prints barriers (--nvrtc with an older toolkit): the
// cubin's count stands; where a log does print it, a disagreement is an error.
#include "compile/resource_usage.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

const char* const entry = "_Z4fillPf";

CubinFunctionInfo cubin_with_one_barrier()
{
    CubinFunctionInfo f;
    f.name = entry;
    f.registers = 9;
    f.barriers = 1;
    f.shared_static = 256;
    return f;
}

std::string log_of(const std::string& usage_line)
{
    return std::string("ptxas info    : 0 bytes gmem\n"
                       "ptxas info    : Compiling entry function '") + entry + "' for 'sm_86'\n"
           "ptxas info    : Function properties for " + entry + "\n"
           "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
           "ptxas info    : " + usage_line + "\n";
}

} // namespace

TEST(ResourceUsage, ALogWithoutBarriersTakesTheCubinsCount)
{
    // NVRTC 11.8's log of a kernel with one __syncthreads() (verbatim but the name).
    const PtxasReport log = parse_ptxas_log(log_of("Used 9 registers, 256 bytes smem, 360 bytes cmem[0]"), entry);
    EXPECT_FALSE(log.barriers.has_value());
    const ResourceUsage usage = combine_resource_usage(log, cubin_with_one_barrier(), RegisterPolicy{});
    EXPECT_EQ(usage.barriers, 1);
    EXPECT_EQ(usage.registers, 9);
}

TEST(ResourceUsage, ALogThatCountsBarriersMustAgreeWithTheCubin)
{
    const PtxasReport agrees =
        parse_ptxas_log(log_of("Used 9 registers, used 1 barriers, 256 bytes smem, 360 bytes cmem[0]"), entry);
    EXPECT_EQ(combine_resource_usage(agrees, cubin_with_one_barrier(), RegisterPolicy{}).barriers, 1);
    const PtxasReport disagrees =
        parse_ptxas_log(log_of("Used 9 registers, used 2 barriers, 256 bytes smem, 360 bytes cmem[0]"), entry);
    try {
        (void)combine_resource_usage(disagrees, cubin_with_one_barrier(), RegisterPolicy{});
        FAIL() << "2 barriers in the log against 1 in the cubin was accepted";
    } catch (const ResourceMismatch& e) {
        EXPECT_THAT(e.what(), HasSubstr("ptxas log and cubin disagree on barriers: 2 vs 1"));
    }
}
