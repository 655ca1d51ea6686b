// The machine code of a cubin as cuobjdump prints it, for tests that check what ptxas
// emitted (tensor-core instructions, vector shared loads). AUTOTUNE_CUOBJDUMP is set by
// tests/CMakeLists.txt where cuobjdump was found ("" elsewhere: the toolkit's bin).
#pragma once

#include "support/test_support.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace autotune::test {

inline std::string cuobjdump()
{
    if (const std::string configured = AUTOTUNE_CUOBJDUMP; !configured.empty())
        return configured;
    const auto in_toolkit = cuda_bin_dir() / "cuobjdump";
    return std::filesystem::exists(in_toolkit) ? in_toolkit.string() : std::string();
}

inline std::string sass_of(const std::string& cubin)
{
    const TempDir dir;
    const auto path = dir.path() / "variant.cubin";
    {
        std::ofstream out(path, std::ios::binary);
        out << cubin;
    }
    const auto dump = run_command(cuobjdump() + " -sass " + path.string());
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    return dump.out;
}

} // namespace autotune::test
