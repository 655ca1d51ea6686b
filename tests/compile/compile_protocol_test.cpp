// The compile worker's protocol carries bytes: a request and an output with every byte
// value (a binary template, a cubin, a log that is not UTF-8) round-trip through one JSON
// line unchanged. And a failed compile is told apart from one that ran out of memory by
// what the compiler said, wherever it said it.
#include "compile/compile_protocol.hpp"
#include "compile/compiler_run.hpp"

#include <gtest/gtest.h>
#include <string>

using namespace autotune;

namespace {

std::string every_byte()
{
    std::string bytes;
    for (int b = 0; b < 256; ++b)
        bytes += static_cast<char>(b);
    return bytes + "\n\xff\xfe";
}

TEST(CompileProtocol, ARequestOfArbitraryBytesRoundTripsThroughOneLine)
{
    CompileRequest request;
    request.source = "#include \"k.cuh\"\n" + every_byte();
    request.name_expression = "ns::k<1,2>";
    request.arch = ArchTarget{9, 0, "a"};
    request.template_path = "/tmp/d\xe9j\xe0/k.cuh"; // Latin-1 bytes: not UTF-8
    request.include_dirs = {"/tmp/d\xe9j\xe0", "/usr/include"};
    request.definitions = {{"BLOCK", 256}, {"NEG", -7}};
    request.maxrregcount = 64;
    request.extra_options = {"-std=c++17", every_byte()};
    request.nvcc_only_options = {"-Xcicc=--sharedmem32=0"};

    const std::string line = compile_request_to_json(request).dump();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(compile_request_from_json(nlohmann::json::parse(line)), request);
}

TEST(CompileProtocol, AnOutputOfArbitraryBytesRoundTripsThroughOneLine)
{
    CompileOutput output;
    output.ok = true;
    output.error = every_byte();
    output.log = std::string("\0ptxas info    : Used 10 registers", 34) + every_byte();
    output.ptx = every_byte();
    output.cubin = "\x7f" "ELF" + every_byte();
    output.lowered_name = "_Z1kILi1EEvPf";
    output.seconds = 0.25;

    const std::string line = compile_output_to_json(output).dump();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(compile_output_from_json(nlohmann::json::parse(line)), output);
}

TEST(CompileProtocol, AMalformedMessageIsAnErrorNotACrash)
{
    EXPECT_ANY_THROW((void)compile_output_from_json(nlohmann::json::parse(R"({"ok": true})")));
    nlohmann::json bad = compile_output_to_json(CompileOutput{});
    bad["cubin"] = "not base64!";
    EXPECT_THROW((void)compile_output_from_json(bad), std::invalid_argument);
}

CompileOutput failed(std::string log)
{
    CompileOutput output;
    output.error = "NVRTC: NVRTC_ERROR_COMPILATION";
    output.log = std::move(log);
    return output;
}

TEST(CompilerRun, AFailedCompileThatSaysMemoryRanOutIsOutOfMemory)
{
    // The front end says it in the log; ptxas inside NVRTC only on stderr.
    const CompilerRun front_end = classify_finished(failed("k.cuh(14): catastrophic error: out of memory\n"));
    EXPECT_EQ(front_end.ending, CompileEnding::out_of_memory);

    const CompilerRun ptxas = classify_finished(failed("ptxas fatal   : Ptx assembly aborted due to errors\n"),
                                                "ptxas fatal   : Memory allocation failure\n");
    EXPECT_EQ(ptxas.ending, CompileEnding::out_of_memory);
    EXPECT_EQ(ptxas.output.error, "NVRTC: NVRTC_ERROR_COMPILATION (ptxas fatal   : Memory allocation failure)");

    const CompilerRun worker = classify_finished(failed(""), "terminate called after throwing an instance of 'std::bad_alloc'");
    EXPECT_EQ(worker.ending, CompileEnding::out_of_memory);
}

TEST(CompilerRun, OtherFailuresAndSuccessesAreFinished)
{
    EXPECT_EQ(classify_finished(failed("k.cuh(3): error: identifier \"x\" is undefined\n")).ending, CompileEnding::finished);
    // A compile that succeeded is finished, whatever else was printed.
    CompileOutput ok;
    ok.ok = true;
    EXPECT_EQ(classify_finished(ok, "std::bad_alloc").ending, CompileEnding::finished);
}

} // namespace
