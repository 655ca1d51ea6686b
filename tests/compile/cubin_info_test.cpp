// read_cubin against ptxas' own account: every kernel is compiled here with NVRTC and
// `--ptxas-options=-v`, and what the cubin's metadata says must equal what ptxas printed
// for the same compile (plus values fixed by the source: declared shared arrays, launch
// bounds, register caps).
#include "compile/cubin_info.hpp"
#include "compile/ptxas_log.hpp"
#include "support/test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace autotune {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

struct Compiled {
    std::string cubin; // PTX instead, for a virtual architecture (compute_XX)
    std::string log;
    std::map<std::string, std::string> lowered; // name expression -> mangled name
};

Compiled compile(const std::string& source, const std::string& arch, std::vector<std::string> options = {},
                 const std::vector<std::string>& name_expressions = {})
{
    nvrtcProgram program = nullptr;
    const auto check = [&](nvrtcResult result, const char* what) {
        if (result != NVRTC_SUCCESS)
            throw std::runtime_error(std::string(what) + ": " + nvrtcGetErrorString(result));
    };
    check(nvrtcCreateProgram(&program, source.c_str(), "cubin_info_test.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
    const std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> owner(&program, [](nvrtcProgram* p) { nvrtcDestroyProgram(p); });
    for (const auto& expression : name_expressions)
        check(nvrtcAddNameExpression(program, expression.c_str()), "nvrtcAddNameExpression");
    options.push_back("--gpu-architecture=" + arch);
    options.push_back("--ptxas-options=-v");
    std::vector<const char*> argv;
    for (const auto& option : options)
        argv.push_back(option.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());

    Compiled out;
    std::size_t size = 0;
    check(nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
    out.log.resize(size);
    check(nvrtcGetProgramLog(program, out.log.data()), "nvrtcGetProgramLog");
    if (compiled != NVRTC_SUCCESS)
        throw std::runtime_error("NVRTC failed for " + arch + ":\n" + out.log);
    if (arch.starts_with("compute_")) {
        check(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
        out.cubin.resize(size);
        check(nvrtcGetPTX(program, out.cubin.data()), "nvrtcGetPTX");
        out.cubin.resize(size - 1); // no terminating NUL
    } else {
        check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
        out.cubin.resize(size);
        check(nvrtcGetCUBIN(program, out.cubin.data()), "nvrtcGetCUBIN");
    }
    for (const auto& expression : name_expressions) {
        const char* lowered = nullptr;
        check(nvrtcGetLoweredName(program, expression.c_str(), &lowered), "nvrtcGetLoweredName");
        out.lowered[expression] = lowered;
    }
    return out;
}

void expect_matches_ptxas(const CubinFunctionInfo& f, const std::string& log)
{
    SCOPED_TRACE("function " + f.name);
    const PtxasReport says = parse_ptxas_log(log, f.name);
    ASSERT_TRUE(says.found) << log;
    EXPECT_EQ(f.registers, says.registers);
    EXPECT_EQ(f.barriers, says.barriers.value_or(0)); // printed where there are any
    EXPECT_EQ(f.frame_size, says.cumulative_stack.value_or(says.stack_frame));
    EXPECT_EQ(f.min_stack_size, says.cumulative_stack.value_or(0));
    EXPECT_EQ(f.shared_static, says.shared_bytes);
}

// Kernels whose shared use is known from the source.
constexpr const char* kSharedKernels = R"(
extern "C" __global__ void shared4k(float* out) {      // 1024 floats = 4096 bytes, one barrier
    __shared__ float a[1024];
    a[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = a[1023 - threadIdx.x];
}
extern "C" __global__ void two_arrays(float* out) {    // 400 + 160 = 560 bytes
    __shared__ float x[100];
    __shared__ double y[20];
    x[threadIdx.x % 100] = 1.0f;
    y[threadIdx.x % 20] = 2.0;
    __syncthreads();
    out[threadIdx.x] = x[threadIdx.x % 3] + float(y[threadIdx.x % 7]);
}
extern "C" __global__ void dynamic_only(float* out) {  // no static shared memory
    extern __shared__ float d[];
    d[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = d[threadIdx.x ^ 1];
}
extern "C" __global__ void plain(float* out) {          // no shared memory, no barrier
    out[threadIdx.x] = 1.0f;
}
)";

// 64 accumulators and 16 operands: far more than 32 registers, so a cap of 32 spills.
constexpr const char* kRegisterTile = R"(
extern "C" __global__ void tile(const float* a, const float* b, float* c, int n) {
    float acc[8][8] = {};
    for (int k = 0; k < n; ++k) {
        float av[8], bv[8];
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            av[i] = a[k * 2048 + threadIdx.x * 8 + i];
            bv[i] = b[k * 2048 + threadIdx.x * 8 + i];
        }
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
                acc[i][j] += av[i] * bv[j];
    }
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            c[(i * 8 + j) * 256 + threadIdx.x] = acc[i][j];
}
)";

constexpr const char* kLaunchBounds = R"(
extern "C" __global__ void __launch_bounds__(256, 2) bounded(float* out) {
    out[blockIdx.x * 256 + threadIdx.x] *= 2.0f;
}
)";

constexpr const char* kScaleTemplate = R"(
template <int Factor> __global__ void scale(float* out) { out[threadIdx.x] *= Factor; }
)";

class CubinArch : public ::testing::TestWithParam<std::string> {
protected:
    int sm() const { return std::stoi(GetParam().substr(3)); }
};

TEST_P(CubinArch, SharedMemoryBarriersAndRegistersMatchPtxas)
{
    const Compiled c = compile(kSharedKernels, GetParam());
    const CubinInfo info = read_cubin(c.cubin);
    EXPECT_EQ(info.sm, sm());
    EXPECT_THAT(info.ptxas_arguments, AllOf(HasSubstr("-arch " + GetParam()), Not(EndsWith(" "))));
    ASSERT_EQ(info.functions.size(), 4u);
    for (const auto& f : info.functions)
        expect_matches_ptxas(f, c.log);

    const auto& shared4k = find_function(info, "shared4k");
    EXPECT_EQ(shared4k.shared_static, 4096);
    EXPECT_EQ(shared4k.barriers, 1);
    EXPECT_EQ(find_function(info, "two_arrays").shared_static, 560);
    EXPECT_EQ(find_function(info, "dynamic_only").shared_static, 0);
    const auto& plain = find_function(info, "plain");
    EXPECT_EQ(plain.shared_static, 0);
    EXPECT_EQ(plain.barriers, 0);
    EXPECT_EQ(plain.max_registers, 255); // no cap asked for
    EXPECT_EQ(plain.max_threads, std::nullopt);
    EXPECT_EQ(plain.frame_size, 0);
    EXPECT_GT(plain.constant_bank0, 8);   // the pointer parameter plus the driver's block
    EXPECT_GE(plain.code_bytes, 128);    // whole 16-byte instructions, padded to 128-byte blocks
    EXPECT_EQ(plain.code_bytes % 128, 0);
    EXPECT_THAT(plain.sass_sha256, ::testing::MatchesRegex("[0-9a-f]{64}"));
}

TEST_P(CubinArch, SpillingKernelFrameMatchesPtxas)
{
    const Compiled c = compile(kRegisterTile, GetParam(), {"--maxrregcount=32"});
    const CubinInfo info = read_cubin(c.cubin);
    const auto& tile = find_function(info, "tile");
    expect_matches_ptxas(tile, c.log);
    EXPECT_EQ(tile.max_registers, 32);
    EXPECT_LE(tile.registers, 32);
    EXPECT_GT(tile.frame_size, 0) << "the tile was meant to spill at 32 registers:\n" << c.log;
    EXPECT_THAT(info.ptxas_arguments, HasSubstr("-maxrregcount 32"));

    const Compiled uncapped = compile(kRegisterTile, GetParam());
    const CubinInfo uncapped_info = read_cubin(uncapped.cubin);
    const auto& free = find_function(uncapped_info, "tile");
    expect_matches_ptxas(free, uncapped.log);
    EXPECT_EQ(free.max_registers, 255);
    EXPECT_GT(free.registers, 32);
    EXPECT_EQ(free.frame_size, 0);
}

TEST_P(CubinArch, LaunchBoundsGiveThreadLimitAndRegisterCap)
{
    const Compiled c = compile(kLaunchBounds, GetParam());
    const CubinInfo info = read_cubin(c.cubin);
    const auto& bounded = find_function(info, "bounded");
    expect_matches_ptxas(bounded, c.log);
    EXPECT_EQ(bounded.max_threads, 256);
    // 2 blocks of 256 threads share the 64 Ki registers: at most 128 each.
    EXPECT_EQ(bounded.max_registers, 128);
    // ptxas (CUDA 13.0) keeps no record of .minnctapersm itself; should one appear, it must say 2.
    if (bounded.min_blocks) {
        EXPECT_EQ(*bounded.min_blocks, 2);
    }
}

INSTANTIATE_TEST_SUITE_P(Cubin, CubinArch,
                         ::testing::Values("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"),
                         [](const auto& info) { return info.param; });

TEST(CubinInfo, SassHashIdentifiesMachineCode)
{
    const auto hash = [](const std::string& source, const std::string& function) {
        const CubinInfo info = read_cubin(compile(source, "sm_90").cubin);
        return find_function(info, function).sass_sha256;
    };
    const std::string doubling = R"(extern "C" __global__ void k(float* p) { p[threadIdx.x] *= 2.0f; })";
    const std::string tripling = R"(extern "C" __global__ void k(float* p) { p[threadIdx.x] *= 3.0f; })";
    EXPECT_EQ(hash(doubling, "k"), hash(doubling, "k"));
    EXPECT_NE(hash(doubling, "k"), hash(tripling, "k"));
}

TEST(CubinInfo, TemplateInstancesAreFoundByLoweredName)
{
    const Compiled c = compile(kScaleTemplate, "sm_90", {}, {"scale<2>", "scale<3>"});
    const CubinInfo info = read_cubin(c.cubin);
    ASSERT_EQ(info.functions.size(), 2u);
    const auto& two = find_function(info, c.lowered.at("scale<2>"));
    const auto& three = find_function(info, c.lowered.at("scale<3>"));
    EXPECT_EQ(two.name, "_Z5scaleILi2EEvPf");
    EXPECT_NE(two.sass_sha256, three.sass_sha256);
    expect_matches_ptxas(two, c.log);
}

TEST(CubinInfo, DeviceFunctionsAreNotEntries)
{
    const std::string source = R"(
__device__ __noinline__ float helper(const float* p, int i) { return p[i] * 3.0f + p[i ^ 5]; }
extern "C" __global__ void caller(float* out) { out[threadIdx.x] = helper(out, threadIdx.x); }
)";
    // With -rdc the helper keeps its own code section and symbol.
    const CubinInfo info = read_cubin(compile(source, "sm_90", {"--relocatable-device-code=true"}).cubin);
    ASSERT_EQ(info.functions.size(), 1u);
    EXPECT_EQ(info.functions[0].name, "caller");
}

