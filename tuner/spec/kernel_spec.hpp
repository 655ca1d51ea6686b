// KernelSpec: everything the tuner knows about one kernel, read from a spec file
// (kernels/*.toml for the built-in kernels, any path for `autotune run SPEC`).
#pragma once

#include "spec/precision.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

// How tunable parameters reach the kernel source.
enum class ParameterPassing {
    template_arguments,      // kernel is a C++ template; the tuner instantiates function<args...>
    preprocessor_definitions // each parameter becomes -DNAME=VALUE (Kernel Tuner's convention)
};

struct TunableParameter {
    std::string name;
    std::vector<std::int64_t> values;         // the full space (--space full)
    std::vector<std::int64_t> default_values; // the default space; a subset of values
};

// A named value computed from parameters (and problem variables), usable wherever a
// parameter is: in constraints, geometry, template arguments.
struct DerivedValue {
    std::string name;
    std::string expression;
};

// A named condition on parameters and problem; a variant is kept when it holds (non-zero).
struct Constraint {
    std::string name;
    std::string expression;
};

// A macro the tuner defines for every variant ([kernel] defines): -DNAME=VALUE, the
// expression's integer value for the variant and problem. How a kernel whose sizes are
// baked in as macros (#if N % 4, float tile[N]) gets them.
struct Definition {
    std::string name;
    std::string expression;
};

struct ProblemVariable {
    std::string name;
    std::int64_t default_value = 0;
    // A category (a layout, a mode), not a size: the tuned header's lookup matches it
    // exactly instead of taking the nearest tuned value ([problem] X = { default = 1,
    // match = "exact" }).
    bool exact = false;
};

// One problem of the spec's problem set ([[problems]]): the variables it sets; the
// others keep their [problem] defaults.
struct ProblemAssignment {
    std::vector<std::pair<std::string, std::int64_t>> values;
};

enum class ArgumentKind { buffer, scalar };
enum class BufferAccess { input, output, input_output };
// Where a buffer's values live: device memory the kernel gets a pointer to, or the
// module's `__constant__` variable of the argument's name (Kernel Tuner's cmem_args),
// filled before each launch.
enum class ArgumentMemory { global, constant };

struct KernelArgument {
    std::string name;
    ArgumentKind kind = ArgumentKind::buffer;
    std::string element_type;         // buffer element type or scalar type: float, int, ...
    std::string size;                 // buffers: element count, an expression
    std::string value;                // scalars: an expression
    BufferAccess access = BufferAccess::input;
    ArgumentMemory memory = ArgumentMemory::global;
    // Constant buffers: whether the kernel also takes it as a parameter in this position
    // (a device buffer with the same values). A TOML spec's constant buffer is the
    // `__constant__` variable alone unless it says parameter = true; a T1 file's Arguments
    // are the kernel's parameters, so there it is both.
    bool kernel_parameter = true;
    // Inputs: random values drawn from (0, random_upper] instead of the tuner's default range
    // (T1's FillValue on a Random fill: KTT's uniform [0, FillValue), zero left out as ever).
    // Floating-point buffers only. None: the default range.
    std::optional<double> random_upper;
    // Inputs: every element this value instead of random ones (T1's Constant fill).
    std::optional<double> fill_value;
    // Inputs: element i is this expression of i, in the spec's expression language (T1's
    // Generator fill, KTT's DataSource: "i", "i % 7 * 0.5"). Empty: none.
    std::string fill_expression;
    // Inputs: the bytes of this file, exactly the buffer's size (T1's BinaryRaw fill; an
    // absolute path). Read when the buffer is filled, so compiling needs no file. Empty: none.
    std::string fill_file;
};

struct LaunchGeometry {
    std::vector<std::string> grid;  // 1 to 3 expressions (x, y, z)
    std::vector<std::string> block; // 1 to 3 expressions (x, y, z)
    std::string dynamic_shared_bytes = "0";
    // The static shared memory the kernel declares, where the spec can say it (an expression;
    // empty: it does not). A variant over the 48 KiB any kernel may declare is removed before
    // compiling: ptxas would refuse it only at the end of a compile that may take seconds.
    std::string static_shared_bytes;
};

struct CostModel {
    std::string flops; // floating-point operations of one launch, an expression
    std::string bytes; // minimum bytes moved: each input read once, each output written once
    Precision precision = Precision::fp32; // the compute roof the flops run against
};

// Which parameters carry the register policy (see DESIGN.md, "Register policy").
// Names are empty when the kernel does not expose that mechanism.
struct RegisterPolicySpec {
    std::string max_threads;  // parameter the template applies as __launch_bounds__(max_threads, ...)
    std::string min_blocks;   // parameter the template applies as __launch_bounds__(..., min_blocks)
    std::string maxnreg;      // parameter the template applies as __maxnreg__(N) when N > 0
    std::string maxrregcount; // parameter the tuner turns into --maxrregcount=N (file level), 0 = no cap
};

// How a variant's output is checked before its time counts.
struct ReferenceSpec {
    std::string cpu;                   // a built-in CPU reference ("copy", "gemm"); empty: none
    std::string tolerance = "elementwise"; // or "normwise"
    std::optional<double> relative;    // overrides the precision's default tolerance
    // A designated reference variant (parameter values, every parameter): run first on the
    // same inputs, its outputs are what every other variant is compared with. Empty: none.
    std::vector<std::pair<std::string, std::int64_t>> variant;
};

struct KernelSpec {
    std::string name;
    std::string description;
    std::filesystem::path spec_path;     // the file it was read from
    std::filesystem::path template_path; // absolute; resolved relative to the spec file
    std::string function;                // kernel function, possibly namespace-qualified
    ParameterPassing passing = ParameterPassing::template_arguments;
    std::vector<std::string> template_arguments; // names, in the template's order
    std::vector<std::filesystem::path> include_dirs; // extra -I, absolute
    std::vector<std::string> compile_options;        // extra NVRTC/nvcc options, e.g. -std=c++17
    std::vector<Definition> definitions;             // [kernel] defines, in spec order

    std::vector<TunableParameter> parameters;
    std::vector<DerivedValue> derived;
    std::vector<Constraint> constraints;
    std::vector<ProblemVariable> problem;
    std::vector<ProblemAssignment> problem_set; // tuned by default, in order; empty: the defaults alone
    std::vector<KernelArgument> arguments;
    LaunchGeometry launch;
    CostModel cost;
    RegisterPolicySpec register_policy;
    ReferenceSpec reference;
    // Why the kernel cannot be measured although it compiles (a T1 file without Arguments),
    // one line naming the file and the field; empty: it can be.
    std::string not_measurable;
    // The tuning parameter whose value is the SM clock (MHz) a configuration asks the GPU
    // for (Kernel Tuner's nvml_gr_clock): each variant is predicted at its value. Empty: none.
    std::string sm_clock_parameter;
    // What the spec file says that the tool reads and does not use (a T1 file's search
    // settings, budget, device), one line each naming the file, the field and why: the
    // commands print them once on stderr and go on.
    std::vector<std::string> notes;

    [[nodiscard]] const TunableParameter* find_parameter(std::string_view name) const;
};

} // namespace autotune
