// Fuzz target: the cubin reader (ELF sections, .nv.info attribute records, the tool note).
// Bytes that are not a readable cubin end in CubinError; any other exception, a sanitizer
// report or a hang is a finding.
#include "compile/cubin_info.hpp"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        const autotune::CubinInfo info = autotune::read_cubin({reinterpret_cast<const char*>(data), size});
        for (const auto& function : info.functions)
            (void)autotune::find_function(info, function.name);
        (void)autotune::find_function(info, "not_an_entry"); // the error that lists the entries
    } catch (const autotune::CubinError&) {
    }
    return 0;
}