TEST(CubinInfo, RejectsBytesThatAreNotACubin)
{
    const auto message_for = [](const std::string& bytes) -> std::string {
        try {
            (void)read_cubin(bytes);
        } catch (const CubinError& e) {
            return e.what();
        }
        return "(no error)";
    };
    EXPECT_THAT(message_for("hello, world"), AllOf(HasSubstr("not a cubin"), HasSubstr("12 bytes"), HasSubstr("no ELF header")));
    EXPECT_THAT(message_for(""), AllOf(HasSubstr("not a cubin"), HasSubstr("no ELF header")));

    // A well-formed ELF for another machine: this test program itself.
    const std::string host = test::read_file("/proc/self/exe");
    ASSERT_FALSE(host.empty());
    EXPECT_THAT(message_for(host), AllOf(HasSubstr("not a cubin"), HasSubstr("not EM_CUDA")));

    // A cubin cut short after its ELF header: the section table is gone.
    const std::string cubin = compile(kLaunchBounds, "sm_90").cubin;
    EXPECT_THAT(message_for(cubin.substr(0, 64)), AllOf(HasSubstr("not a cubin"), HasSubstr("truncated")));
    EXPECT_THAT(message_for(cubin.substr(0, cubin.size() / 2)), HasSubstr("truncated"));
}

