#include "cli/output_paths.hpp"

#include "cli/cli_error.hpp"
#include "util/writable_directory.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace autotune::cli {

void require_writable_file(const std::string& option, const std::string& path)
{
    if (std::filesystem::is_directory(path))
        throw UsageError(fmt::format("{} {} is a directory; name the file to write", option, path));
    const auto folder = std::filesystem::path(path).parent_path();
    if (const auto why_not = why_not_writable_directory(folder.empty() ? "." : folder, CreatedFolders::removed))
        throw UsageError(fmt::format("{} {}: {} {}", option, path, folder.string(), *why_not));
}

void require_writable_folder(const std::string& option, const std::string& path)
{
    if (const auto why_not = why_not_writable_directory(path, CreatedFolders::removed))
        throw UsageError(fmt::format("{} {} {}", option, path, *why_not));
}

} // namespace autotune::cli
