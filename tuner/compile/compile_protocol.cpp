#include "compile/compile_protocol.hpp"

#include "util/base64.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace autotune {

using nlohmann::json;

namespace {

std::string bytes_at(const json& object, const char* key) { return base64_decode(object.at(key).get<std::string>()); }

json encoded(const std::vector<std::string>& list)
{
    json array = json::array();
    for (const auto& item : list)
        array.push_back(base64_encode(item));
    return array;
}

std::vector<std::string> decoded(const json& array)
{
    std::vector<std::string> list;
    for (const auto& item : array)
        list.push_back(base64_decode(item.get<std::string>()));
    return list;
}

} // namespace

json compile_request_to_json(const CompileRequest& request)
{
    std::vector<std::string> include_dirs;
    for (const auto& dir : request.include_dirs)
        include_dirs.push_back(dir.string());
    json definitions = json::array();
    for (const auto& [name, value] : request.definitions)
        definitions.push_back({base64_encode(name), value});
    return {{"source", base64_encode(request.source)},
            {"name_expression", base64_encode(request.name_expression)},
            {"arch", {request.arch.major, request.arch.minor, base64_encode(request.arch.suffix)}},
            {"template_path", base64_encode(request.template_path.string())},
            {"include_dirs", encoded(include_dirs)},
            {"definitions", std::move(definitions)},
            {"maxrregcount", request.maxrregcount},
            {"extra_options", encoded(request.extra_options)},
            {"nvcc_only_options", encoded(request.nvcc_only_options)}};
}

CompileRequest compile_request_from_json(const json& message)
{
    CompileRequest request;
    request.source = bytes_at(message, "source");
    request.name_expression = bytes_at(message, "name_expression");
    const auto& arch = message.at("arch");
    request.arch.major = arch.at(0).get<int>();
    request.arch.minor = arch.at(1).get<int>();
    request.arch.suffix = base64_decode(arch.at(2).get<std::string>());
    request.template_path = bytes_at(message, "template_path");
    for (const auto& dir : decoded(message.at("include_dirs")))
        request.include_dirs.emplace_back(dir);
    for (const auto& definition : message.at("definitions"))
        request.definitions.emplace_back(base64_decode(definition.at(0).get<std::string>()),
                                         definition.at(1).get<std::int64_t>());
    request.maxrregcount = message.at("maxrregcount").get<std::int64_t>();
    request.extra_options = decoded(message.at("extra_options"));
    request.nvcc_only_options = decoded(message.at("nvcc_only_options"));
    return request;
}

json compile_output_to_json(const CompileOutput& output)
{
    return {{"ok", output.ok},
            {"error", base64_encode(output.error)},
            {"log", base64_encode(output.log)},
            {"ptx", base64_encode(output.ptx)},
            {"cubin", base64_encode(output.cubin)},
            {"lowered_name", base64_encode(output.lowered_name)},
            {"seconds", output.seconds}};
}

CompileOutput compile_output_from_json(const json& message)
{
    CompileOutput output;
    output.ok = message.at("ok").get<bool>();
    output.error = bytes_at(message, "error");
    output.log = bytes_at(message, "log");
    output.ptx = bytes_at(message, "ptx");
    output.cubin = bytes_at(message, "cubin");
    output.lowered_name = bytes_at(message, "lowered_name");
    output.seconds = message.at("seconds").get<double>();
    return output;
}

} // namespace autotune
