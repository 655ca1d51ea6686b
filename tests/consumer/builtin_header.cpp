// The built-in kernels' tuned header, as the package installs it (see checks.cmake).
#include "autotune/builtin/autotune_tuned.hpp"

static_assert(autotune_tuned::gemm::entry_count > 0);