TEST(CubinInfo, MissingFunctionNamesItAndListsThePresentOnes)
{
    const CubinInfo info = read_cubin(compile(kSharedKernels, "sm_80").cubin);
    try {
        (void)find_function(info, "shared8k");
        FAIL() << "found a function that does not exist";
    } catch (const CubinError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("'shared8k'"), HasSubstr("sm_80"), HasSubstr("shared4k"),
                                    HasSubstr("two_arrays"), HasSubstr("dynamic_only"), HasSubstr("plain")));
    }
}

// A toolkit program, from the toolkit the project was built against or from PATH.
std::string find_tool(const std::string& name)
{
    if (const std::string configured = AUTOTUNE_CUOBJDUMP; name == "cuobjdump" && !configured.empty())
        return configured;
    if (const auto in_toolkit = test::cuda_bin_dir() / name; std::filesystem::exists(in_toolkit))
        return in_toolkit.string();
    const auto found = test::run_command("command -v " + name);
    if (found.exit_code != 0)
        return {};
    return found.out.substr(0, found.out.find('\n'));
}

// The launch-bounds kernel as a cubin whose PTX bounds it to 16 x 4 x 2 threads, assembled
// by `ptxas`; empty (with a test failure) if the PTX or ptxas does not give one.
std::string bounded_16_4_2(const std::string& ptxas)
{
    std::string ptx = compile(kLaunchBounds, "compute_90").cubin;
    const std::regex maxntid(R"(\.maxntid\s+256,\s*1,\s*1)");
    EXPECT_TRUE(std::regex_search(ptx, maxntid)) << ptx;
    ptx = std::regex_replace(ptx, maxntid, ".maxntid 16, 4, 2");
    const test::TempDir dir;
    std::ofstream(dir.path() / "bounded.ptx") << ptx;
    const auto assembled = test::run_command(ptxas + " -arch=sm_90 " + (dir.path() / "bounded.ptx").string() + " -o " +
                                             (dir.path() / "bounded.cubin").string());
    EXPECT_EQ(assembled.exit_code, 0) << assembled.err;
    return test::read_file(dir.path() / "bounded.cubin");
}

