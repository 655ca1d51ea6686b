// Running measurements in a worker process: a variant that faults (an illegal address
// leaves the CUDA context unusable; a kernel can hang) kills only its worker. The
// supervisor sends one JSON request per line on the worker's stdin and reads one JSON
// reply per line from its stdout; when the worker dies or does not answer in time it
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

private:
    void start();
    void stop();
    std::vector<std::string> argv_;
    int pid_ = -1;
    int to_worker_ = -1;   // its stdin
    int from_worker_ = -1; // its stdout
    int errors_ = -1;      // its stderr
    std::string pending_;  // bytes read past the last reply line
    int started_ = 0;
};

} // namespace autotune
