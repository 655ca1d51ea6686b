#include "spec/load_t1.hpp"

#include "measure/element_type.hpp"
#include "measure/verification.hpp"
#include "spec/device_settings.hpp"
#include "spec/load_spec.hpp"
#include "spec/python_expression.hpp"
#include "util/closest_name.hpp"
#include "util/plain_value_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace autotune {
namespace {

using nlohmann::json;

const char* const axes[] = {"X", "Y", "Z"};
// Why a file's own verification settings are not used.
const char* const checked_against_the_defaults =
    "outputs are checked against the reference variant's: the configuration of every Default, where all have one";
const char* const problem_names[] = {"problem_size_x", "problem_size_y", "problem_size_z"};

class T1Reader {
public:
    explicit T1Reader(std::filesystem::path path) : path_(std::move(path)) {}

    // One line: the file, the JSON path of the field, what is wrong with it.
    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw SpecError(fmt::format("{}: {} {}", path_.string(), where, what));
    }

    // A field the file has and autotune does not know. T1's schema allows fields beyond its
    // own (writers add theirs: BAT's BenchmarkPath, SharedMemoryOriginal), so one is noted
    // and the run goes on; one a typo away from a known field is refused, since the field
    // meant is then missing or misread.
    void known_keys(KernelSpec& spec, const json& object, const std::string& where,
                    const std::set<std::string>& known) const
    {
        if (!object.is_object())
            fail(where, "must be an object");
        for (const auto& [key, value] : object.items()) {
            if (known.count(key))
                continue;
            const std::string at = join(where, key);
            if (const auto meant = closest_name(key, {known.begin(), known.end()}))
                fail(at, fmt::format("is not a T1 field autotune knows (did you mean '{}'? known here: {})", *meant,
                                     fmt::join(known, ", ")));
            note(spec, at, "not a T1 field autotune knows");
        }
    }

    // A field read and not used: the run goes on, and says so once.
    void note(KernelSpec& spec, const std::string& where, const std::string& why) const
    {
        spec.notes.push_back(fmt::format("{}: {} is not used ({})", path_.string(), where, why));
    }

    const json& required(const json& object, const std::string& key, const std::string& where) const
    {
        if (!object.contains(key) || object.at(key).is_null())
            fail(join(where, key), "is missing");
        return object.at(key);
    }

    std::string string(const json& value, const std::string& where) const
    {
        if (!value.is_string())
            fail(where, fmt::format("must be a string, not {}", value.dump()));
        return value.get<std::string>();
    }

    // A T1 expression field: a Python expression in a string, or a plain number.
    std::string expression(const json& value, const std::string& where) const
    {
        if (value.is_number_integer())
            return std::to_string(value.get<std::int64_t>());
        if (value.is_number())
            return fmt::format("{}", value.get<double>());
        return string(value, where);
    }

