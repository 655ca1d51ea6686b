// PTX around a test's kernel body: one entry "k" with one parameter, laid out
// as NVRTC writes them, for the stages that read PTX (tests/predict).
#pragma once

#include <string>

namespace autotune::test {

inline std::string ptx_entry(const std::string& body)
{
    return ".version 8.0\n.target sm_86\n.address_size 64\n\n.const .align 4 .b8 "
           "table[64];\n\n"
           ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .pred "
           "%p<32>;\n\t.reg .f32 %f<32>;\n\t.reg .b32 %r<64>;\n\t.reg .b64 "
           "%rd<16>;\n\n" +
           body + "\tret;\n\n}\n";
}

} // namespace autotune::test
