#include "measure/measurement_journal.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace autotune {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, int error)
{
    throw std::runtime_error(fmt::format("{}: {}: {}", path.string(), what, std::strerror(error)));
}

// The length of the first `size` bytes of the file up to and including its last '\n'
// (-1 on a read error), scanning backwards so opening a long journal does not read it all.
off_t complete_lines_size(int fd, off_t size)
{
    std::array<char, 4096> chunk;
    off_t end = size;
    while (end > 0) {
        const off_t begin = std::max<off_t>(0, end - static_cast<off_t>(chunk.size()));
        const ssize_t n = ::pread(fd, chunk.data(), static_cast<std::size_t>(end - begin), begin);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != end - begin)
            return -1;
        for (ssize_t i = n; i > 0; --i)
            if (chunk[static_cast<std::size_t>(i - 1)] == '\n')
                return begin + i;
        end = begin;
    }
    return 0;
}

// A run killed mid-append leaves a torn last line. Appending after it would turn it into
// a malformed line in the middle, which read_journal rejects, so it is cut off first;
// read_journal ignores it anyway, so nothing readable is lost.
void drop_torn_tail(const std::filesystem::path& path, int append_fd)
{
    const int read_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (read_fd < 0)
        fail(path, "cannot read journal", errno);
    struct stat info{};
    const off_t complete = ::fstat(read_fd, &info) == 0 ? complete_lines_size(read_fd, info.st_size) : -1;
    const int read_errno = errno;
    ::close(read_fd);
    if (complete < 0)
        fail(path, "cannot read journal", read_errno);
    if (complete < info.st_size && ::ftruncate(append_fd, complete) != 0)
        fail(path, "cannot cut off a torn record", errno);
}

// A new file's directory entry is durable only once the directory itself is synced;
// best effort, since some filesystems refuse fsync on directories.
void sync_directory(const std::filesystem::path& dir)
{
    const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

std::string read_whole_file(const std::filesystem::path& path, bool& missing)
{
    missing = false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) {
            missing = true;
            return {};
        }
        fail(path, "cannot read journal", errno);
    }
    std::string text;
    std::array<char, 65536> chunk;
    for (;;) {
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n > 0) {
            text.append(chunk.data(), static_cast<std::size_t>(n));
        } else if (n == 0) {
            break;
        } else if (errno != EINTR) {
            const int error = errno;
            ::close(fd);
            fail(path, "cannot read journal", error);
        }
    }
    ::close(fd);
    return text;
}

} // namespace

MeasurementJournal::MeasurementJournal(std::filesystem::path path) : path_(std::move(path))
{
    std::error_code ec;
    if (path_.has_parent_path())
        std::filesystem::create_directories(path_.parent_path(), ec);
    if (ec)
        throw std::runtime_error(
            fmt::format("{}: cannot create directory {}: {}", path_.string(), path_.parent_path().string(), ec.message()));

    // O_APPEND makes every record land at the end, even after a truncation or another writer.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        fail(path_, "cannot open journal", errno);
    try {
        drop_torn_tail(path_, fd_);
    } catch (...) {
        ::close(fd_);
        throw;
    }
    sync_directory(path_.parent_path());
}

MeasurementJournal::~MeasurementJournal()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void MeasurementJournal::append(const nlohmann::json& record)
{
    // Compact dump() escapes newlines inside strings, so a record is exactly one line.
    const std::string line = record.dump() + '\n';
    const off_t start = ::lseek(fd_, 0, SEEK_END);
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int error = n < 0 ? errno : EIO;
            // Take back a partial record (disk full, say) so a later append cannot leave
            // it as a malformed line in the middle.
            if (start >= 0) {
                [[maybe_unused]] const int ignored = ::ftruncate(fd_, start); // best effort
            }
            fail(path_, "cannot append record", error);
        }
        written += static_cast<std::size_t>(n);
    }
    // The point of the journal: once append returns, a crash or power loss keeps the record.
    if (::fsync(fd_) != 0)
        fail(path_, "cannot flush record to disk", errno);
}

std::vector<nlohmann::json> read_journal(const std::filesystem::path& path)
{
    bool missing = false;
    const std::string text = read_whole_file(path, missing);
    std::vector<nlohmann::json> records;
    if (missing)
        return records;
    // Only lines ended by '\n' count: text after the last one is a record whose write was
    // cut short, and its process never saw append() return.
    std::size_t line_number = 0;
    for (std::size_t begin = 0, end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
        ++line_number;
        try {
            records.push_back(nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(begin),
                                                    text.begin() + static_cast<std::ptrdiff_t>(end)));
        } catch (const nlohmann::json::parse_error&) {
            throw std::runtime_error(fmt::format("{}:{}: not a JSON record", path.string(), line_number));
        }
    }
    return records;
}

} // namespace autotune