    static std::string join(const std::string& where, const std::string& key)
    {
        return where.empty() ? key : where + "." + key;
    }

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

void read_parameters(const T1Reader& r, const json& space, KernelSpec& spec, std::vector<std::int64_t>& defaults)
{
    const std::string where = "ConfigurationSpace.TuningParameters";
    const json& parameters = r.required(space, "TuningParameters", "ConfigurationSpace");
    if (!parameters.is_array() || parameters.empty())
        r.fail(where, "must be a non-empty array");
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", where, i);
        const json& p = parameters[i];
        r.known_keys(spec, p, at, {"Name", "Type", "Values", "Default", "Description"});
        TunableParameter parameter;
        parameter.name = r.string(r.required(p, "Name", at), at + ".Name");
        if (!is_identifier(parameter.name))
            r.fail(at + ".Name", fmt::format("'{}' is not a valid identifier (it becomes a macro)", parameter.name));
        if (spec.find_parameter(parameter.name))
            r.fail(at + ".Name", fmt::format("'{}' is a parameter twice", parameter.name));
        const std::string type = r.string(r.required(p, "Type", at), at + ".Type");
        if (type != "int" && type != "uint")
            r.fail(at + ".Type",
                   fmt::format("'{}' is not supported (int or uint only: parameters are integer macros)", type));
        const json& values = r.required(p, "Values", at);
        try {
            parameter.values = evaluate_python_integers(plain_value_text(values), {}, at + ".Values");
        } catch (const ExpressionError& e) {
            throw SpecError(fmt::format("{}: {}", r.path().string(), e.what()));
        }
        if (type == "uint")
            for (const auto v : parameter.values)
                if (v < 0)
                    r.fail(at + ".Values", fmt::format("holds {}, which a uint parameter cannot take", v));
        // The default space of a T1 run is the whole space: the file lists what to tune.
        parameter.default_values = parameter.values;
        if (p.contains("Default") && !p.at("Default").is_null()) {
            // The Default only chooses the reference variant; one that is not a value of
            // the parameter (benchmark files have them) leaves the run without one, noted.
            const json& given = p.at("Default");
            const json& d = given.is_array() && given.size() == 1 ? given[0] : given; // [0], as some writers wrap it
            const auto value = d.is_number_integer() ? std::optional<std::int64_t>(d.get<std::int64_t>()) : std::nullopt;
            if (!value)
                r.note(spec, at + ".Default", fmt::format("{} is not an integer: no reference variant", given.dump()));
            else if (std::find(parameter.values.begin(), parameter.values.end(), *value) == parameter.values.end())
                r.note(spec, at + ".Default", fmt::format("{} is not among the Values: no reference variant", *value));
            else
                defaults.push_back(*value);
        }
        spec.parameters.push_back(std::move(parameter));
    }
    if (defaults.size() != spec.parameters.size())
        defaults.clear(); // a Default per parameter, or no reference variant
}

// The names per-configuration expressions see: the parameters and ProblemSize[i] (as the
// problem variables problem_size_x/y/z, so --problem can change it).
PythonTranslation configuration_names(const KernelSpec& spec)
{
    PythonTranslation names;
    for (const auto& p : spec.parameters)
        names.variables.insert(p.name);
    for (const auto& v : spec.problem) {
        names.variables.insert(v.name);
        names.indexed["ProblemSize"].push_back(v.name);
    }
    return names;
}

std::string translate(const T1Reader& r, const std::string& text, const PythonTranslation& names,
                      const std::string& where)
{
    try {
        return translate_python(text, names, where);
    } catch (const ExpressionError& e) {
        throw SpecError(fmt::format("{}: {}", r.path().string(), e.what()));
    }
}

struct ConditionText {
    std::string at;   // the JSON path of the expression
    std::string text; // Python
};

// Conditions, and Constraints as some T1 writers call them: objects with an Expression
// (and the Parameters it reads), or the expression alone as a string (Kernel Tuner's
// restrictions).
std::vector<ConditionText> condition_texts(const T1Reader& r, const json& space, KernelSpec& spec)
{
    std::vector<ConditionText> out;
    for (const char* key : {"Conditions", "Constraints"}) {
        if (!space.contains(key) || space.at(key).is_null())
            continue;
        const json& conditions = space.at(key);
        if (!conditions.is_array())
            r.fail(fmt::format("ConfigurationSpace.{}", key), "must be an array");
        for (std::size_t i = 0; i < conditions.size(); ++i) {
            const std::string at = fmt::format("ConfigurationSpace.{}[{}]", key, i);
            const json& c = conditions[i];
            if (c.is_string()) {
                out.push_back({at, c.get<std::string>()});
                continue;
            }
            r.known_keys(spec, c, at, {"Expression", "Parameters"});
            if (c.contains("Parameters"))
                for (const auto& name : c.at("Parameters")) {
                    if (!name.is_string() || !spec.find_parameter(name.get<std::string>()))
                        r.fail(at + ".Parameters", fmt::format("names {}, which is not a tuning parameter", name.dump()));
                }
            out.push_back({at + ".Expression", r.string(r.required(c, "Expression", at), at + ".Expression")});
        }
    }
    return out;
}

