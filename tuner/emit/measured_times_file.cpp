#include "emit/measured_times_file.hpp"

#include "emit/kt_cache_import.hpp"
#include "emit/results_reader.hpp"
#include "emit/results_shape.hpp"
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
    // Read once. What is not Kernel Tuner's or KTT's gets the results reader's own errors (not
    // found, not JSON, misshapen); a Kernel Tuner cache an interrupted run left unclosed (its
    // text ending in ",") is not JSON yet, and the importer closes it as Kernel Tuner does.
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return read_results_file(path);
    nlohmann::ordered_json document;
    try {
        document = read_json_file(path);
    } catch (const std::invalid_argument&) {
        return read_results_file(path);
    }
    if (is_kt_cache(document) || is_t4(document))
        return import_kt_cache(std::move(document), path);
    check_results_shape(document, path.string());
    return document;
}

} // namespace autotune
