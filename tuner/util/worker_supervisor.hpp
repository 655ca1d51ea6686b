// Running work in a worker process, so that what cannot be stopped or survived in-process
// kills only its worker: a measured variant that faults (an illegal address leaves the
// CUDA context unusable; a kernel can hang), a compile that never ends, runs out of
// memory or crashes the compiler. The supervisor sends one JSON request per line on the
// worker's stdin and reads one JSON reply per line from its stdout (bytes that are not
// text travel encoded, e.g. base64); when the worker dies or does not answer in time it
// reports why, and the next request starts a fresh worker.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace autotune {

struct WorkerFailure {
    enum class Kind { crashed, timed_out, protocol_error, could_not_start } kind = Kind::crashed;
    std::string detail; // "killed by signal 11 (SIGSEGV)", "exited with code 3", "no reply within 30 s", ...
    std::string stderr_tail; // the last lines the worker wrote to stderr
};

class WorkerSupervisor {
public:
    // argv[0] is the program; the worker is started on the first request.
    explicit WorkerSupervisor(std::vector<std::string> worker_argv);
    ~WorkerSupervisor(); // stops the worker (closes its stdin, then kills it if it lingers)
    WorkerSupervisor(const WorkerSupervisor&) = delete;
    WorkerSupervisor& operator=(const WorkerSupervisor&) = delete;

    // Sends `request`, waits up to `timeout` for one reply line. On failure the worker is
    // gone (killed with SIGKILL if it had to be) and the next request starts a new one.
    [[nodiscard]] std::variant<nlohmann::json, WorkerFailure> request(const nlohmann::json& request,
                                                                      std::chrono::milliseconds timeout);

    [[nodiscard]] int workers_started() const { return started_; }
    // What the worker wrote to stderr while answering the last request (its last lines):
    // a library may say there what it did not put in its reply (ptxas' "Memory allocation
    // failure"). On a failure, the same text is WorkerFailure::stderr_tail.
    [[nodiscard]] const std::string& last_stderr() const { return last_stderr_; }

private:
    void start();
    void stop();
    std::vector<std::string> argv_;
    int pid_ = -1;
    int to_worker_ = -1;   // its stdin
    int from_worker_ = -1; // its stdout
    int errors_ = -1;      // its stderr
    std::string pending_;  // bytes read past the last reply line
    std::string last_stderr_;
    int started_ = 0;
};

} // namespace autotune