void read_conditions(const T1Reader& r, const std::vector<ConditionText>& conditions, KernelSpec& spec)
{
    const PythonTranslation names = configuration_names(spec);
    for (std::size_t i = 0; i < conditions.size(); ++i)
        spec.constraints.push_back(
            {fmt::format("condition_{}", i), translate(r, conditions[i].text, names, conditions[i].at)});
}

void read_problem_size(const T1Reader& r, const json& kernel, KernelSpec& spec)
{
    if (!kernel.contains("ProblemSize") || kernel.at("ProblemSize").is_null())
        return;
    const std::string where = "KernelSpecification.ProblemSize";
    json sizes = kernel.at("ProblemSize");
    if (!sizes.is_array())
        sizes = json::array({sizes});
    if (sizes.empty() || sizes.size() > 3)
        r.fail(where, "must hold 1 to 3 sizes");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", where, i);
        std::int64_t value = 0;
        try {
            const PythonValue v = evaluate_python(r.expression(sizes[i], at), {}, at);
            if (!std::holds_alternative<std::int64_t>(v.value))
                r.fail(at, fmt::format("is {}, not an integer", v.to_string()));
            value = std::get<std::int64_t>(v.value);
        } catch (const UnknownNameError& e) {
            // A name here can only be a parameter's (none is in scope): say why it is refused.
            throw SpecError(fmt::format("{}: {} (sizes that depend on parameters are not supported)", r.path().string(),
                                        e.what()));
        } catch (const ExpressionError& e) {
            throw SpecError(fmt::format("{}: {}", r.path().string(), e.what()));
        }
        if (value <= 0)
            r.fail(at, fmt::format("is {}, not a positive size", value));
        spec.problem.push_back({problem_names[i], value, false});
    }
}

// X/Y/Z expressions of LocalSize or GlobalSize.
std::vector<std::string> read_dimensions(const T1Reader& r, KernelSpec& spec, const json& object, const std::string& where,
                                         const PythonTranslation& names)
{
    r.known_keys(spec, object, where, {"X", "Y", "Z"});
    std::vector<std::string> out;
    for (const char* axis : axes) {
        const std::string at = where + "." + axis;
        out.push_back(object.contains(axis) ? translate(r, r.expression(object.at(axis), at), names, at) : "1");
    }
    return out;
}

