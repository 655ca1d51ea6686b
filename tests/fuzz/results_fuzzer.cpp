// Fuzz target: the results reader, as the commands that rebuild variants (header, fidelity,
// merge) use it: read the file, rebuild its spec, problem and arch, then each variant record.
// A document that is not what autotune writes ends in one of the errors the program reports
// naming the input; any other exception, a sanitizer report or a hang is a finding.
#include "fuzz_input.hpp"

#include "arch/arch_target.hpp"
#include "emit/results_reader.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"

#include <stdexcept>

namespace {

// A JSON-library exception from a document of the wrong shape ("type must be string, but is
// null") is the failure issue 14 names and the shape-checking results reader fixes; until that
// reader is merged such exceptions are let through here, and everything else is reported.
// Set to false once it is.
constexpr bool known_json_library_errors = true;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace autotune;
    static const std::filesystem::path path = fuzz::scratch_dir() / "results.json";
    fuzz::write_input(path, data, size);
    try {
        const nlohmann::ordered_json results = read_results_file(path);
        const ResultsContext context = results_context(results, path.string());
        for (const auto& record : results.at("variants"))
            (void)variant_of_record(context, record, path.string());
    } catch (const std::invalid_argument&) {
    } catch (const SpecError&) {
    } catch (const ExpressionError&) {
    } catch (const ArchError&) {
    } catch (const ProblemError&) {
    } catch (const nlohmann::ordered_json::exception&) {
        if (!known_json_library_errors)
            throw;
    }
    return 0;
}
