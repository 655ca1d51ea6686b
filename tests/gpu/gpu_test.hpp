// The GPU tests' common ground: the driver and the devices it sees (or a skip that says
// why there are none), the first device's architecture, and the measure settings every GPU
// test starts from: autotune's own worker on that device, a scratch directory, a journal.
#pragma once

#include "arch/arch_target.hpp"
#include "measure/gpu_devices.hpp"
#include "measure/measure_variants.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace autotune::test {

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string why_not;
        driver_ = CudaDriver::load(why_not);
        if (!driver_)
            GTEST_SKIP() << "no GPU to measure on: " << why_not;
        gpus_ = list_gpus(*driver_);
        if (gpus_.empty())
            GTEST_SKIP() << "no GPU to measure on: the driver sees no device";
    }

    [[nodiscard]] ArchTarget first_arch() const
    {
        return {gpus_[0].compute_capability / 10, gpus_[0].compute_capability % 10, ""};
    }

    [[nodiscard]] MeasureSettings measure_settings(std::chrono::milliseconds variant_timeout) const
    {
        MeasureSettings settings;
        settings.worker_argv = {autotune_binary().string(), "measure-worker"};
        settings.device = gpus_[0].ordinal;
        settings.variant_timeout = variant_timeout;
        settings.scratch_dir = dir_.path();
        settings.journal = dir_.path() / "journal.jsonl";
        return settings;
    }

    std::unique_ptr<CudaDriver> driver_;
    std::vector<GpuDevice> gpus_;
    TempDir dir_;
};

} // namespace autotune::test
