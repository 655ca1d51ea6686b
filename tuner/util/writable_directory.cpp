#include "util/writable_directory.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace autotune {

namespace {

// The folders of `dir` that do not exist yet, deepest first.
std::vector<std::filesystem::path> missing_folders(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> missing;
    std::error_code ec;
    for (auto p = std::filesystem::absolute(dir, ec); !ec && !p.empty() && !std::filesystem::exists(p, ec);
         p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    return missing;
}

// Removes the folders made for the test, deepest first, when they are to go and still empty.
class MadeFolders {
public:
    MadeFolders(std::vector<std::filesystem::path> made, CreatedFolders created)
        : made_(std::move(made)), created_(created) {}
    MadeFolders(const MadeFolders&) = delete;
    MadeFolders& operator=(const MadeFolders&) = delete;
    ~MadeFolders()
    {
        if (created_ == CreatedFolders::kept)
            return;
        std::error_code ec;
        for (const auto& folder : made_)
            std::filesystem::remove(folder, ec); // only an empty folder goes
    }

private:
    std::vector<std::filesystem::path> made_;
    CreatedFolders created_;
};

} // namespace

std::optional<std::string> why_not_writable_directory(const std::filesystem::path& dir, CreatedFolders created)
{
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
        return "is not a directory";
    const MadeFolders made(missing_folders(dir), created);
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return fmt::format("cannot be created ({})", ec.message());
    // Permissions say little (root ignores them, a read-only mount or a full disk does
    // not show in them): writing is the test.
    const auto probe = dir / fmt::format(".autotune-write-probe.{}", getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fmt::format("cannot be written ({})", std::strerror(errno));
    const bool written = ::write(fd, "probe\n", 6) == 6 && ::fsync(fd) == 0;
    const int error = errno;
    const bool closed = ::close(fd) == 0;
    ::unlink(probe.c_str());
    if (!written || !closed)
        return fmt::format("cannot be written ({})", std::strerror(written ? errno : error));
    return std::nullopt;
}

} // namespace autotune
