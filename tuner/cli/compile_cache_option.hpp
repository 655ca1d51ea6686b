// --cache as every compiling command takes it: DIR, 'none', or absent for the default
// (default_cache_dir: $AUTOTUNE_CACHE_DIR, else $XDG_CACHE_HOME/autotune, else
// ~/.cache/autotune). Settled before anything compiles; the cache only saves time, so a
// run's results never depend on it.
#pragma once

#include "compile/compile_variants.hpp"

#include <functional>
#include <string>

namespace autotune::cli {

// Sets settings.cache_dir and settings.cache_store_failed. A cache directory that cannot
// be written is bad input when --cache named it (UsageError naming it); a default one is
// said through `say` and left out, and the command compiles uncached. A store that fails
// later (a full disk) is said through `say` once, however many compiles share `settings`.
void use_compile_cache(const std::string& option, CompileSettings& settings,
                       const std::function<void(const std::string& line)>& say);

} // namespace autotune::cli