void read_launch(const T1Reader& r, const json& kernel, KernelSpec& spec)
{
    const PythonTranslation names = configuration_names(spec);
    const std::string where = "KernelSpecification";
    // GlobalSize counts blocks (CUDA, Vulkan: workgroups) or threads (OpenCL, as KTT
    // writes it for CUDA kernels too: the grid is then GlobalSize / LocalSize, rounded up).
    const std::string size_type =
        kernel.contains("GlobalSizeType") ? r.string(kernel.at("GlobalSizeType"), where + ".GlobalSizeType") : "CUDA";
    if (size_type != "CUDA" && size_type != "Vulkan" && size_type != "OpenCL")
        r.fail(where + ".GlobalSizeType", fmt::format("'{}' is not one of: CUDA, OpenCL, Vulkan", size_type));
    spec.launch.block = read_dimensions(r, spec, r.required(kernel, "LocalSize", where), where + ".LocalSize", names);

    // Kernel Tuner's semantics: with ProblemSize, grid.d = ceil(ProblemSize[d] / product of
    // GridDivD), the divisors defaulting to the block's size in that dimension. This wins
    // over GlobalSize when both are present: the files written by Kernel Tuner's T1 export
    // carry GlobalSize values that are placeholders (pnpoly.json's is "block_size_x", one
    // block per thread), while GridDivX/ProblemSize are what it tuned with.
    bool has_div = false;
    for (const char* axis : axes)
        has_div = has_div || kernel.contains(std::string("GridDiv") + axis);
    // A GridDiv's expressions with the JSON path of each, checked to be an array of them.
    const auto divisor_list = [&](const std::string& key) {
        std::vector<std::pair<std::string, std::string>> out; // (expression, where)
        const json& list = kernel.at(key);
        if (!list.is_array())
            r.fail(where + "." + key, "must be an array of expressions");
        for (std::size_t k = 0; k < list.size(); ++k) {
            const std::string at = fmt::format("{}.{}[{}]", where, key, k);
            out.emplace_back(r.expression(list[k], at), at);
        }
        return out;
    };
    if (!spec.problem.empty()) {
        for (std::size_t d = 0; d < 3; ++d) {
            const std::string key = std::string("GridDiv") + axes[d];
            if (d >= spec.problem.size()) {
                // Kernel Tuner pads ProblemSize to three sizes with 1, and ceil(1 / d) is 1
                // for every positive divisor: one block here, whatever names GridDiv uses
                // (its own test file divides Y of a 1-D problem by a block_size_y it does
                // not tune). The list must still be one.
                if (kernel.contains(key))
                    (void)divisor_list(key);
                spec.launch.grid.push_back("1");
                continue;
            }
            std::vector<std::string> divisors;
            if (kernel.contains(key)) {
                for (const auto& [text, at] : divisor_list(key))
                    divisors.push_back(translate(r, text, names, at));
            } else {
                divisors.push_back(spec.launch.block[d]);
            }
            const std::string product = divisors.empty() ? "1" : fmt::format("({})", fmt::join(divisors, ") * ("));
            spec.launch.grid.push_back(fmt::format("ceil_div({}, {})", spec.problem[d].name, product));
        }
    } else if (has_div) {
        r.fail(where + ".GridDivX", "needs ProblemSize (the grid divides the problem)");
    } else {
        spec.launch.grid = read_dimensions(r, spec, r.required(kernel, "GlobalSize", where), where + ".GlobalSize", names);
        if (size_type == "OpenCL")
            for (std::size_t d = 0; d < 3; ++d)
                spec.launch.grid[d] = fmt::format("ceil_div({}, {})", spec.launch.grid[d], spec.launch.block[d]);
    }
    if (kernel.contains("SharedMemory") && !kernel.at("SharedMemory").is_null())
        spec.launch.dynamic_shared_bytes = translate(r, r.expression(kernel.at("SharedMemory"), where + ".SharedMemory"),
                                                     names, where + ".SharedMemory");
}

// A Random fill's FillValue: the upper end of the range (KTT, whose loader introduced T1,
// draws uniform [0, FillValue); Kernel Tuner ignores it and draws a normal distribution).
// Honoured for float and double buffers, where every value of (0, FillValue] the fill draws
// is a normal number of the type; anything else is refused rather than ignored.
double random_upper_of(const T1Reader& r, const json& value, ElementType type, const std::string& at)
{
    if (type != ElementType::f32 && type != ElementType::f64)
        r.fail(at, fmt::format("bounds a Random fill, which is supported for float and double buffers only ({} buffers "
                               "get the tuner's own random values; leave FillValue out)",
                               to_string(type)));
    if (!value.is_number())
        r.fail(at, fmt::format("{} is not a number (the upper end of the Random fill's range)", value.dump()));
    const double upper = value.get<double>();
    // The smallest value drawn is upper * 2^-p (p the significand's width).
    const bool single = type == ElementType::f32;
    const double least = single ? std::numeric_limits<float>::min() * 0x1p24 : std::numeric_limits<double>::min() * 0x1p53;
    const double most = single ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    if (!(upper >= least && upper <= most))
        r.fail(at, fmt::format("{} cannot bound a Random fill of {} (the range is (0, FillValue]: FillValue from {:.3g} "
                               "to {:.3g})",
                               value.dump(), to_string(type), least, most));
    return upper;
}

