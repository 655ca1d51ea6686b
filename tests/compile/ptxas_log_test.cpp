// ptxas' verbose report as NVRTC and nvcc print it (lines captured from CUDA 13.0).
#include "compile/ptxas_log.hpp"

#include "compile/compile_output.hpp"
#include "util/readable_text.hpp"

#include <gtest/gtest.h>

using namespace autotune;

namespace {

const char* const gemm = "_ZN16autotune_kernels4gemmILi64ELi64ELi8ELi4ELi4ELi4ELi256ELi2EEEvPKfS2_Pfiii";

TEST(PtxasLog, ReadsTheEntrysUsageAndTheGlobalOverride)
{
    const std::string log = std::string(
        "ptxas info    : Overriding global maxrregcount 64 with entry-specific value 128 computed using thread count\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '") + gemm + "' for 'sm_90'\n"
        "ptxas info    : Function properties for " + gemm + "\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 80 registers, used 1 barriers, 4096 bytes smem, 400 bytes cmem[0]\n"
        "ptxas info    : Compile time = 61.091 ms\n";
    const PtxasReport r = parse_ptxas_log(log, gemm);
    EXPECT_TRUE(r.found);
    EXPECT_EQ(r.registers, 80);
    EXPECT_EQ(r.barriers, 1);
    EXPECT_EQ(r.shared_bytes, 4096);
    EXPECT_EQ(r.constant_bank0, 400);
    EXPECT_EQ(r.maxrregcount_overridden_from, 64);
    EXPECT_EQ(r.maxrregcount_overridden_to, 128);
    EXPECT_FALSE(r.cap_raised_from.has_value());
}

TEST(PtxasLog, ReadsSpillsStackAndARaisedCap)
{
    const char* const name = "_Z4heavyPKfPfi";
    const std::string log = std::string(
        "ptxas warning : For profile sm_90 adjusting per thread register count of 8 to lower bound of 24\n"
        "ptxas info    : Overriding maximum register limit 256 for '") + name + "' with  24 of maxrregcount option\n"
        "ptxas info    : Compiling entry function '" + name + "' for 'sm_90'\n"
        "ptxas info    : Function properties for " + name + "\n"
        "ptxas         .     1504 bytes stack frame, 3684 bytes spill stores, 3428 bytes spill loads\n"
        "ptxas info    : Used 24 registers, used 1 barriers, 1504 bytes cumulative stack size, 8192 bytes smem\n";
    const PtxasReport r = parse_ptxas_log(log, name);
    EXPECT_EQ(r.registers, 24);
    EXPECT_EQ(r.stack_frame, 1504);
    EXPECT_EQ(r.cumulative_stack, 1504);
    EXPECT_EQ(r.spill_stores, 3684);
    EXPECT_EQ(r.spill_loads, 3428);
    EXPECT_EQ(r.cap_raised_from, 8);
    EXPECT_EQ(r.cap_raised_to, 24);
    ASSERT_EQ(r.warnings.size(), 1u);
}

TEST(PtxasLog, AttributesLinesToTheRightFunctionOnly)
{
    const std::string log =
        "ptxas warning : Value of threads per SM for entry _Z5otherv is out of range. .minnctapersm will be ignored\n"
        "ptxas info    : Compiling entry function '_Z5otherv' for 'sm_80'\n"
        "ptxas info    : Function properties for _Z5otherv\n"
        "ptxas         .     16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 99 registers, used 0 barriers\n"
        "ptxas info    : Compiling entry function '_Z4minev' for 'sm_80'\n"
        "ptxas info    : Function properties for _Z4minev\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers\n";
    const PtxasReport mine = parse_ptxas_log(log, "_Z4minev");
    EXPECT_EQ(mine.registers, 12);
    EXPECT_EQ(mine.spill_stores, 0);
    EXPECT_FALSE(mine.min_blocks_ignored);
    EXPECT_TRUE(mine.warnings.empty());
    const PtxasReport other = parse_ptxas_log(log, "_Z5otherv");
    EXPECT_EQ(other.registers, 99);
    EXPECT_EQ(other.spill_stores, 4);
    EXPECT_TRUE(other.min_blocks_ignored);
}

TEST(PtxasLog, AFunctionTheLogDoesNotMentionIsNotFound)
{
    EXPECT_FALSE(parse_ptxas_log("ptxas info    : 0 bytes gmem\n", "_Z1kv").found);
    EXPECT_FALSE(parse_ptxas_log("", "_Z1kv").found);
}

// Found by the fuzz target (tests/fuzz): a count too long for its field ended the parse, which
// throws nothing, in std::out_of_range (or, within 64 bits, wrapped into an int). ptxas prints
// no such number; the field stays unread and the rest of the log is read.
TEST(PtxasLog, ACountTooLongForItsFieldIsLeftUnread)
{
    const std::string log =
        "ptxas info    : Overriding global maxrregcount 99999999999999999999 with entry-specific value 128\n"
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "ptxas info    : Function properties for k\n"
        "ptxas         .     99999999999999999999 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 4099999999999999999999 registers, used 1 barriers, 2147483648 bytes smem\n";
    const PtxasReport r = parse_ptxas_log(log, "k");
    EXPECT_FALSE(r.found); // no register count it could read
    EXPECT_EQ(r.stack_frame, 0);
    EXPECT_EQ(r.spill_stores, 8);
    EXPECT_EQ(r.spill_loads, 4);
    EXPECT_EQ(r.barriers, 1);
    EXPECT_EQ(r.shared_bytes, 2147483648);
    EXPECT_FALSE(r.maxrregcount_overridden_from.has_value());
    EXPECT_EQ(r.maxrregcount_overridden_to, 128);
    // Within 64 bits but not an int: not read as a wrapped, negative count.
    EXPECT_FALSE(parse_ptxas_log("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                                 "ptxas info    : Used 2147483648 registers\n",
                                 "k")
                     .found);
}

// NVRTC's log puts a NUL byte before ptxas' error (as CUDA 13.0 wrote it, which the compile
// cache keeps): the error reads without it, and static shared memory over the limit in bytes.
TEST(CompileError, TooMuchSharedDataIsSaidInBytesAgainstTheArchitecturesLimit)
{
    const std::string cached = std::string(1, '\0') +
                               "ptxas error   : Entry function 'convolution_kernel' uses too much shared data (0xc3c0 "
                               "bytes, 0xc000 max)";
    EXPECT_EQ(readable_compile_error(cached, "sm_86"),
              "entry function 'convolution_kernel' uses 50112 bytes of static shared memory, over sm_86's limit of "
              "49152 (ptxas: too much shared data)");
    const std::string other = std::string(1, '\0') + "ptxas error   : Entry function 'k' uses too much local data";
    EXPECT_EQ(readable_compile_error(other, "sm_86"), "ptxas error   : Entry function 'k' uses too much local data");
    EXPECT_EQ(readable_compile_error("kernel.cu(3): error: identifier \"x\" is undefined", "sm_90"),
              "kernel.cu(3): error: identifier \"x\" is undefined");
    EXPECT_EQ(readable_text(std::string("a\n\0b\0\0", 6)), "a\nb");
}

} // namespace
