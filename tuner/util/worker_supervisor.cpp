#include "util/worker_supervisor.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <optional>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace autotune {
namespace {

using Clock = std::chrono::steady_clock;
using Kind = WorkerFailure::Kind;

// Enough for the last few lines of a crash message (a CUDA error, an assertion, a
// backtrace head) without letting a chatty worker grow our memory.
constexpr std::size_t stderr_tail_limit = 4096;
// A reply longer than this is a runaway worker, not a measurement.
constexpr std::size_t max_reply_bytes = std::size_t{64} << 20;
// How long a worker whose pipes closed may take to finish dying, and how long the
// destructor lets a worker exit on its own once its stdin is closed.
constexpr std::chrono::milliseconds exit_grace{1000};
// Marks a child whose exit status someone else collected (SIGCHLD set to SIG_IGN).
constexpr int status_unknown = -1;

// Thrown by start() and turned into a could_not_start failure by request().
struct StartFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Closes a descriptor on scope exit unless released: start() opens six ends and must
// not leak any when a later step fails.
class OwnedFd {
public:
    OwnedFd() = default;
    ~OwnedFd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    OwnedFd(const OwnedFd&) = delete;
    OwnedFd& operator=(const OwnedFd&) = delete;
    void reset(int fd)
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = fd;
    }
    [[nodiscard]] int get() const { return fd_; }
    [[nodiscard]] int release() { return std::exchange(fd_, -1); }

private:
    int fd_ = -1;
};

struct Pipe {
    OwnedFd read;
    OwnedFd write;
};

// Both ends are close-on-exec so that no other child (ours or another thread's) inherits
// them: a stray copy of the stdin write end would keep a worker from ever seeing EOF.
// posix_spawn's dup2 onto 0/1/2 clears the flag on the copies the worker gets.
void open_pipe(Pipe& pipe)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw StartFailure(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    pipe.read.reset(fds[0]);
    pipe.write.reset(fds[1]);
}

// Our ends never block: one poll() loop moves the request, the reply and stderr at
// once, so neither side can wait on the other with a full pipe.
void set_nonblocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        throw StartFailure(fmt::format("cannot make a pipe non-blocking: {}", std::strerror(errno)));
}

void close_fd(int& fd)
{
    if (fd >= 0)
        ::close(std::exchange(fd, -1));
}