// The T1 schema names types by width (int32, uint32, ...): the CUDA spelling of each the
// tuner has; any other name (float, float2, int, ...) is left for the type parser to judge.
std::string cuda_type_of(const std::string& t1_type)
{
    static const std::pair<const char*, const char*> widths[] = {
        {"int8", "int8_t"},   {"uint8", "uint8_t"},   {"int16", "int16_t"}, {"uint16", "uint16_t"},
        {"int32", "int32_t"}, {"uint32", "uint32_t"}, {"int64", "int64_t"}, {"uint64", "uint64_t"}};
    for (const auto& [t1, cuda] : widths)
        if (t1_type == t1)
            return cuda;
    return t1_type;
}

// A Constant fill's FillValue, which the element type must hold.
double constant_fill_of(const T1Reader& r, const json& value, ElementType type, const std::string& at)
{
    if (!value.is_number())
        r.fail(at, fmt::format("{} is not a number (the value of every element of a Constant fill)", value.dump()));
    const double fill = value.get<double>();
    try {
        check_constant_input(type, fill);
    } catch (const std::invalid_argument& e) {
        r.fail(at, e.what());
    }
    return fill;
}

// A Generator fill's DataSource (KTT's): a Python expression of the element's index i, in
// the spec's expression language. Checked here on the first elements, so a value the type
// cannot hold is refused before anything compiles.
std::string generator_of(const T1Reader& r, const json& a, const BufferElement& element, const std::string& at)
{
    if (element.components != 1)
        r.fail(at + ".FillType", "Generator fills buffers of scalar elements only (one value per index i)");
    const std::string source = r.string(r.required(a, "DataSource", at), at + ".DataSource");
    PythonTranslation names;
    names.variables.insert("i");
    const std::string expression = translate(r, source, names, at + ".DataSource");
    std::vector<std::byte> first(4 * element_size(element.component));
    try {
        fill_generated_input(element.component, first, expression);
    } catch (const std::exception& e) { // ExpressionError, or a value the type cannot hold
        r.fail(at + ".DataSource", fmt::format("'{}': {}", source, e.what()));
    }
    return expression;
}

