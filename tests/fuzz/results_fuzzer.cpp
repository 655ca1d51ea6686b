// Fuzz target: the results reader, as the commands that rebuild variants (header, fidelity,
// merge) use it: read the file, rebuild its spec, problem and arch, then each variant record.
// A document that is not what autotune writes ends in one of the errors the program reports
// naming the input (the shape check's JsonShapeError is an invalid_argument); any other
// exception — a JSON-library one included — a sanitizer report or a hang is a finding.
#include "fuzz_input.hpp"

#include "arch/arch_target.hpp"
#include "emit/results_reader.hpp"
#include "spec/expression.hpp"
#include "spec/load_spec.hpp"
#include "spec/problem.hpp"

#include <stdexcept>

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
    }
    return 0;
}
