// autotune measure-worker: the process that talks to the GPU. It reads one measurement
// job per line on stdin and answers one line on stdout; after a fault it answers and
// exits, because the CUDA context is unusable — the supervisor starts a fresh worker.
// Not for users: the tuner starts it (util/worker_supervisor.hpp).
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "measure/measure_session.hpp"

#include <iostream>
#include <memory>
#include <optional>

namespace autotune::cli {

int measure_worker_command(const Arguments& args)
{
    // --nvrtc PATH: the NVRTC the run compiles with, which also builds the clock probe.
    std::filesystem::path nvrtc_path;
    if (args.size() == 2 && args[0] == "--nvrtc" && !args[1].empty())
        nvrtc_path = args[1];
    else if (!args.empty())
        throw UsageError("measure-worker takes only --nvrtc PATH (it is started by the tuner)");
    std::optional<NvrtcLibrary> nvrtc;
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
            if (!nvrtc) // here, not at start: a library that cannot load is each job's answer
                nvrtc = nvrtc_library(nvrtc_path);
            if (!driver) {
                reply.status = "launch_error";
                reply.error = why_not;
            } else {
                if (!session || session_device != job.device) {
                    session.reset();
                    session = std::make_unique<MeasureSession>(*driver, job.device, *nvrtc);
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
