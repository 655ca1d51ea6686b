#include "util/sha256.hpp"

#include <cstdint>
#include <openssl/evp.h>
#include <stdexcept>

namespace autotune {
namespace {

std::string to_hex(const unsigned char* digest, unsigned int length)
{
    static const char* const digits = "0123456789abcdef";
    std::string out;
    out.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        out.push_back(digits[digest[i] >> 4]);
        out.push_back(digits[digest[i] & 15]);
    }
    return out;
}

} // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new())
{
    if (context_ == nullptr || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(context_), EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(context_)); }

Sha256& Sha256::add(std::string_view part)
{
    const std::uint64_t length = part.size();
    auto* ctx = static_cast<EVP_MD_CTX*>(context_);
    EVP_DigestUpdate(ctx, &length, sizeof length);
    EVP_DigestUpdate(ctx, part.data(), part.size());
    return *this;
}

std::string Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(context_), digest, &length);
    return to_hex(digest, length);
}

std::string sha256_hex(std::string_view bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("OpenSSL: SHA-256 failed");
    return to_hex(digest, length);
}

} // namespace autotune
