#include "emit/measured_times_file.hpp"

#include "emit/kt_cache_import.hpp"
#include "emit/results_reader.hpp"
#include "emit/t4_format.hpp"
#include "util/gzip_text.hpp"

namespace autotune {

nlohmann::ordered_json read_measured_times_file(const std::filesystem::path& path)
{
    // A look at the document first: the results reader's own errors (not found, not JSON,
    // misshapen) are the ones to give for anything that is not Kernel Tuner's or KTT's.
    bool kernel_tuners = false;
    try {
        const auto document = nlohmann::ordered_json::parse(read_maybe_gzipped(path));
        kernel_tuners = is_kt_cache(document) || is_t4(document);
    } catch (const std::exception&) {
    }
    return kernel_tuners ? import_kt_cache(path) : read_results_file(path);
}

} // namespace autotune