void read_arguments(const T1Reader& r, const json& kernel, KernelSpec& spec)
{
    const std::string where = "KernelSpecification.Arguments";
    const json arguments = kernel.contains("Arguments") && !kernel.at("Arguments").is_null() ? kernel.at("Arguments")
                                                                                              : json::array();
    if (!arguments.is_array())
        r.fail(where, "must be an array");
    if (arguments.empty()) {
        spec.not_measurable = fmt::format("{}: {} is empty: the kernel's arguments are not described, so it cannot be "
                                          "launched or measured (compiling and predicting work: --compile-only)",
                                          r.path().string(), where);
        return;
    }
    // Sizes are the problem's: ProblemSize[d] is the problem variable, and a parameter
    // stands for its list of Values (max(filter_width) is the largest).
    PythonTranslation names;
    for (const auto& v : spec.problem) {
        names.variables.insert(v.name);
        names.indexed["ProblemSize"].push_back(v.name);
    }
    for (const auto& p : spec.parameters) {
        std::vector<PythonValue> values;
        for (auto v : p.values)
            values.push_back(PythonValue{v});
        names.constants[p.name] = PythonValue{std::move(values)};
    }
    std::vector<std::string> bytes;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", where, i);
        const json& a = arguments[i];
        r.known_keys(spec, a, at, {"Name", "Type", "MemoryType", "AccessType", "MemType", "FillType", "Size", "FillValue",
                             "Output", "Description", "RandomSeed", "TypeSize", "DataSource"});
        if (a.contains("RandomSeed"))
            r.note(spec, at + ".RandomSeed", "random inputs are drawn from --seed");
        if (a.contains("TypeSize"))
            r.note(spec, at + ".TypeSize", "an element's size follows from its Type");
        KernelArgument argument;
        // T1 makes a Name optional: the kernel takes its arguments by position, and one
        // without a name is called after it (a constant-memory one needs its symbol's).
        argument.name = a.contains("Name") ? r.string(a.at("Name"), at + ".Name") : fmt::format("arg{}", i);
        if (!is_identifier(argument.name))
            r.fail(at + ".Name", fmt::format("'{}' is not a valid identifier", argument.name));
        argument.element_type = cuda_type_of(r.string(r.required(a, "Type", at), at + ".Type"));
        const std::string memory = a.contains("MemoryType") ? r.string(a.at("MemoryType"), at + ".MemoryType") : "Vector";
        BufferElement element;
        try {
            element = memory == "Scalar" ? BufferElement{parse_element_type(argument.element_type), 1}
                                         : parse_buffer_element(argument.element_type);
        } catch (const std::invalid_argument& e) {
            r.fail(at + ".Type", e.what());
        }
        if (memory == "Scalar") {
            argument.kind = ArgumentKind::scalar;
            argument.value = translate(r, r.expression(r.required(a, "FillValue", at), at + ".FillValue"), names,
                                       at + ".FillValue");
            spec.arguments.push_back(std::move(argument));
            continue;
        }
        if (memory == "Local")
            r.fail(at + ".MemoryType", "'Local' is not supported (OpenCL's __local arguments; a CUDA kernel's dynamic "
                                       "shared memory is KernelSpecification.SharedMemory, in bytes)");
        if (memory != "Vector")
            r.fail(at + ".MemoryType", fmt::format("'{}' is not supported (Vector or Scalar)", memory));
        argument.kind = ArgumentKind::buffer;
        const std::string access = a.contains("AccessType") ? r.string(a.at("AccessType"), at + ".AccessType") : "ReadOnly";
        if (access == "ReadOnly")
            argument.access = BufferAccess::input;
        else if (access == "WriteOnly")
            argument.access = BufferAccess::output;
        else if (access == "ReadWrite")
            argument.access = BufferAccess::input_output;
        else
            r.fail(at + ".AccessType", fmt::format("'{}' is not one of: ReadOnly, WriteOnly, ReadWrite", access));
        if (a.contains("MemType")) {
            const std::string mem_type = r.string(a.at("MemType"), at + ".MemType");
            if (mem_type == "Constant")
                argument.memory = ArgumentMemory::constant; // also the kernel's parameter: T1 lists parameters
            else if (mem_type != "Global")
                r.fail(at + ".MemType", fmt::format("'{}' is not supported (Global or Constant)", mem_type));
            if (argument.memory == ArgumentMemory::constant && argument.access != BufferAccess::input)
                r.fail(at + ".AccessType", "must be ReadOnly for constant memory");
            if (argument.memory == ArgumentMemory::constant && !a.contains("Name"))
                r.fail(at + ".Name", "is missing: a constant-memory argument fills the __constant__ variable it names");
        }
        // Inputs are seeded random values (FillType Random), every element the FillValue
        // (Constant), an expression of the index (Generator) or a file's bytes (BinaryRaw);
        // an output's fill is overwritten by the kernel (the tuner poisons outputs to find
        // unwritten elements).
        const std::string fill = a.contains("FillType") ? r.string(a.at("FillType"), at + ".FillType") : "Random";
        if (fill != "Random" && fill != "Constant" && fill != "Generator" && fill != "BinaryRaw")
            r.fail(at + ".FillType", fmt::format("'{}' is not supported (Random, Constant, Generator or BinaryRaw)", fill));
        if (fill == "BinaryRaw" && argument.access != BufferAccess::output) {
            // The file is read when the buffer is filled, on a GPU: compiling and predicting
            // need none, and its size is checked against the buffer's then.
            const std::string source = r.string(r.required(a, "DataSource", at), at + ".DataSource");
            argument.fill_file =
                std::filesystem::weakly_canonical(std::filesystem::absolute(r.path()).parent_path() / source).string();
        }
        if (fill == "Generator" && argument.access != BufferAccess::output)
            argument.fill_expression = generator_of(r, a, element, at);
        if (fill == "Random" && argument.access != BufferAccess::output && a.contains("FillValue"))
            argument.random_upper = random_upper_of(r, a.at("FillValue"), element.component, at + ".FillValue");
        if (fill == "Constant" && argument.access != BufferAccess::output)
            argument.fill_value = constant_fill_of(r, r.required(a, "FillValue", at), element.component, at + ".FillValue");
        argument.size = translate(r, r.expression(r.required(a, "Size", at), at + ".Size"), names, at + ".Size");
        // A ReadWrite buffer is read and written: twice its size at the least.
        if (argument.kernel_parameter || argument.memory == ArgumentMemory::global)
            bytes.push_back(fmt::format("{} * ({})", (argument.access == BufferAccess::input_output ? 2 : 1) *
                                                         element_size(element.component) * element.components,
                                        argument.size));
        spec.arguments.push_back(std::move(argument));
    }
    // The minimum traffic: every input read once, every output written once. T1 has no flop count.
    spec.cost.bytes = bytes.empty() ? std::string("0") : fmt::format("{}", fmt::join(bytes, " + "));
}

