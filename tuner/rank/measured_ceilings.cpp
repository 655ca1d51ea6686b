#include "rank/measured_ceilings.hpp"

#include "util/atomic_file.hpp"

#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace autotune {

std::string device_slug(const std::string& device_name)
{
    std::string slug;
    for (char c : device_name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            slug.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        else if (!slug.empty() && slug.back() != '-')
            slug.push_back('-');
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug;
}

std::optional<MeasuredCeilings> read_measured_ceilings(const std::filesystem::path& devices_dir,
                                                       const std::string& device_name)
{
    const auto path = devices_dir / (device_slug(device_name) + ".json");
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    try {
        const auto j = nlohmann::json::parse(in);
        MeasuredCeilings c;
        c.device = j.at("device").get<std::string>();
        c.compute_capability = j.at("compute_capability").get<int>();
        c.clock_mhz = j.at("clock_mhz").get<double>();
        c.bandwidth_gbs = j.at("bandwidth_gbs").get<double>();
        c.compute_gflops = j.at("compute_gflops").get<std::map<std::string, double>>();
        c.measured_at = j.at("measured_at").get<std::string>();
        return c;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: not a ceilings file: {}", path.string(), e.what()));
    }
}

std::filesystem::path write_measured_ceilings(const std::filesystem::path& devices_dir, const MeasuredCeilings& c)
{
    const auto path = devices_dir / (device_slug(c.device) + ".json");
    const nlohmann::ordered_json j{{"device", c.device},
                                   {"compute_capability", c.compute_capability},
                                   {"clock_mhz", c.clock_mhz},
                                   {"bandwidth_gbs", c.bandwidth_gbs},
                                   {"compute_gflops", c.compute_gflops},
                                   {"measured_at", c.measured_at},
                                   {"measured_by", "autotune roofline"}};
    write_file_atomically(path, j.dump(2) + "\n");
    return path;
}

std::optional<Ceilings> ceilings_for(const MeasuredCeilings& measured, Precision precision,
                                     const std::filesystem::path& file)
{
    const auto it = measured.compute_gflops.find(to_string(precision));
    if (it == measured.compute_gflops.end() || measured.bandwidth_gbs <= 0)
        return std::nullopt;
    return Ceilings{it->second, measured.bandwidth_gbs, measured.clock_mhz, "measured: " + file.string()};
}

} // namespace autotune
