// SHA-256 of bytes, as lowercase hex: cache keys, cubin and SASS identities.
#pragma once

#include <string>
#include <string_view>

namespace autotune {

[[nodiscard]] std::string sha256_hex(std::string_view bytes);

// Incremental form for keys built from several parts.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    // Each part is framed by its length, so ("ab","c") and ("a","bc") differ.
    Sha256& add(std::string_view part);
    [[nodiscard]] std::string hex();

private:
    void* context_;
};

} // namespace autotune
