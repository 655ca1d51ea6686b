// The `autotune` subcommands. Each takes the arguments after its name and returns the
// exit code; bad input is thrown (UsageError and the stages' own errors) for main to map.
#pragma once

#include <string>
#include <vector>

namespace autotune::cli {

using Arguments = std::vector<std::string>;

int tune_builtin_command(const std::string& kernel, const Arguments& args); // autotune <kernel> ... (a built-in one)
int run_spec_command(const Arguments& args);                                 // autotune run SPEC ...
int list_command(const Arguments& args);                                     // autotune list
int fidelity_command(const Arguments& args);                                 // autotune fidelity RESULTS
int occupancy_command(const Arguments& args);                                // autotune occupancy
int archs_command(const Arguments& args);                                    // autotune archs
int devices_command(const Arguments& args);                                  // autotune devices
int report_command(const Arguments& args);                                   // autotune report RESULTS...
int roofline_command(const Arguments& args);                                 // autotune roofline
int compare_command(const Arguments& args);                                  // autotune compare BASE NEW
int header_command(const Arguments& args);                                   // autotune header RESULTS... -o FILE
int merge_command(const Arguments& args);                                    // autotune merge PARTS... -o FILE
int import_command(const Arguments& args);                                   // autotune import kt-cache FILE -o RESULTS
int export_command(const Arguments& args);                                   // autotune export t4 RESULTS -o FILE
int replay_command(const Arguments& args);                                   // autotune replay RESULTS --strategy NAME
int check_model_command(const Arguments& args);                              // autotune check-model SPEC --measured FILE
int measure_worker_command(const Arguments& args);                           // autotune measure-worker (internal)
int compile_worker_command(const Arguments& args);                           // autotune compile-worker (internal)

} // namespace autotune::cli
