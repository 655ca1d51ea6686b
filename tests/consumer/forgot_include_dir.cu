// A consumer without target_include_directories for its generated header (see
// checks.cmake): this include must fail.
#include "autotune_tuned.hpp"

int main() { return autotune_tuned::gemm::entry_count; }
