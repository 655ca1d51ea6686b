// The on-disk journal of a measuring run: one JSON record per line, appended and flushed
// to disk as each measurement completes, so a crash, a Ctrl-C or a SIGKILL loses nothing
// already measured, and a rerun can read back what is done.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

namespace autotune {

class MeasurementJournal {
public:
    // Opens (creating) the journal for appending. Throws std::runtime_error naming the path.
    explicit MeasurementJournal(std::filesystem::path path);
    ~MeasurementJournal();
    MeasurementJournal(const MeasurementJournal&) = delete;
    MeasurementJournal& operator=(const MeasurementJournal&) = delete;

    // Appends one record as a line and fsyncs it before returning.
    void append(const nlohmann::json& record);

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    int fd_ = -1;
};

// Every complete record of a journal, in order. A torn last line (the process died while
// writing it) is ignored; a malformed line elsewhere throws std::runtime_error naming the
// path and line. A missing file reads as empty.
[[nodiscard]] std::vector<nlohmann::json> read_journal(const std::filesystem::path& path);

} // namespace autotune