// The T1 Default as the reference variant, when every parameter has one and the
// conditions and CUDA's block limits keep it (a reference that cannot run checks nothing).
void read_reference(const std::vector<std::int64_t>& defaults, const std::vector<ConditionText>& conditions,
                    const json& kernel, KernelSpec& spec)
{
    if (defaults.empty())
        return;
    PythonScope scope;
    for (std::size_t i = 0; i < defaults.size(); ++i)
        scope[spec.parameters[i].name] = PythonValue{defaults[i]};
    std::vector<PythonValue> sizes;
    for (const auto& v : spec.problem)
        sizes.push_back(PythonValue{v.default_value});
    scope["ProblemSize"] = PythonValue{sizes};
    try {
        for (const auto& c : conditions)
            if (!python_truth(evaluate_python(c.text, scope, "condition")))
                return;
        std::int64_t threads = 1;
        const json& local = kernel.at("LocalSize");
        for (const char* axis : axes) {
            if (!local.contains(axis))
                continue;
            const json& e = local.at(axis);
            const PythonValue v = evaluate_python(plain_value_text(e), scope, "LocalSize");
            threads *= std::holds_alternative<std::int64_t>(v.value) ? std::get<std::int64_t>(v.value) : 0;
        }
        if (threads < 1 || threads > 1024)
            return;
    } catch (const ExpressionError&) {
        return;
    }
    for (std::size_t i = 0; i < defaults.size(); ++i)
        spec.reference.variant.emplace_back(spec.parameters[i].name, defaults[i]);
    // Sums in another order (tiles, unrolling) round differently.
    spec.reference.tolerance = "normwise";
}

} // namespace

