// Writing a file so that readers see either the old content or the new, never a torn
// one: write a uniquely named temporary beside it, then rename over it.
#pragma once

#include <filesystem>
#include <string_view>

namespace autotune {

// Creates missing parent directories. Throws std::runtime_error naming the path.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

} // namespace autotune
