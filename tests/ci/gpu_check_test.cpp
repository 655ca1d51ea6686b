// scripts/gpu-check --prebuilt and scripts/device-bundle, checked where there is no GPU: the
// lent GPU machine can install nothing, so what it runs must arrive complete. The bundle
// must hold every library the programs load beyond the C/C++ runtime and CUDA, and the
// prebuilt check must get as far as looking for a device with nothing but what was carried.
#include "measure/cuda_driver.hpp"
#include "support/test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

using namespace autotune;
using ::testing::HasSubstr;

namespace {

std::filesystem::path build_dir() { return test::autotune_binary().parent_path(); }

std::string in_source(const std::string& command)
{
    return fmt::format("cd {} && BUILD_DIR={} {}", test::source_dir().string(), build_dir().string(), command);
}

TEST(DeviceBundle, HoldsEveryLibraryTheProgramsLoadBeyondTheRuntimeAndCuda)
{
    test::TempDir dir;
    const auto pack = test::run_command(in_source("scripts/device-bundle " + dir.path().string()));
    ASSERT_EQ(pack.exit_code, 0) << pack.err;
    EXPECT_THAT(pack.out, HasSubstr("libraries"));
    const std::string bundle = (dir.path() / "lib").string();
    for (const char* program : {"autotune", "tests/autotune_gpu_tests"}) {
        // With the bundle first on the path, each library outside the runtime and CUDA is
        // the bundled copy.
        const auto r = test::run_command(fmt::format("LD_LIBRARY_PATH={} ldd {}", bundle, (build_dir() / program).string()));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        std::istringstream lines(r.out);
        std::size_t bundled = 0;
        for (std::string line; std::getline(lines, line);) {
            if (line.find("=>") == std::string::npos)
                continue;
            const bool runtime_or_cuda =
                line.find("libc.so") != std::string::npos || line.find("libm.so") != std::string::npos ||
                line.find("libstdc++") != std::string::npos || line.find("libgcc_s") != std::string::npos ||
                line.find("libpthread") != std::string::npos || line.find("librt.so") != std::string::npos ||
                line.find("libdl.so") != std::string::npos || line.find("libnvrtc") != std::string::npos ||
                line.find("libcublas") != std::string::npos || line.find("libcuda") != std::string::npos;
            if (runtime_or_cuda)
                continue;
            EXPECT_THAT(line, HasSubstr(bundle)) << program;
            ++bundled;
        }
        EXPECT_GT(bundled, 3u) << program << ": boost, fmt, toml++, muparser, libelf at least\n" << r.out;
    }
}

TEST(GpuCheck, PrebuiltRunsOnWhatWasCarriedUpToLookingForADevice)
{
    std::string why_not;
    if (CudaDriver::load(why_not))
        GTEST_SKIP() << "a CUDA driver is present: scripts/gpu-check would really run here";
    test::TempDir dir;
    const auto missing = test::run_command(in_source(fmt::format("AUTOTUNE_DEVICE_BUNDLE={0}/none scripts/gpu-check {0}/out --prebuilt",
                                                                 dir.path().string())));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_THAT(missing.err, HasSubstr("none/lib is missing (scripts/device-bundle packs it)"));

    ASSERT_EQ(test::run_command(in_source("scripts/device-bundle " + (dir.path() / "bundle").string())).exit_code, 0);
    const auto r = test::run_command(in_source(fmt::format("AUTOTUNE_DEVICE_BUNDLE={0}/bundle scripts/gpu-check {0}/out --prebuilt",
                                                           dir.path().string())));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("gpu-check: no GPU: "));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "setup.log")) << "--prebuilt installs and builds nothing";

    const auto bad = test::run_command(in_source(fmt::format("scripts/gpu-check {}/out --prebuild", dir.path().string())));
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_THAT(bad.err, HasSubstr("unknown option --prebuild"));
}

} // namespace