KernelSpec load_t1_spec(const std::filesystem::path& path)
{
    if (!std::filesystem::is_regular_file(path))
        throw SpecError(fmt::format("{}: spec file not found", path.string()));
    const T1Reader r(path);
    json root;
    try {
        std::ifstream in(path);
        root = json::parse(in);
    } catch (const json::parse_error& e) {
        throw SpecError(fmt::format("{}: not valid JSON: {}", path.string(), e.what()));
    }
    // How to tune (the search, its budget, how often to run a configuration) is the
    // command line's to say; what is tuned is the file's. The former is read and noted.
    KernelSpec spec;
    r.known_keys(spec, root, "",
                 {"General", "ConfigurationSpace", "KernelSpecification", "Budget", "Search", "SearchSettings",
                  "BenchmarkConfig", "$schema", "verification"});
    if (root.contains("Budget"))
        r.note(spec, "Budget", "a run's budget is --budget, with a --strategy that searches");
    for (const char* search : {"Search", "SearchSettings"})
        if (root.contains(search))
            r.note(spec, search, "the search is --strategy");
    if (root.contains("verification"))
        r.note(spec, "verification", checked_against_the_defaults);
    if (root.contains("BenchmarkConfig"))
        r.note(spec, "BenchmarkConfig", "a variant is run until its median is known to --max-noise");
    const json& space = r.required(root, "ConfigurationSpace", "");
    r.known_keys(spec, space, "ConfigurationSpace", {"TuningParameters", "Conditions", "Constraints"});
    const json& kernel = r.required(root, "KernelSpecification", "");
    const std::string where = "KernelSpecification";
    r.known_keys(spec, kernel, where,
                 {"Language", "CompilerOptions", "BenchmarkName", "KernelName", "KernelFile", "GlobalSizeType",
                  "LocalSize", "GlobalSize", "GridDivX", "GridDivY", "GridDivZ", "ProblemSize", "SharedMemory",
                  "Stream", "Arguments", "Device", "Profiling", "SimulationInput", "ReferenceArguments", "Misc"});
    if (kernel.contains("Device"))
        r.note(spec, where + ".Device", "the device is the GPU the run finds, or --device for predictions");
    if (kernel.contains("Profiling"))
        r.note(spec, where + ".Profiling", "variants are timed, not profiled");
    if (kernel.contains("SimulationInput"))
        r.note(spec, where + ".SimulationInput", "replay takes a results file: autotune replay");
    if (kernel.contains("Misc"))
        r.note(spec, where + ".Misc", "a writer's own settings, such as Kernel Tuner's jitify: autotune compiles with "
                                      "NVRTC, or --compiler nvcc");
    if (kernel.contains("ReferenceArguments"))
        r.note(spec, where + ".ReferenceArguments", checked_against_the_defaults);

    spec.spec_path = std::filesystem::absolute(path);
    std::string name = path.stem().string();
    if (root.contains("General") && root.at("General").contains("BenchmarkName"))
        name = r.string(root.at("General").at("BenchmarkName"), "General.BenchmarkName");
    if (!is_identifier(name))
        r.fail("General.BenchmarkName", fmt::format("'{}' is not an identifier (it names the results file)", name));
    spec.name = name;
    spec.description = fmt::format("{} (T1 description {})", name, path.filename().string());

    if (kernel.contains("Language")) {
        const std::string language = r.string(kernel.at("Language"), where + ".Language");
        if (language != "CUDA")
            r.fail(where + ".Language", fmt::format("'{}' is not supported (CUDA only)", language));
    }
    if (kernel.contains("Stream") && !kernel.at("Stream").is_null())
        r.fail(where + ".Stream", "is not supported (the tuner launches on its own stream): leave it null");
    const std::string file = r.string(r.required(kernel, "KernelFile", where), where + ".KernelFile");
    spec.template_path = std::filesystem::weakly_canonical(std::filesystem::absolute(path).parent_path() / file);
    if (!std::filesystem::is_regular_file(spec.template_path))
        r.fail(where + ".KernelFile", fmt::format("'{}' not found (looked at {})", file, spec.template_path.string()));
    spec.function = r.string(r.required(kernel, "KernelName", where), where + ".KernelName");
    spec.passing = ParameterPassing::preprocessor_definitions;
    if (kernel.contains("CompilerOptions")) {
        const json& options = kernel.at("CompilerOptions");
        if (!options.is_array())
            r.fail(where + ".CompilerOptions", "must be an array of strings");
        for (std::size_t i = 0; i < options.size(); ++i)
            spec.compile_options.push_back(r.string(options[i], fmt::format("{}.CompilerOptions[{}]", where, i)));
    }

    std::vector<std::int64_t> defaults;
    read_parameters(r, space, spec, defaults);
    read_problem_size(r, kernel, spec);
    const std::vector<ConditionText> conditions = condition_texts(r, space, spec);
    read_conditions(r, conditions, spec);
    read_launch(r, kernel, spec);
    // T1 says nothing of the work: no flops (the ranking is by time), bytes from the buffers.
    spec.cost = CostModel{"0", "0", Precision::fp32};
    read_arguments(r, kernel, spec);
    read_reference(defaults, conditions, kernel, spec);
    read_device_settings(spec);
    check_loaded_spec(spec);
    return spec;
}

} // namespace autotune
