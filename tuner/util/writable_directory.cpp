#include "util/writable_directory.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace autotune {

std::optional<std::string> why_not_writable_directory(const std::filesystem::path& dir)
{
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
        return "is not a directory";
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
