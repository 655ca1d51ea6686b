#include "util/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <unistd.h>

namespace autotune {

void write_file_atomically(const std::filesystem::path& path, std::string_view content)
{
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        throw std::runtime_error(fmt::format("{}: cannot create directory: {}", path.parent_path().string(), ec.message()));

    // Unique per process and thread-call, so concurrent writers never share a temporary.
    const auto temporary = std::filesystem::path(
        fmt::format("{}.tmp.{}.{}", path.string(), getpid(), counter.fetch_add(1)));
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        throw std::runtime_error(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int error = errno;
            ::close(fd);
            ::unlink(temporary.c_str());
            throw std::runtime_error(fmt::format("{}: write failed: {}", path.string(), std::strerror(error)));
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(temporary.c_str());
        throw std::runtime_error(fmt::format("{}: cannot flush: {}", path.string(), std::strerror(errno)));
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw std::runtime_error(fmt::format("{}: cannot rename into place: {}", path.string(), std::strerror(error)));
    }
}

} // namespace autotune
