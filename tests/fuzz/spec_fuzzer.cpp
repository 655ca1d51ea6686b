// Fuzz target: the spec loader. Built twice: toml_spec_fuzzer reads the input as a TOML spec,
// t1_spec_fuzzer (SPEC_FILE_NAME "fuzz.json") as a T1 JSON description. A spec that cannot be
// honoured ends in SpecError or ExpressionError, which the program reports as bad input in
// one line; any other exception, a sanitizer report or a hang is a finding.
#include "fuzz_input.hpp"

#include "autotune_build_config.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"

#ifndef SPEC_FILE_NAME
#define SPEC_FILE_NAME "fuzz.toml"
#endif

namespace {

namespace fs = std::filesystem;

// <scratch>/kernels/ holds the spec, beside links to every kernel source a committed spec
// names; <scratch>/templates and <scratch>/<each folder of tests/data> link the project's.
// So the seeds' (the committed specs') template paths resolve, and the loader goes on past
// its template check.
const fs::path& spec_dir()
{
    static const fs::path dir = [] {
        const fs::path source = AUTOTUNE_SOURCE_DIR;
        const fs::path& scratch = autotune::fuzz::scratch_dir();
        const fs::path kernels = scratch / "kernels";
        fs::create_directories(kernels);
        fs::create_directory_symlink(source / "templates", scratch / "templates");
        for (const auto& data : fs::directory_iterator(source / "tests" / "data"))
            fs::create_directory_symlink(data.path(), scratch / data.path().filename());
        for (const fs::path folder : {source / "examples", source / "tests" / "data"})
            for (const auto& entry : fs::recursive_directory_iterator(folder))
                if (const auto ext = entry.path().extension(); ext == ".cu" || ext == ".cuh")
                    fs::create_symlink(entry.path(), kernels / entry.path().filename());
        return kernels;
    }();
    return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const fs::path path = spec_dir() / SPEC_FILE_NAME;
    autotune::fuzz::write_input(path, data, size);
    try {
        (void)autotune::load_spec(path);
    } catch (const autotune::SpecError&) {
    } catch (const autotune::ExpressionError&) {
    }
    return 0;
}
