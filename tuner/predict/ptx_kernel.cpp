#include "predict/ptx_kernel.hpp"

#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

namespace autotune {
namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// Operands split at top-level commas: "{%f1, %f2}, [%rd1+8]" → "{%f1, %f2}", "[%rd1+8]".
std::vector<std::string> split_operands(std::string_view text)
{
    std::vector<std::string> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ',';
        if (c == '{' || c == '[' || c == '(')
            ++depth;
        else if (c == '}' || c == ']' || c == ')')
            --depth;
        else if (c == ',' && depth == 0) {
            if (const auto operand = trim(text.substr(start, i - start)); !operand.empty())
                out.emplace_back(operand);
            start = i + 1;
        }
    }
    return out;
}

// One statement of a body ("@%p1 bra $L__BB0_3", "ld.global.f32 %f1, [%rd2]"); false for
// directives and declarations.
bool parse_statement(std::string_view text, PtxInstruction& out)
{
    text = trim(text);
    if (text.empty() || text.front() == '.' || text.front() == '{' || text.front() == '}')
        return false;
    if (text.front() == '@') {
        const auto space = text.find_first_of(" \t");
        if (space == std::string_view::npos)
            return false;
        std::string_view guard = text.substr(1, space - 1);
        if (!guard.empty() && guard.front() == '!') {
            out.guard_negated = true;
            guard.remove_prefix(1);
        }
        out.guard = std::string(guard);
        text = trim(text.substr(space));
    }
    const auto space = text.find_first_of(" \t");
    out.opcode = std::string(text.substr(0, space));
    if (out.opcode.empty() || !std::isalpha(static_cast<unsigned char>(out.opcode.front())))
        return false;
    if (space != std::string_view::npos)
        out.operands = split_operands(text.substr(space));
    return true;
}

} // namespace

std::string_view PtxInstruction::base() const
{
    const std::string_view op = opcode;
    return op.substr(0, op.find('.'));
}

bool PtxInstruction::has_part(std::string_view part) const
{
    std::string_view op = opcode;
    while (!op.empty()) {
        const auto dot = op.find('.');
        if (op.substr(0, dot) == part)
            return true;
        if (dot == std::string_view::npos)
            break;
        op.remove_prefix(dot + 1);
    }
    return false;
}

bool PtxInstruction::writes_first_operand() const
{
    const std::string_view b = base();
    return !(b == "st" || b == "bra" || b == "bar" || b == "barrier" || b == "red" || b == "ret" || b == "exit" ||
             b == "cp" || b == "prefetch" || b == "membar" || b == "fence");
}

std::optional<std::int64_t> ptx_integer(std::string_view text)
{
    std::int64_t value = 0;
    const bool negative = !text.empty() && text.front() == '-';
    const std::string_view digits = negative ? text.substr(1) : text;
    const bool hex = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    const std::string_view number = hex ? digits.substr(2) : digits;
    if (number.empty())
        return std::nullopt;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value, hex ? 16 : 10);
    if (ec != std::errc() || end != number.data() + number.size())
        return std::nullopt;
    return negative ? -value : value;
}

std::optional<std::size_t> ptx_parameter_index(std::string_view operand)
{
    const auto at = operand.rfind("_param_");
    if (operand.size() < 2 || operand.front() != '[' || operand.back() != ']' || at == std::string_view::npos)
        return std::nullopt;
    std::size_t index = 0;
    const char* begin = operand.data() + at + 7;
    const char* end = operand.data() + operand.size() - 1; // before ']'
    const auto [stop, ec] = std::from_chars(begin, end, index);
    if (ec != std::errc() || stop != end)
        return std::nullopt;
    return index;
}

std::vector<PtxKernel> parse_ptx_kernels(std::string_view ptx)
{
    std::vector<PtxKernel> kernels;
    std::istringstream lines{std::string(ptx)};
    PtxKernel* current = nullptr;
    int depth = 0;
    bool in_body = false;
    std::string statement; // statements end with ';' and may span lines
    int target = 0;
    for (std::string line; std::getline(lines, line);) {
        if (const auto comment = line.find("//"); comment != std::string::npos)
            line.erase(comment);
        std::string_view text = trim(line);
        if (current == nullptr) {
            if (text.starts_with(".target sm_")) // ".target sm_75", ".target sm_90a"
                std::from_chars(text.data() + 11, text.data() + text.size(), target);
            const auto entry = text.find(".entry ");
            if (entry == std::string_view::npos)
                continue;
            std::string_view name = trim(text.substr(entry + 7));
            name = name.substr(0, name.find_first_of("( \t"));
            kernels.push_back({std::string(name), {}, target});
            current = &kernels.back();
            in_body = false;
            depth = 0;
            continue;
        }
        if (!in_body) {
            if (text.find('{') != std::string_view::npos) {
                in_body = true;
                depth = 1;
            }
            continue;
        }
        for (const char c : text) {
            if (c == '{')
                ++depth;
            else if (c == '}')
                --depth;
        }
        if (depth <= 0) {
            current = nullptr;
            continue;
        }
        // A label stands alone on its line ("$L__BB0_8:").
        if (!text.empty() && text.back() == ':' && text.find(' ') == std::string_view::npos) {
            PtxInstruction label;
            label.label = std::string(text.substr(0, text.size() - 1));
            current->body.push_back(std::move(label));
            continue;
        }
        statement += ' ';
        statement += text;
        std::size_t end;
        while ((end = statement.find(';')) != std::string::npos) {
            PtxInstruction instruction;
            if (parse_statement(std::string_view(statement).substr(0, end), instruction))
                current->body.push_back(std::move(instruction));
            statement.erase(0, end + 1);
        }
    }
    return kernels;
}

PtxKernel find_ptx_kernel(std::string_view ptx, std::string_view name)
{
    std::vector<PtxKernel> kernels = parse_ptx_kernels(ptx);
    if (name.empty() && kernels.size() == 1)
        return std::move(kernels.front());
    for (auto& kernel : kernels)
        if (kernel.name == name)
            return std::move(kernel);
    std::string names;
    for (const auto& kernel : kernels)
        names += (names.empty() ? "" : ", ") + kernel.name;
    throw std::invalid_argument(fmt::format("no kernel '{}' in the PTX (entries: {})", name, names.empty() ? "none" : names));
}

} // namespace autotune