// CUDA C++ can only bound threads in one dimension; PTX's .maxntid takes three, and
// EIATTR_MAX_THREADS keeps all three.
TEST(CubinInfo, MaxThreadsMultipliesThreeDimensions)
{
    const std::string ptxas = find_tool("ptxas");
    if (ptxas.empty())
        GTEST_SKIP() << "ptxas is neither in " << test::cuda_bin_dir() << " nor on PATH";
    const CubinInfo info = read_cubin(bounded_16_4_2(ptxas));
    EXPECT_EQ(find_function(info, "bounded").max_threads, 16 * 4 * 2);
}

// A thread limit whose three dimensions multiply past 64 bits (a fuzzer's finding: signed
// overflow) is a malformed cubin, not undefined behaviour.
TEST(CubinInfo, AThreadLimitBeyondAnyBlockIsAMalformedCubin)
{
    const std::string ptxas = find_tool("ptxas");
    if (ptxas.empty())
        GTEST_SKIP() << "ptxas is neither in " << test::cuda_bin_dir() << " nor on PATH";
    std::string cubin = bounded_16_4_2(ptxas);

    // EIATTR_MAX_THREADS' payload: 16, 4, 2 as little-endian 32-bit words.
    const std::string dims("\x10\0\0\0\x04\0\0\0\x02\0\0\0", 12);
    const auto at = cubin.find(dims);
    ASSERT_NE(at, std::string::npos);
    const CubinInfo unchanged = read_cubin(cubin);
    ASSERT_EQ(find_function(unchanged, "bounded").max_threads, 128);
    cubin.replace(at, dims.size(), std::string(12, '\xff'));
    try {
        (void)read_cubin(cubin);
        FAIL() << "a thread limit of (2^32 - 1)^3 was read";
    } catch (const CubinError& e) {
        EXPECT_THAT(e.what(), AllOf(HasSubstr("not a cubin"), HasSubstr("thread limit of 'bounded'"),
                                    HasSubstr("4294967295 x 4294967295 x 4294967295")));
    }
}

