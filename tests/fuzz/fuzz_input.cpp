#include "fuzz_input.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace autotune::fuzz {
namespace {

struct ScratchDir {
    std::filesystem::path path;
    ScratchDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "autotune-fuzz-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("cannot make a scratch directory under " + pattern);
        path = pattern;
    }
    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

} // namespace

const std::filesystem::path& scratch_dir()
{
    static const ScratchDir dir;
    return dir.path;
}

void write_input(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out.flush())
        throw std::runtime_error("cannot write the fuzz input to " + path.string());
}

} // namespace autotune::fuzz
