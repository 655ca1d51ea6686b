// What every fuzz target shares: the readers that take a path get the fuzz input as a file
// in a directory of the process's own, beside what such a file may name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace autotune::fuzz {

// A directory made once per process under $TMPDIR (the runner points it at a directory it
// removes afterwards), removed when the process exits normally.
[[nodiscard]] const std::filesystem::path& scratch_dir();

// Writes the input to `path`, replacing what was there.
void write_input(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size);

} // namespace autotune::fuzz