// Calls through a function pointer keep the callees out of line. ptxas -v then prints
// the kernel's own frame (64 bytes here) and the "cumulative stack size" with the
// deepest callee; the cubin's FRAME_SIZE for the entry is the cumulative figure, which
// is what a thread needs.
TEST(CubinInfo, IndirectCallsPutTheCalleesStackInTheFrame)
{
    const std::string source = R"(
__device__ __noinline__ float pick(const float* p, int i) {
    float local[64];
    for (int j = 0; j < 64; ++j) local[j] = p[j * 7 % 64];
    return local[i & 63];
}
__device__ __noinline__ float twice(const float* p, int i) { return p[i] * 2; }
typedef float (*Fn)(const float*, int);
__device__ Fn table[2] = {pick, twice};
extern "C" __global__ void outer(float* out, int i) {
    float mine[16];
    for (int j = 0; j < 16; ++j) mine[j] = out[j];
    out[threadIdx.x] = table[i & 1](out, i) + mine[i & 15];
}
)";
    const Compiled c = compile(source, "sm_90");
    const CubinInfo info = read_cubin(c.cubin);
    const auto& outer = find_function(info, "outer");
    const PtxasReport says = parse_ptxas_log(c.log, "outer");
    ASSERT_TRUE(says.cumulative_stack.has_value()) << c.log;
    EXPECT_GT(*says.cumulative_stack, says.stack_frame) << c.log;
    EXPECT_EQ(outer.frame_size, *says.cumulative_stack);
    EXPECT_EQ(outer.min_stack_size, *says.cumulative_stack);
}

// cuobjdump, where installed, reads the same ELF independently.
TEST(CubinInfo, AgreesWithCuobjdump)
{
    const std::string cuobjdump = find_tool("cuobjdump");
    if (cuobjdump.empty())
        GTEST_SKIP() << "cuobjdump is neither in " << test::cuda_bin_dir() << " nor on PATH";
    for (const std::string arch : {"sm_80", "sm_90", "sm_120"}) {
        SCOPED_TRACE(arch);
        const Compiled c = compile(std::string(kSharedKernels) + kRegisterTile, arch, {"--maxrregcount=32"});
        const test::TempDir dir;
        const auto path = dir.path() / "kernels.cubin";
        std::ofstream(path, std::ios::binary) << c.cubin;
        const auto dump = test::run_command(cuobjdump + " -elf " + path.string());
        ASSERT_EQ(dump.exit_code, 0) << dump.err;

        for (const auto& f : read_cubin(c.cubin).functions) {
            SCOPED_TRACE(f.name);
            std::smatch m;
            ASSERT_TRUE(std::regex_search(dump.out, m, std::regex("function: " + f.name + R"(\(0x[0-9a-f]+\)\s+register count: (\d+))")));
            EXPECT_EQ(f.registers, std::stoi(m[1]));
            ASSERT_TRUE(std::regex_search(dump.out, m, std::regex("function: " + f.name + R"(\(0x[0-9a-f]+\)\s+frame size: 0x([0-9a-f]+))")));
            EXPECT_EQ(f.frame_size, std::stoll(m[1], nullptr, 16));
            // Section table row: index offset size ... name.
            ASSERT_TRUE(std::regex_search(dump.out, m, std::regex(R"(\s[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s.*PROGBITS.*\.text\.)" + f.name + "\n")));
            EXPECT_EQ(f.code_bytes, std::stoll(m[1], nullptr, 16));
        }
    }
}

// Each function's listing in cuobjdump -sass of `cubin`, from its header to the next one.
std::map<std::string, std::string> sass_listings(const std::string& cuobjdump, const std::string& cubin,
                                                 const std::vector<std::string>& names)
{
    const test::TempDir dir;
    const auto path = dir.path() / "listed.cubin";
    std::ofstream(path, std::ios::binary) << cubin;
    const auto dump = test::run_command(cuobjdump + " -sass " + path.string());
    if (dump.exit_code != 0)
        throw std::runtime_error("cuobjdump -sass failed: " + dump.err);
    std::map<std::string, std::string> listings;
    for (const std::string& name : names) {
        const std::size_t from = dump.out.find("Function : " + name + "\n");
        if (from == std::string::npos)
            throw std::runtime_error("cuobjdump lists no " + name);
        listings[name] = dump.out.substr(from, dump.out.find("Function : ", from + 1) - from);
    }
    return listings;
}

