// Fuzz target: the Kernel Tuner cache importer (a cache, gzipped or not, or a T4 file, as
// `autotune import kt-cache` reads them). Input that is not such a file ends in KtCacheError,
// one line naming the file; any other exception, a sanitizer report or a hang is a finding.
#include "fuzz_input.hpp"

#include "emit/kt_cache_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace autotune;
    // T4 names its kernel by the file: "kernel" here.
    static const std::filesystem::path path = fuzz::scratch_dir() / "kernel.json";
    fuzz::write_input(path, data, size);
    try {
        (void)import_kt_cache(path).dump();
    } catch (const KtCacheError&) {
    }
    return 0;
}
