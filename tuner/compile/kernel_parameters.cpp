#include "compile/kernel_parameters.hpp"

#include "measure/element_type.hpp"

#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>

namespace autotune {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The text between the parentheses of `.entry NAME (` ... `)` for the entry named `entry`
// (the first when empty); nullopt when there is none.
std::optional<std::string_view> entry_signature(std::string_view ptx, std::string_view entry)
{
    for (std::size_t at = ptx.find(".entry"); at != std::string_view::npos; at = ptx.find(".entry", at + 6)) {
        std::size_t i = at + 6;
        while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i])))
            ++i;
        std::size_t end = i;
        while (end < ptx.size() && is_name_char(ptx[end]))
            ++end;
        if (!entry.empty() && ptx.substr(i, end - i) != entry)
            continue;
        const std::size_t open = ptx.find_first_not_of(" \t\r\n", end);
        if (open == std::string_view::npos || ptx[open] != '(')
            return std::string_view{}; // no parameters
        const std::size_t close = ptx.find(')', open);
        if (close == std::string_view::npos)
            return std::nullopt;
        return ptx.substr(open + 1, close - open - 1);
    }
    return std::nullopt;
}

// ".param .align 8 .b8 k_param_1[16]" → {16, 'b'}; ".param .u64 .ptr .align 1 k_param_0" → {8, 'u'}.
PtxParameter parse_parameter(std::string_view declaration)
{
    PtxParameter p;
    std::size_t element = 0;
    std::size_t count = 1;
    std::size_t i = 0;
    while (i < declaration.size()) {
        while (i < declaration.size() && std::isspace(static_cast<unsigned char>(declaration[i])))
            ++i;
        std::size_t end = i;
        while (end < declaration.size() && !std::isspace(static_cast<unsigned char>(declaration[end])))
            ++end;
        const std::string_view token = declaration.substr(i, end - i);
        i = end;
        if (token.size() >= 3 && token[0] == '.' && (token[1] == 'u' || token[1] == 's' || token[1] == 'b' ||
                                                     token[1] == 'f')) {
            std::size_t bits = 0;
            const auto [ptr, ec] = std::from_chars(token.data() + 2, token.data() + token.size(), bits);
            if (ec == std::errc{} && ptr == token.data() + token.size() && bits % 8 == 0) {
                element = bits / 8;
                p.kind = token[1];
            }
        } else if (const std::size_t bracket = token.find('['); bracket != std::string_view::npos && token[0] != '.') {
            std::size_t n = 0;
            const auto [ptr, ec] = std::from_chars(token.data() + bracket + 1, token.data() + token.size(), n);
            if (ec == std::errc{} && ptr < token.data() + token.size() && *ptr == ']')
                count = n;
        }
    }
    p.bytes = element * count;
    if (count > 1)
        p.kind = 'b'; // an aggregate: bytes only
    return p;
}

// What one argument passes: a buffer its device pointer, a scalar its value.
PtxParameter passed(const KernelArgument& a)
{
    if (a.kind == ArgumentKind::buffer)
        return {8, 'u'};
    const ElementType type = parse_element_type(a.element_type);
    return {element_size(type), is_floating_point(type) ? 'f' : 'u'};
}

std::string describe(const PtxParameter& p)
{
    return p.kind == 'b' && p.bytes > 8 ? fmt::format("{} bytes", p.bytes)
                                        : fmt::format("{} bytes (.{}{})", p.bytes, p.kind, p.bytes * 8);
}

} // namespace

std::vector<PtxParameter> ptx_entry_parameters(std::string_view ptx, std::string_view entry)
{
    const auto signature = entry_signature(ptx, entry);
    if (!signature)
        throw std::invalid_argument(fmt::format("the PTX has no entry {}", entry.empty() ? "at all" : entry));
    std::vector<PtxParameter> parameters;
    for (std::size_t at = signature->find(".param"); at != std::string_view::npos;
         at = signature->find(".param", at + 6)) {
        const std::size_t end = signature->find(',', at);
        parameters.push_back(parse_parameter(signature->substr(at + 6, end == std::string_view::npos ? end : end - at - 6)));
    }
    return parameters;
}

std::optional<std::string> parameter_mismatch(const KernelSpec& spec, const std::vector<PtxParameter>& parameters)
{
    std::vector<const KernelArgument*> arguments;
    for (const auto& a : spec.arguments)
        if (a.kind == ArgumentKind::scalar || a.kernel_parameter)
            arguments.push_back(&a);
    if (arguments.empty())
        return std::nullopt; // nothing described (a T1 file without Arguments): nothing to launch with
    std::string names;
    for (const KernelArgument* a : arguments)
        names += (names.empty() ? "" : ", ") + a->name;
    if (arguments.size() != parameters.size())
        return fmt::format("the kernel takes {} parameters and the spec's arguments give {} ({})", parameters.size(),
                           arguments.size(), names);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const PtxParameter given = passed(*arguments[i]);
        const PtxParameter& taken = parameters[i];
        // Untyped bits (.b32, an aggregate) take any value of their size; .f takes a
        // floating-point value only, .u and .s an integer or a pointer.
        const bool kinds_agree = taken.kind == 'b' || (taken.kind == 'f') == (given.kind == 'f');
        if (taken.bytes != given.bytes || !kinds_agree)
            return fmt::format("the kernel's parameter {} is {}, and the spec's argument {} ({}{}) gives {}", i + 1,
                               describe(taken), arguments[i]->name, arguments[i]->element_type,
                               arguments[i]->kind == ArgumentKind::buffer ? " buffer: a pointer" : "",
                               describe(given));
    }
    return std::nullopt;
}

} // namespace autotune
