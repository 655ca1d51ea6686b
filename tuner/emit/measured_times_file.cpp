#include "emit/measured_times_file.hpp"

#include "emit/kt_cache_import.hpp"
#include "emit/results_reader.hpp"
#include "emit/t4_format.hpp"
#include "util/gzip_text.hpp"

namespace autotune {

bool is_kernel_tuners_file(const std::filesystem::path& path)
{
    try {
        const auto document = nlohmann::ordered_json::parse(read_maybe_gzipped(path));
        return is_kt_cache(document) || is_t4(document);
    } catch (const std::exception&) {
        return false;
    }
}

nlohmann::ordered_json read_measured_times_file(const std::filesystem::path& path)
{
    // The results reader's own errors (not found, not JSON, misshapen) are the ones to give
    // for anything that is not Kernel Tuner's or KTT's.
    return is_kernel_tuners_file(path) ? import_kt_cache(path) : read_results_file(path);
}

} // namespace autotune