// Writes to the worker's stdin without a dead worker's SIGPIPE killing the whole
// autotuner. A library must not change the process-wide SIGPIPE disposition (its host may
// rely on it) and pipes, unlike sockets, have no MSG_NOSIGNAL; but the SIGPIPE raised by a
// failing write is directed at the writing thread, so blocking it in this thread for the
// write and, if the write raised it, taking it off the pending set with sigtimedwait before
// restoring the mask makes the write report EPIPE and nothing else.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size)
{
    sigset_t sigpipe_only;
    sigemptyset(&sigpipe_only);
    sigaddset(&sigpipe_only, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    const bool was_pending = sigismember(&pending, SIGPIPE) == 1; // not ours to consume
    sigset_t old_mask;
    pthread_sigmask(SIG_BLOCK, &sigpipe_only, &old_mask);

    const ssize_t written = ::write(fd, data, size);
    const int write_errno = errno;
    if (written < 0 && write_errno == EPIPE && !was_pending) {
        const timespec no_wait{};
        while (sigtimedwait(&sigpipe_only, nullptr, &no_wait) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    errno = write_errno;
    return written;
}

// Reads what is available now into `buffer`. Returns false once the writer has closed
// its end (EOF, or an error that means the same for us).
bool read_available(int fd, std::string& buffer)
{
    std::array<char, 65536> chunk;
    for (;;) {
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n > 0) {
            buffer.append(chunk.data(), static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 && errno == EAGAIN;
    }
}

// The last lines of `text` within stderr_tail_limit bytes; a line cut by the limit is
// dropped rather than shown half (unless it is the only line there is).
std::string_view last_lines(std::string_view text)
{
    if (text.size() <= stderr_tail_limit)
        return text;
    text.remove_prefix(text.size() - stderr_tail_limit);
    if (const auto newline = text.find('\n'); newline != std::string_view::npos && newline + 1 < text.size())
        text.remove_prefix(newline + 1);
    return text;
}

// Keeps only the end of what the worker wrote to stderr; trims in batches so a chatty
// worker costs amortised constant work per byte.
void append_to_tail(std::string& tail, std::string_view text)
{
    tail.append(text);
    if (tail.size() > 2 * stderr_tail_limit)
        tail = std::string(last_lines(tail)); // a copy: the view points into tail
}

void drain_stderr(int fd, std::string& tail)
{
    if (fd < 0)
        return;
    std::string text;
    read_available(fd, text);
    append_to_tail(tail, text);
}

// Blocking waitpid that survives signal interruptions.
int reap(pid_t pid)
{
    int status = 0;
    for (;;) {
        if (::waitpid(pid, &status, 0) == pid)
            return status;
        if (errno != EINTR)
            return status_unknown;
    }
}

// The exit status once `pid` has exited, or nothing if it still runs after `grace`.
// Polls with short sleeps: a worker whose pipes just closed is normally gone within
// microseconds, and this avoids depending on pidfd support in the kernel.
std::optional<int> wait_for_exit(pid_t pid, std::chrono::milliseconds grace)
{
    const auto deadline = Clock::now() + grace;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        int status = 0;
        const pid_t result = ::waitpid(pid, &status, WNOHANG);
        if (result == pid)
            return status;
        if (result < 0 && errno != EINTR)
            return status_unknown;
        if (Clock::now() >= deadline)
            return std::nullopt;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
}

void kill_and_reap(pid_t pid)
{
    ::kill(pid, SIGKILL);
    reap(pid);
}

std::string signal_name(int signal)
{
    static constexpr std::array<std::pair<int, const char*>, 17> names{{
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGILL, "SIGILL"},   {SIGFPE, "SIGFPE"},
        {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"},
        {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGUSR1, "SIGUSR1"},
        {SIGUSR2, "SIGUSR2"},
    }};
    for (const auto& [number, name] : names)
        if (number == signal)
            return name;
    const char* description = ::strsignal(signal);
    return description ? description : "unknown signal";
}

std::string describe_exit(int status)
{
    if (status == status_unknown)
        return "exited (its exit status was collected elsewhere)";
    if (WIFSIGNALED(status))
        return fmt::format("killed by signal {} ({})", WTERMSIG(status), signal_name(WTERMSIG(status)));
    if (WIFEXITED(status))
        return fmt::format("exited with code {}", WEXITSTATUS(status));
    return fmt::format("ended with wait status {:#x}", status);
}

std::string describe_timeout(std::chrono::milliseconds timeout)
{
    if (timeout < std::chrono::seconds(1))
        return fmt::format("no reply within {} ms", timeout.count());
    return fmt::format("no reply within {:.1f} s", std::chrono::duration<double>(timeout).count());
}

// Enough of a bad line to recognise it in a report.
std::string excerpt(std::string_view text)
{
    constexpr std::size_t limit = 200;
    return text.size() <= limit ? std::string(text) : fmt::format("{}...", text.substr(0, limit));
}

// One request in flight: what is left to send and what the worker said on stderr.
struct Exchange {
    std::string request_line;
    std::size_t sent = 0;
    bool stderr_open = true;
    std::string stderr_tail;
};

enum class Outcome { reply, stdout_closed, stdin_closed, timed_out, reply_too_long };

struct Fds {
    int to_worker;
    int from_worker;
    int errors;
};

// Moves bytes in all three directions until a complete reply line is in `pending`
// (returned through `line`), the worker closes a pipe, or the deadline passes.
Outcome exchange(const Fds& fds, Exchange& ex, std::string& pending, Clock::time_point deadline,
                 std::string& line)
{
    for (;;) {
        if (const auto newline = pending.find('\n'); newline != std::string::npos) {
            line = pending.substr(0, newline);
            pending.erase(0, newline + 1);
            return Outcome::reply;
        }
        if (pending.size() > max_reply_bytes)
            return Outcome::reply_too_long;
        const auto now = Clock::now();
        if (now >= deadline)
            return Outcome::timed_out;

        // A negative descriptor makes poll() skip its entry: a closed stderr would
        // otherwise report POLLHUP forever, and a sent request needs no POLLOUT.
        const bool sending = ex.sent < ex.request_line.size();
        std::array<pollfd, 3> polled{{
            {fds.from_worker, POLLIN, 0},
            {ex.stderr_open ? fds.errors : -1, POLLIN, 0},
            {sending ? fds.to_worker : -1, POLLOUT, 0},
        }};
        const auto& [stdout_poll, stderr_poll, stdin_poll] = polled;

        // Rounded up, so a sub-millisecond remainder waits instead of spinning.
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        const int ready = ::poll(polled.data(), polled.size(), static_cast<int>(std::min<long long>(wait, INT_MAX)));
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            throw std::system_error(errno, std::generic_category(), "poll on the worker's pipes");
        }
        // stderr first: its tail must include what the worker said before any death.
        if (stderr_poll.revents != 0) {
            std::string text;
            ex.stderr_open = read_available(fds.errors, text);
            append_to_tail(ex.stderr_tail, text);
        }
        if (stdout_poll.revents != 0 && !read_available(fds.from_worker, pending) &&
            pending.find('\n') == std::string::npos)
            return Outcome::stdout_closed;
        if (stdin_poll.revents != 0) {
            const ssize_t n = write_without_sigpipe(fds.to_worker, ex.request_line.data() + ex.sent,
                                                    ex.request_line.size() - ex.sent);
            if (n > 0)
                ex.sent += static_cast<std::size_t>(n);
            else if (n < 0 && errno != EAGAIN && errno != EINTR)
                return Outcome::stdin_closed; // EPIPE: nobody will ever read the request
        }
    }
}

} // namespace

WorkerSupervisor::WorkerSupervisor(std::vector<std::string> worker_argv) : argv_(std::move(worker_argv)) {}

WorkerSupervisor::~WorkerSupervisor() { stop(); }

void WorkerSupervisor::start()
{
    if (argv_.empty())
        throw StartFailure("no worker program given");
    Pipe input, output, errors;
    open_pipe(input);
    open_pipe(output);
    open_pipe(errors);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input.read.get(), STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output.write.get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errors.write.get(), STDERR_FILENO);

    // The worker starts with no signals blocked and the default SIGPIPE/SIGCHLD handling,
    // whatever the measuring thread has set: a blocked SIGTERM or an ignored SIGCHLD
    // would otherwise leak into a program that does not expect it.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t no_signals;
    sigemptyset(&no_signals);
    posix_spawnattr_setsigmask(&attributes, &no_signals);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int signal : {SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        sigaddset(&defaults, signal);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> args;
    for (const auto& arg : argv_)
        args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);

    pid_t pid = -1;
    const int spawn_error = ::posix_spawn(&pid, argv_[0].c_str(), &actions, &attributes, args.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (spawn_error != 0)
        throw StartFailure(fmt::format("cannot start {}: {}", argv_[0], std::strerror(spawn_error)));

    // The child's ends close when the Pipes go out of scope; ours move into the members.
    pid_ = pid;
    to_worker_ = input.write.release();
    from_worker_ = output.read.release();
    errors_ = errors.read.release();
    pending_.clear();
    ++started_;
    try {
        for (const int fd : {to_worker_, from_worker_, errors_})
            set_nonblocking(fd);
    } catch (...) {
        ::kill(pid_, SIGKILL);
        stop();
        throw;
    }
}

// Closes all three pipes (the worker sees EOF on stdin, and SIGPIPE if it still writes),
// gives it exit_grace to leave on its own, then kills it; always reaps, so no zombie.
void WorkerSupervisor::stop()
{
    close_fd(to_worker_);
    close_fd(from_worker_);
    close_fd(errors_);
    pending_.clear();
    if (pid_ > 0) {
        if (!wait_for_exit(pid_, exit_grace))
            kill_and_reap(pid_);
        pid_ = -1;
    }
}

std::variant<nlohmann::json, WorkerFailure> WorkerSupervisor::request(const nlohmann::json& request,
                                                                      std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    // Compact dump() escapes newlines inside strings, so the request is exactly one line.
    Exchange ex;
    ex.request_line = request.dump() + '\n';
    last_stderr_.clear();

    // A live worker that wrote anything since its last reply has broken the one-reply-
    // per-request protocol: taking that output as this reply would pair results with the
    // wrong requests. A worker that died while idle is simply replaced.
    if (pid_ > 0) {
        drain_stderr(errors_, ex.stderr_tail);
        const bool still_open = read_available(from_worker_, pending_);
        if (!pending_.empty()) {
            const std::string unrequested = excerpt(pending_);
            kill_and_reap(std::exchange(pid_, -1));
            drain_stderr(errors_, ex.stderr_tail);
            stop();
            last_stderr_ = last_lines(ex.stderr_tail);
            return WorkerFailure{Kind::protocol_error,
                                 fmt::format("wrote output after its last reply: {}", unrequested), last_stderr_};
        }
        if (!still_open)
            stop();
    }
    if (pid_ < 0) {
        try {
            start();
        } catch (const StartFailure& e) {
            return WorkerFailure{Kind::could_not_start, e.what(), {}};
        }
    }

    // Every failure leaves the worker reaped (pid_ == -1) before this collects the rest
    // of its stderr and closes the pipes, so the next request starts a fresh one.
    const auto fail = [&](Kind kind, std::string detail) {
        drain_stderr(errors_, ex.stderr_tail);
        stop();
        last_stderr_ = last_lines(ex.stderr_tail);
        return WorkerFailure{kind, std::move(detail), last_stderr_};
    };
    // The worker closed a pipe: usually it is dying, and its exit status says how.
    const auto gone = [&](std::string_view if_still_running) {
        if (const auto status = wait_for_exit(pid_, exit_grace)) {
            pid_ = -1;
            return fail(Kind::crashed, describe_exit(*status));
        }
        kill_and_reap(std::exchange(pid_, -1));
        return fail(Kind::protocol_error, std::string(if_still_running));
    };

    std::string line;
    switch (exchange({to_worker_, from_worker_, errors_}, ex, pending_, deadline, line)) {
    case Outcome::reply:
        break;
    case Outcome::stdout_closed:
        return gone("closed its stdout without replying");
    case Outcome::stdin_closed:
        return gone("closed its stdin before reading the request");
    case Outcome::timed_out:
        kill_and_reap(std::exchange(pid_, -1));
        return fail(Kind::timed_out, describe_timeout(timeout));
    case Outcome::reply_too_long:
        kill_and_reap(std::exchange(pid_, -1));
        return fail(Kind::protocol_error, fmt::format("reply line longer than {} bytes", max_reply_bytes));
    }

    // Whatever it wrote to stderr before the reply is in its pipe by now.
    drain_stderr(errors_, ex.stderr_tail);
    last_stderr_ = last_lines(ex.stderr_tail);
    try {
        return nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error&) {
        // Its state is unknown after a reply we cannot read, so it is not trusted again.
        kill_and_reap(std::exchange(pid_, -1));
        return fail(Kind::protocol_error, fmt::format("reply is not JSON: {}", excerpt(line)));
    }
}

} // namespace autotune