// The loops the machine code kept: its backward branches, as cuobjdump -sass shows them
// (a BRA whose target is at or before its own address), and none in code without a loop.
TEST(CubinInfo, BackwardBranchesAgreeWithCuobjdump)
{
    const std::string cuobjdump = find_tool("cuobjdump");
    if (cuobjdump.empty())
        GTEST_SKIP() << "cuobjdump is neither in " << test::cuda_bin_dir() << " nor on PATH";
    const std::string kernels = R"(
extern "C" __global__ void straight(float* p) { p[threadIdx.x] *= 2.0f; }
extern "C" __global__ void summing(float* p, int n) {
    float s = 0;
    #pragma unroll 1
    for (int i = 0; i < n; ++i) s += p[i * blockDim.x + threadIdx.x];
    p[threadIdx.x] = s;
}
extern "C" __global__ void nested(float* p, const float* q, int n) {
    float s[4] = {0, 0, 0, 0};
    for (int k = 0; k < n; k += 16)
        for (int i = 0; i < 16; i += 2)
            #pragma unroll
            for (int j = 0; j < 4; ++j) s[j] += q[(k + i) * 4 + j] * p[k + i];
    for (int j = 0; j < 4; ++j) p[j * blockDim.x + threadIdx.x] = s[j];
}
)";
    for (const std::string arch : {"sm_75", "sm_86", "sm_90", "sm_120"}) {
        SCOPED_TRACE(arch);
        const Compiled c = compile(kernels, arch);
        const auto listings = sass_listings(cuobjdump, c.cubin, {"straight", "summing", "nested"});
        const CubinInfo cubin = read_cubin(c.cubin);
        for (const auto& [name, listing] : listings) {
            SCOPED_TRACE(name);
            int backward = 0;
            const std::regex branch(R"(/\*([0-9a-f]{4,})\*/[^\n;]*\bBRA\b[^\n;]* 0x([0-9a-f]+)\s*;)");
            for (auto it = std::sregex_iterator(listing.begin(), listing.end(), branch); it != std::sregex_iterator(); ++it) {
                const auto at = std::stoll((*it)[1], nullptr, 16);
                const auto target = std::stoll((*it)[2], nullptr, 16);
                // The self-branch closing the section never issues and is not counted.
                if (target <= at && at < find_function(cubin, name).entry_code_bytes)
                    ++backward;
            }
            EXPECT_EQ(find_function(cubin, name).entry_loops, backward);
        }
        EXPECT_EQ(find_function(cubin, "straight").entry_loops, 0);
        EXPECT_GE(find_function(cubin, "summing").entry_loops, 1);
    }
}

