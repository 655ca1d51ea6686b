#include "cli/compile_cache_option.hpp"

#include "cli/cli_error.hpp"
#include "compile/compile_cache.hpp"
#include "util/one_line.hpp"
#include "util/writable_directory.hpp"

#include <fmt/format.h>
#include <memory>
#include <mutex>

namespace autotune::cli {

void use_compile_cache(const std::string& option, CompileSettings& settings,
                       const std::function<void(const std::string& line)>& say)
{
    settings.cache_dir.reset();
    settings.cache_store_failed = nullptr;
    if (option == "none")
        return;
    const bool named = !option.empty();
    const std::filesystem::path dir = named ? std::filesystem::path(option) : default_cache_dir();
    if (const auto why_not = why_not_writable_directory(dir)) {
        if (named)
            throw UsageError(fmt::format("--cache {} {} (name a writable directory, or --cache none)", dir.string(), *why_not));
        say(fmt::format("autotune: the compile cache {} {}; compiling without a cache (--cache DIR names another)",
                        dir.string(), *why_not));
        return;
    }
    settings.cache_dir = dir;
    // Shared by every copy of the settings: one run says it once.
    auto said = std::make_shared<std::once_flag>();
    settings.cache_store_failed = [said, say](const std::string& why) {
        std::call_once(*said, [&] {
            say(fmt::format("autotune: the compile cache cannot store entries ({}); going on without storing, the "
                            "results are unaffected", one_line(why)));
        });
    };
}

} // namespace autotune::cli
