// A fixed-size field of a cubin's bytes (notes, attribute records, machine-code words):
// cubins are little-endian, as are the hosts autotune runs on. The caller checks the bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace autotune {

template <typename T>
[[nodiscard]] T load_little_endian(std::string_view bytes, std::size_t offset)
{
    T v{};
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

[[nodiscard]] inline std::uint32_t load_u32(std::string_view bytes, std::size_t offset)
{
    return load_little_endian<std::uint32_t>(bytes, offset);
}

[[nodiscard]] inline std::uint64_t load_u64(std::string_view bytes, std::size_t offset)
{
    return load_little_endian<std::uint64_t>(bytes, offset);
}

} // namespace autotune