// The innermost loops the machine code kept and the unroll markers in each (LDG, STG, LDS,
// STS, MUFU), as cuobjdump -sass shows them: a backward branch's range that holds no other.
TEST(CubinInfo, InnermostLoopsAndTheirMarkersAgreeWithCuobjdump)
{
    const std::string cuobjdump = find_tool("cuobjdump");
    if (cuobjdump.empty())
        GTEST_SKIP() << "cuobjdump is neither in " << test::cuda_bin_dir() << " nor on PATH";
    const std::string kernels = R"(
extern "C" __global__ void straight(float* p) { p[threadIdx.x] = rsqrtf(p[threadIdx.x]); }
extern "C" __global__ void marked(const float* p, float* q, int n, int m) {
    __shared__ float tile[256];
    float s = 0;
    for (int k = 0; k < m; ++k) {
        tile[threadIdx.x] = p[k * blockDim.x + threadIdx.x];
        __syncthreads();
        for (int i = 0; i < n; ++i) s += __expf(tile[(threadIdx.x + i) & 255]) * rsqrtf(p[i] + s);
        __syncthreads();
    }
    q[threadIdx.x] = s;
}
)";
    for (const std::string arch : {"sm_75", "sm_86", "sm_90", "sm_120"}) {
        SCOPED_TRACE(arch);
        const Compiled c = compile(kernels, arch, {"-use_fast_math"});
        const auto listings = sass_listings(cuobjdump, c.cubin, {"straight", "marked"});
        const CubinInfo cubin = read_cubin(c.cubin);
        for (const auto& [name, listing] : listings) {
            SCOPED_TRACE(name);
            const CubinFunctionInfo& f = find_function(cubin, name);
            // Each instruction's address and mnemonic, in order.
            std::vector<std::pair<long long, std::string>> code;
            std::vector<std::pair<long long, long long>> loops; // [target, branch] addresses
            const std::regex line(R"(/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)[^\n;]*?(?: 0x([0-9a-f]+))?\s*;)");
            for (auto it = std::sregex_iterator(listing.begin(), listing.end(), line); it != std::sregex_iterator(); ++it) {
                const long long at = std::stoll((*it)[1], nullptr, 16);
                if (at >= f.entry_code_bytes)
                    break;
                code.emplace_back(at, (*it)[2]);
                if ((*it)[2] == "BRA" && (*it)[3].matched && std::stoll((*it)[3], nullptr, 16) <= at)
                    loops.emplace_back(std::stoll((*it)[3], nullptr, 16), at);
            }
            std::vector<MachineLoop> expected;
            for (const auto& [target, branch] : loops) {
                bool holds_another = false;
                for (const auto& other : loops)
                    holds_another |= other != std::pair(target, branch) && target <= other.first && other.second <= branch;
                if (holds_another)
                    continue;
                MachineLoop loop;
                for (const auto& [at, mnemonic] : code) {
                    if (at < target || at > branch)
                        continue;
                    ++loop.instructions;
                    loop.markers.global_loads += mnemonic == "LDG";
                    loop.markers.global_stores += mnemonic == "STG";
                    loop.markers.shared_loads += mnemonic == "LDS";
                    loop.markers.shared_stores += mnemonic == "STS";
                    loop.markers.multi_function += mnemonic == "MUFU";
                }
                expected.push_back(loop);
            }
            EXPECT_EQ(f.entry_inner_loops, expected);
        }
        EXPECT_TRUE(find_function(cubin, "straight").entry_inner_loops.empty());
        const auto& inner = find_function(cubin, "marked").entry_inner_loops;
        ASSERT_FALSE(inner.empty());
        int shared_loads = 0, multi_function = 0;
        for (const MachineLoop& loop : inner) {
            shared_loads += loop.markers.shared_loads;
            multi_function += loop.markers.multi_function;
        }
        EXPECT_GE(shared_loads, 1);
        EXPECT_GE(multi_function, 2); // an exp2 and a rsqrt each time round
    }
}

} // namespace
} // namespace autotune

TEST(CubinInfo, AnEntrysOwnCodeEndsWhereASubroutinePtxasAppendedBegins)
{
    // An IEEE division's rare slow path is a subroutine in the entry's code section.
    const std::string dividing = R"(extern "C" __global__ void k(float* p, const float* q) { p[threadIdx.x] /= q[threadIdx.x]; })";
    const CubinInfo dividing_cubin = read_cubin(compile(dividing, "sm_90").cubin);
    const CubinFunctionInfo& divides = find_function(dividing_cubin, "k");
    EXPECT_GT(divides.entry_code_bytes, 0);
    EXPECT_LT(divides.entry_code_bytes, divides.code_bytes);
    EXPECT_EQ(divides.entry_code_bytes % machine_instruction_bytes, 0);
}

TEST_P(CubinArch, AnEntrysCodeLeavesOutTheBranchAndNopsThatCloseItsSection)
{
    // nvdisasm (CUDA 13.0) shows 9 instructions that issue on sm_80 to sm_120 (8 on sm_75:
    // LDC, S2R, LDC.64, ULDC.64, IMAD.WIDE.U32, LDG, FADD, STG, EXIT on sm_90), then a BRA to
    // itself and NOPs to 384 bytes: 24 words, of which the 10th is the branch.
    const std::string doubling = R"(extern "C" __global__ void k(float* p) { p[threadIdx.x] *= 2.0f; })";
    const CubinInfo cubin = read_cubin(compile(doubling, GetParam()).cubin);
    const CubinFunctionInfo& doubles = find_function(cubin, "k");
    EXPECT_EQ(doubles.code_bytes % 128, 0);
    const std::int64_t issued = doubles.entry_code_bytes / machine_instruction_bytes;
    EXPECT_GE(issued, 6) << GetParam();  // load the parameter, the thread index, address, load, add, store, exit
    EXPECT_LE(issued, 9) << GetParam();
    EXPECT_LT(doubles.entry_code_bytes, doubles.code_bytes);
}
