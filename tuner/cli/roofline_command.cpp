// autotune roofline [--device N] [--out DIR]: measure a GPU's ceilings once and store
// them as DIR/devices/<device>.json, where ranking finds them. A measuring-only command:
// without a driver or a device it exits 2 with the reason.
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "measure/ceilings_probe.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int roofline_command(const Arguments& args)
{
    int device = 0;
    std::string out = "results";
    CommandLine line("usage: autotune roofline [--device N] [--out DIR]");
    line.options()("device", po::value(&device)->default_value(0), "GPU ordinal")(
        "out", po::value(&out)->default_value("results"), "results directory; writes DIR/devices/<device>.json");
    if (!line.parse(args))
        return exit_ok;
    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    if (!driver)
        throw UsageError("nothing was measured: " + why_not);
    MeasuredCeilings ceilings;
    try {
        ceilings = measure_ceilings(*driver, device);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const auto path = write_measured_ceilings(std::filesystem::path(out) / "devices", ceilings);
    std::cout << fmt::format("{} (sm_{}): {:.0f} GB/s (device-to-device copy), {:.0f} GFLOP/s fp32 at {:.0f} MHz\n"
                             "written: {}\n",
                             ceilings.device, ceilings.compute_capability, ceilings.bandwidth_gbs,
                             ceilings.compute_gflops.at("fp32"), ceilings.clock_mhz, path.string());
    return exit_ok;
}

} // namespace autotune::cli
