// A TuneSetup for the pipeline up to the model's ranking (predict_problem), as a C++ caller
// builds one: a spec, an architecture and its default device, a compile cache of its own.
#pragma once

#include "arch/arch_spec.hpp"
#include "arch/device_spec.hpp"
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

} // namespace autotune::test
