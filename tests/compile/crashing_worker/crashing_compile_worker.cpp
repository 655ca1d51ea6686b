// autotune compile-worker, except that it crashes (SIGSEGV, after a line on stderr) on a
// request whose name expression contains its first argument. Later arguments (the pool's
// --memory-limit) are ignored.
#include "compile/compile_worker.hpp"

#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    const std::string crash_on = argc > 1 ? argv[1] : "";
    return autotune::serve_compile_requests(std::cin, std::cout, 0, autotune::linked_nvrtc(), [&](const autotune::CompileRequest& request) {
        if (!crash_on.empty() && request.name_expression.find(crash_on) != std::string::npos) {
            std::fputs("crashing on purpose, as the test asked\n", stderr);
            std::raise(SIGSEGV);
        }
    });
}
