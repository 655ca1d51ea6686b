#include "util/process.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace autotune {
namespace {

using Clock = std::chrono::steady_clock;

void close_both(int fds[2])
{
    ::close(fds[0]);
    ::close(fds[1]);
}

// In the child between fork and exec: only async-signal-safe calls (the parent may have
// other threads, holding locks the child would inherit locked). On failure the errno
// goes to the parent through `error_fd`, which exec closes on success.
[[noreturn]] void exec_child(char* const* args, const char* working_dir, int output_fd, int error_fd,
                             std::uint64_t memory_bytes)
{
    int error = 0;
    if (::dup2(output_fd, STDOUT_FILENO) < 0 || ::dup2(output_fd, STDERR_FILENO) < 0)
        error = errno;
    if (!error && working_dir && ::chdir(working_dir) != 0)
        error = errno;
    if (!error && ::setpgid(0, 0) != 0)
        error = errno;
    if (!error && memory_bytes > 0) {
        const rlimit limit{memory_bytes, memory_bytes};
        if (::setrlimit(RLIMIT_AS, &limit) != 0)
            error = errno;
    }
    if (!error) {
        ::execve(args[0], args, environ);
        error = errno;
    }
    [[maybe_unused]] const ssize_t written = ::write(error_fd, &error, sizeof error);
    ::_exit(127);
}

// Reads everything the child writes until every holder of the pipe has closed it; when
// the deadline passes first, kills the child's process group and keeps reading what is
// left. Returns whether it had to kill.
bool read_until_closed(int fd, pid_t group, std::optional<Clock::time_point> deadline, std::string& output)
{
    bool killed = false;
    char buffer[8192];
    for (;;) {
        int wait_ms = -1;
        if (deadline && !killed) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
            if (left <= 0) {
                ::kill(-group, SIGKILL);
                killed = true;
                continue;
            }
            wait_ms = static_cast<int>(std::min<long long>(left, INT_MAX));
        }
        pollfd polled{fd, POLLIN, 0};
        const int ready = ::poll(&polled, 1, wait_ms);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0)
            output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    return killed;
}

// Waits for the child to exit; a child that closed its output but lingers past the
// deadline is killed with its group like one that kept writing.
int reap(pid_t pid, std::optional<Clock::time_point> deadline, bool& killed)
{
    int status = 0;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, deadline ? WNOHANG : 0);
        if (done == pid || (done < 0 && errno != EINTR))
            return status;
        if (done == 0 && Clock::now() >= *deadline) {
            ::kill(-pid, SIGKILL);
            killed = true;
            deadline.reset();
        } else if (done == 0) {
            ::usleep(static_cast<useconds_t>(pause.count()));
            pause = std::min(pause * 2, std::chrono::microseconds(20000));
        }
    }
}

} // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& working_dir,
                          const ProcessLimits& limits)
{
    ProcessResult result;
    if (argv.empty()) {
        result.output = "no program given";
        return result;
    }
    int output_pipe[2];
    int error_pipe[2];
    if (::pipe2(output_pipe, O_CLOEXEC) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        close_both(output_pipe);
        return result;
    }
    // Everything the child needs is made before fork: it must not allocate.
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::string dir = working_dir.string();

    const auto start = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0)
        exec_child(args.data(), dir.empty() ? nullptr : dir.c_str(), output_pipe[1], error_pipe[1],
                   limits.memory_bytes);
    const int fork_error = errno;
    ::close(output_pipe[1]);
    ::close(error_pipe[1]);
    if (pid < 0) {
        ::close(output_pipe[0]);
        ::close(error_pipe[0]);
        result.output = argv[0] + ": " + std::strerror(fork_error);
        return result;
    }
    // Also set here, so the group exists before a kill can name it (the child may not
    // have run yet); EACCES once it has exec'd is harmless, it did so itself.
    ::setpgid(pid, pid);

    int exec_error = 0;
    ssize_t n = 0;
    while ((n = ::read(error_pipe[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
    }
    ::close(error_pipe[0]);
    if (n == sizeof exec_error) {
        ::close(output_pipe[0]);
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        result.output = argv[0] + ": " + std::strerror(exec_error);
        return result;
    }

    std::optional<Clock::time_point> deadline;
    if (limits.timeout)
        deadline = start + *limits.timeout;
    result.timed_out = read_until_closed(output_pipe[0], pid, deadline, result.output);
    ::close(output_pipe[0]);
    const int status = reap(pid, result.timed_out ? std::nullopt : deadline, result.timed_out);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return result;
}

} // namespace autotune
