#include "util/gzip_text.hpp"

#include <fstream>
#include <limits>
#include <sstream>
#include <zlib.h>

namespace autotune {

bool is_gzip(std::string_view data)
{
    return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(std::string_view data)
{
    if (data.size() > std::numeric_limits<uInt>::max())
        throw GzipError("too large to inflate");
    std::string out;
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 16) != Z_OK)
        throw GzipError("cannot start zlib");
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    char buffer[1 << 16];
    for (;;) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        const int status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
        if (status == Z_STREAM_END) {
            if (stream.avail_in == 0)
                break;
            inflateReset(&stream); // a concatenated member follows
            continue;
        }
        if (status != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0)) {
            const std::string why = stream.msg ? stream.msg : status == Z_OK ? "truncated" : "corrupt data";
            inflateEnd(&stream);
            throw GzipError("not a readable gzip file: " + why);
        }
    }
    inflateEnd(&stream);
    return out;
}

std::string read_maybe_gzipped(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (!in)
        throw std::invalid_argument("cannot read it");
    std::string data = buffer.str();
    return is_gzip(data) ? gunzip(data) : data;
}

} // namespace autotune
