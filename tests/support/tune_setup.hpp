// A TuneSetup for the pipeline up to the model's ranking (predict_problem), as a C++ caller
// builds one: a spec, an architecture and its default device, a compile cache of its own.
#pragma once

#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
#include "support/scripted_variants.hpp"
#include "support/test_support.hpp"
#include "tune/tune_problem.hpp"

namespace autotune::test {

[[nodiscard]] inline TuneSetup predicting_setup(const KernelSpec& spec, const std::string& arch,
                                                const std::filesystem::path& cache_dir)
{
    TuneSetup setup;
    setup.spec = &spec;
    setup.arch = require_compilable_arch(arch);
    setup.arch_spec = &find_arch_spec(setup.arch.number());
    setup.roofline_device = default_device_for(setup.arch.number());
    setup.compile.project_root = source_dir();
    setup.compile.cache_dir = cache_dir;
    setup.compile.jobs = 2;
    return setup;
}

// A GPU for `setup` that is a scripted measure worker (scripted_variants.hpp) in `dir`.
inline void give_scripted_gpu(TuneSetup& setup, const std::filesystem::path& dir)
{
    GpuDevice gpu;
    gpu.name = "scripted A100";
    gpu.compute_capability = 80;
    gpu.sms = 108;
    setup.device = gpu;
    setup.measure = scripted_worker_settings(dir);
}

} // namespace autotune::test
