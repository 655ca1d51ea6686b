// autotune measure-worker: the process that talks to the GPU. It reads one measurement
// job per line on stdin and answers one line on stdout; after a fault it answers and
// exits, because the CUDA context is unusable — the supervisor starts a fresh worker.
// Not for users: the tuner starts it (util/worker_supervisor.hpp).
#include "cli/commands.hpp"
#include "measure/measure_session.hpp"

#include <iostream>
#include <memory>

namespace autotune::cli {

int measure_worker_command(const Arguments&)
{
    std::string why_not;
    std::unique_ptr<CudaDriver> driver;
    std::unique_ptr<MeasureSession> session;
    int session_device = -1;
    bool driver_tried = false;
    for (std::string line; std::getline(std::cin, line);) {
        MeasureReply reply;
        try {
            const MeasureJob job = measure_job_from_json(nlohmann::json::parse(line));
            if (!driver_tried) {
                driver = CudaDriver::load(why_not);
                driver_tried = true;
            }
            if (!driver) {
                reply.status = "launch_error";
                reply.error = why_not;
            } else {
                if (!session || session_device != job.device) {
                    session.reset();
                    session = std::make_unique<MeasureSession>(*driver, job.device);
                    session_device = job.device;
                }
                reply = session->measure(job);
            }
        } catch (const DriverError& e) {
            reply.status = e.is_sticky() ? "fault" : "launch_error";
            reply.error = e.what();
        } catch (const std::exception& e) {
            reply.status = "launch_error";
            reply.error = e.what();
        }
        std::cout << to_json(reply).dump() << std::endl;
        if (reply.status == "fault")
            return 3;
    }
    return 0;
}

} // namespace autotune::cli
