#include "compile/source_files.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace autotune {
namespace {

std::string read_text(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

} // namespace

std::vector<SourceFile> collect_source_files(const std::filesystem::path& main_file,
                                             const std::vector<std::filesystem::path>& include_dirs)
{
    static const std::regex quoted_include(R"re(^\s*#\s*include\s*"([^"]+)")re");
    std::vector<SourceFile> files;
    std::set<std::filesystem::path> seen;
    std::vector<std::filesystem::path> pending{std::filesystem::weakly_canonical(main_file)};
    while (!pending.empty()) {
        const auto path = pending.back();
        pending.pop_back();
        if (!seen.insert(path).second)
            continue;
        SourceFile file{path, read_text(path)};
        std::istringstream lines(file.content);
        std::string line;
        while (std::getline(lines, line)) {
            std::smatch m;
            if (!std::regex_search(line, m, quoted_include))
                continue;
            std::vector<std::filesystem::path> candidates{path.parent_path() / m[1].str()};
            for (const auto& dir : include_dirs)
                candidates.push_back(dir / m[1].str());
            for (const auto& candidate : candidates)
                if (std::filesystem::is_regular_file(candidate)) {
                    pending.push_back(std::filesystem::weakly_canonical(candidate));
                    break;
                }
        }
        files.push_back(std::move(file));
    }
    return files;
}

} // namespace autotune
