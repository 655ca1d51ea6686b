// autotune roofline [--device N] [--out DIR] [--nvrtc PATH]: measure a GPU's ceilings once and
// store them as DIR/devices/<device>.json, where ranking finds them. A measuring-only command:
// without a driver or a device it exits 1 with the reason (nothing about the input was
// wrong); a device ordinal beyond the devices there are is bad input (2).
#include "cli/cli_error.hpp"
#include "cli/command_line.hpp"
#include "cli/option_range.hpp"
#include "cli/commands.hpp"
#include "cli/nvrtc_option.hpp"
#include "cli/output_paths.hpp"
#include "cli/written_outcome.hpp"
#include "measure/ceilings_probe.hpp"
#include "measure/gpu_devices.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <iostream>

namespace po = boost::program_options;

namespace autotune::cli {

int roofline_command(const Arguments& args)
{
    int device = 0;
    std::string out = "results";
    bool json = false;
    std::string nvrtc_path;
    CommandLine line("usage: autotune roofline [--device N] [--out DIR] [--nvrtc PATH] [--json]");
    line.options()("device", ranged_value(&device, {.least = 0})->default_value(0), "GPU ordinal")(
        "out", po::value(&out)->default_value("results"), "results directory; writes DIR/devices/<device>.json")(
        "json", po::bool_switch(&json), "say what was measured and written as JSON");
    add_nvrtc_option(line.options(), nvrtc_path); // builds the FMA kernel
    if (!line.parse(args))
        return exit_ok;
    // Bad input before the machine's facts: a library that cannot serve is said first.
    NvrtcLibrary nvrtc;
    try {
        nvrtc = nvrtc_library(nvrtc_path);
    } catch (const NvrtcLibraryError& e) {
        throw UsageError(e.what());
    }
    // Where the ceilings go is checked before measuring them: a measurement is never lost to a bad --out.
    const auto devices_dir = (std::filesystem::path(out) / "devices").string();
    require_writable_folder("--out", devices_dir);
    std::string why_not;
    const auto driver = CudaDriver::load(why_not);
    // No driver, or one that sees no device, is a fact about the machine: nothing about
    // the input (not even --device) was wrong.
    if (driver && list_gpus(*driver).empty())
        why_not = "the CUDA driver sees no device";
    if (!driver || !why_not.empty()) {
        std::cerr << "autotune: roofline: nothing was measured: " << why_not << "\n";
        return exit_failed;
    }
    MeasuredCeilings ceilings;
    try {
        ceilings = measure_ceilings(*driver, device, nvrtc);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const auto path = write_measured_ceilings(devices_dir, ceilings);
    print_written(json,
                  {{"written", {path.string()}}, {"device", ceilings.device},
                   {"arch", fmt::format("sm_{}", ceilings.compute_capability)}, {"bandwidth_gbs", ceilings.bandwidth_gbs},
                   {"compute_gflops", ceilings.compute_gflops}, {"clock_mhz", ceilings.clock_mhz}},
                  fmt::format("{} (sm_{}): {:.0f} GB/s (device-to-device copy), {:.0f} GFLOP/s fp32 at {:.0f} MHz\n"
                              "written: {}\n",
                              ceilings.device, ceilings.compute_capability, ceilings.bandwidth_gbs,
                              ceilings.compute_gflops.at("fp32"), ceilings.clock_mhz, path.string()));
    return exit_ok;
}

} // namespace autotune::cli
