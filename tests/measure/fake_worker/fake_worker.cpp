// A fake measuring worker for the WorkerSupervisor tests. It reads one JSON request per
// line on stdin and acts on its "action":
//   echo          reply with the request plus {"pid": getpid(), "count": requests so far}
//   segv, abort, kill   die by SIGSEGV, abort() (SIGABRT) or SIGKILL
//   exit          exit with "code"
//   hang          never reply
//   garbage       reply with a line that is not JSON
//   two_lines     reply twice at once (breaks the one-reply protocol)
//   close_stdout  close stdout and keep running without replying
//   close_stdin   close stdin, reply, then keep running
//   linger        reply, then ignore stdin's EOF and keep running
// Before any action it writes "kb" KiB of chatter and then "say" to stderr, so tests can
// check that a chatty worker does not block and that its last words are kept.
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

[[noreturn]] void sleep_forever()
{
    for (;;)
        pause();
}

void reply(const nlohmann::json& message) { std::cout << message.dump() << '\n' << std::flush; }

void chatter(const nlohmann::json& request)
{
    const int kb = request.value("kb", 0);
    const std::string line(63, 'x');
    for (int i = 0; i < kb * 16; ++i) // 16 lines of 64 bytes per KiB
        std::cerr << line << '\n';
    if (request.contains("say"))
        std::cerr << request["say"].get<std::string>() << '\n';
    std::cerr << std::flush;
}

} // namespace

int main()
{
    bool linger = false;
    int count = 0;
    for (std::string line; std::getline(std::cin, line);) {
        const auto request = nlohmann::json::parse(line);
        chatter(request);
        ++count;
        const std::string action = request.value("action", "echo");
        if (action == "segv")
            std::raise(SIGSEGV);
        else if (action == "abort")
            std::abort();
        else if (action == "kill")
            std::raise(SIGKILL);
        else if (action == "exit")
            std::exit(request.value("code", 0));
        else if (action == "hang")
            sleep_forever();
        else if (action == "garbage")
            std::cout << "this is not JSON\n" << std::flush;
        else if (action == "two_lines")
            std::cout << R"({"first":1})" "\n" R"({"second":2})" "\n" << std::flush; // one write
        else if (action == "close_stdout") {
            close(STDOUT_FILENO);
            sleep_forever();
        } else {
            if (action == "close_stdin")
                close(STDIN_FILENO);
            linger = linger || action == "linger";
            auto answer = request;
            answer["pid"] = getpid();
            answer["count"] = count;
            reply(answer);
            if (action == "close_stdin")
                sleep_forever();
        }
    }
    if (linger)
        sleep_forever();
    return 0;
}
