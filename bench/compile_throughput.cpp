// Compile throughput: what one variant costs to compile, four ways, on the same variants
// with the same options, cold (no cache):
//   pool        NVRTC in compile workers (autotune compile-worker), as the tuner compiles;
//   in-process  NVRTC in this process, as the tuner compiled before the pool (no limits);
//   nvcc        one nvcc process per variant (--compiler nvcc);
//   batched     NVRTC in this process, all the sample's instantiations in one program (one
//               front end for several variants): what batching in the pool could save.
// And where NVRTC's time goes (its -fdevice-time-trace, in this process): the C++ front
// end, NVVM and ptxas, per variant. NVVM and ptxas are the part no compiler that keeps the
// machine code can skip (nvcc runs the same two), so nvcc's CPU time over theirs is the most
// any way of compiling these variants one by one could save against nvcc ("bound").
// A sample is up to 8 variants spread over each kernel's default space, each its own
// compile. The arms run interleaved, round after round, so that a loaded machine's noise
// falls on all of them alike; each reports the median over rounds of wall and CPU time
// (this process and its children) per variant, and the ratios are of medians measured in
// the same run. A plain program: the figure of merit is a ratio, not a timing series.
//   build/bench/compile_throughput [--kernels gemm,triad,reduce,transpose] [--rounds 3]
//       [--jobs 1] [--arch sm_90] [--autotune build/autotune]
#include "autotune_bench_config.hpp"
#include "comma_list.hpp"
#include "compile/compile_variants.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "space/enumerate_space.hpp"
#include "spec/load_spec.hpp"
#include "util/scratch_dir.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <nvrtc.h>
#include <sstream>
#include <sys/resource.h>

using namespace autotune;

namespace {

constexpr std::size_t sample_size = 8;

struct Sample {
    KernelSpec spec;
    Problem problem;
    std::vector<Variant> variants;
};

// Up to sample_size variants evenly spread over the default space, no two sharing a
// compile request (parameters that only shape the launch share one compile).
Sample sample_of(const std::string& kernel, const ArchTarget& arch)
{
    Sample s{load_spec(std::filesystem::path(AUTOTUNE_SOURCE_DIR) / "kernels" / (kernel + ".toml")), {}, {}};
    s.problem = resolve_problem(s.spec, {});
    const Space space = enumerate_space(s.spec, s.problem, SpaceSelection::default_space);
    std::vector<Variant> distinct;
    std::vector<CompileRequest> requests;
    for (const auto& v : space.variants) {
        CompileRequest r = make_compile_request(s.spec, s.problem, v, arch);
        if (std::find(requests.begin(), requests.end(), r) == requests.end()) {
            requests.push_back(std::move(r));
            distinct.push_back(v);
        }
    }
    const std::size_t n = std::min(sample_size, distinct.size());
    for (std::size_t i = 0; i < n; ++i)
        s.variants.push_back(distinct[i * distinct.size() / n]);
    return s;
}

double cpu_seconds()
{
    double total = 0;
    for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage usage{};
        getrusage(who, &usage);
        total += static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    }
    return total;
}

struct Cost {
    double wall = 0, cpu = 0; // seconds per variant
};

template <typename Compile>
Cost measure(std::size_t variants, Compile&& compile)
{
    const double cpu_start = cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    compile();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {wall / static_cast<double>(variants), (cpu_seconds() - cpu_start) / static_cast<double>(variants)};
}

void require_compiled(const std::vector<CompiledVariant>& compiled, const std::string& arm)
{
    for (const auto& c : compiled)
        if (c.status != CompileStatus::ok)
            throw std::runtime_error(fmt::format("{}: variant {} did not compile: {}", arm, c.variant, c.error));
}

// Every request's instantiation in one NVRTC program: the requests of a sample share the
// source and options whenever the kernel takes its parameters as template arguments.
// `extra` is appended to the first request's options; `arm` names the caller in errors.
void compile_in_one_program(const std::vector<CompileRequest>& requests, const std::vector<std::string>& extra,
                            const std::string& arm)
{
    nvrtcProgram program = nullptr;
    nvrtcCreateProgram(&program, requests.front().source.c_str(), "autotune_variant.cu", 0, nullptr, nullptr);
    for (const auto& r : requests)
        nvrtcAddNameExpression(program, r.name_expression.c_str());
    auto options = nvrtc_options(requests.front());
    options.insert(options.end(), extra.begin(), extra.end());
    std::vector<const char*> pointers;
    for (const auto& o : options)
        pointers.push_back(o.c_str());
    const auto rc = nvrtcCompileProgram(program, static_cast<int>(pointers.size()), pointers.data());
    nvrtcDestroyProgram(&program);
    if (rc != NVRTC_SUCCESS)
        throw std::runtime_error(fmt::format("{}: {}", arm, nvrtcGetErrorString(rc)));
}

struct Phases {
    double front_end = 0, nvvm = 0, ptxas = 0; // seconds, summed over the variants
};

// NVRTC's own account of one compile (a Chrome trace; NVRTC appends ".json" to the name and
// refuses a name that exists, so each compile gets its own).
Phases compile_phases(const CompileRequest& request, const std::filesystem::path& trace)
{
    compile_in_one_program({request}, {"-fdevice-time-trace=" + trace.string()}, "phases");
    const std::filesystem::path file = trace.string() + ".json";
    std::ifstream in(file);
    const auto events = nlohmann::json::parse(in).at("traceEvents");
    Phases p;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X")
            continue;
        const double seconds = 1e-6 * e.value("dur", 0.0);
        const std::string name = e.value("name", "");
        if (name == "CUDA C++ Front-End") p.front_end += seconds;
        else if (name == "LibNVVM") p.nvvm += seconds;
        else if (name == "Total PTXAS Time") p.ptxas += seconds;
    }
    if (p.nvvm == 0 || p.ptxas == 0)
        throw std::runtime_error(fmt::format("phases: {} names no LibNVVM or PTXAS time", file.string()));
    return p;
}

// The sample's requests, when one program can hold them all (same source and options).
std::vector<CompileRequest> batchable_requests(const Sample& s, const ArchTarget& arch)
{
    std::vector<CompileRequest> requests;
    for (const auto& v : s.variants)
        requests.push_back(make_compile_request(s.spec, s.problem, v, arch));
    for (const auto& r : requests)
        if (r.source != requests.front().source || nvrtc_options(r) != nvrtc_options(requests.front()))
            return {};
    return requests;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> kernels{"gemm", "triad", "reduce", "transpose"};
    std::size_t rounds = 3;
    unsigned jobs = 1;
    std::string arch_name = "sm_90";
    std::filesystem::path autotune = AUTOTUNE_PROGRAM;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i], value = argv[i + 1];
        if (option == "--kernels") kernels = bench::comma_list(value);
        else if (option == "--rounds") rounds = std::stoul(value);
        else if (option == "--jobs") jobs = static_cast<unsigned>(std::stoul(value));
        else if (option == "--arch") arch_name = value;
        else if (option == "--autotune") autotune = value;
        else {
            std::cerr << "compile_throughput: unknown option " << option << "\n";
            return 2;
        }
    }
    const ArchTarget arch = parse_arch(arch_name);
    CompileSettings in_process;
    in_process.jobs = jobs;
    CompileSettings pool = in_process;
    pool.limits.worker_argv = {autotune.string(), "compile-worker"};
    CompileSettings nvcc = in_process;
    nvcc.compiler = CompilerKind::nvcc;
    nvcc.nvcc = default_nvcc();

    std::cout << fmt::format("compile cost per variant, {}, {} job{}, cold, median of {} rounds (wall ms / CPU ms)\n",
                             arch.name(), jobs, jobs == 1 ? "" : "s", rounds);
    std::cout << fmt::format("{:<10} {:>3}  {:>15}  {:>15}  {:>15}  {:>15}  {:>17}  {:>17}  {:>20}  {:>6}\n", "kernel",
                             "n", "pool", "in-process", "nvcc", "batched", "nvcc/pool wall,cpu", "pool/in-proc",
                             "front end,NVVM,ptxas", "bound");
    const ScratchDir traces("autotune-phases");
    std::size_t trace_count = 0;
    for (const auto& kernel : kernels) {
        const Sample s = sample_of(kernel, arch);
        const std::vector<CompileRequest> batch = batchable_requests(s, arch);
        const std::size_t n = s.variants.size();
        std::map<std::string, std::vector<Cost>> costs;
        std::vector<Phases> phases; // a round's sum over the variants
        for (std::size_t r = 0; r < rounds; ++r) {
            Phases round;
            for (const auto& v : s.variants) {
                const Phases p = compile_phases(make_compile_request(s.spec, s.problem, v, arch),
                                                traces.path() / fmt::format("trace{}", trace_count++));
                round.front_end += p.front_end;
                round.nvvm += p.nvvm;
                round.ptxas += p.ptxas;
            }
            phases.push_back(round);
            costs["pool"].push_back(measure(n, [&] {
                require_compiled(compile_variants(s.spec, s.problem, s.variants, arch, pool), "pool");
            }));
            costs["in-process"].push_back(measure(n, [&] {
                require_compiled(compile_variants(s.spec, s.problem, s.variants, arch, in_process), "in-process");
            }));
            costs["nvcc"].push_back(measure(n, [&] {
                require_compiled(compile_variants(s.spec, s.problem, s.variants, arch, nvcc), "nvcc");
            }));
            if (!batch.empty())
                costs["batched"].push_back(measure(n, [&] { compile_in_one_program(batch, {}, "batched"); }));
        }
        std::map<std::string, Cost> m;
        for (const auto& [arm, list] : costs) {
            std::vector<double> wall, cpu;
            for (const auto& c : list) {
                wall.push_back(c.wall);
                cpu.push_back(c.cpu);
            }
            m[arm] = {median(wall), median(cpu)};
        }
        std::vector<double> front_end, nvvm, ptxas, kernel_own;
        for (const auto& p : phases) {
            front_end.push_back(p.front_end / static_cast<double>(n));
            nvvm.push_back(p.nvvm / static_cast<double>(n));
            ptxas.push_back(p.ptxas / static_cast<double>(n));
            kernel_own.push_back((p.nvvm + p.ptxas) / static_cast<double>(n));
        }
        const auto cell = [&](const std::string& arm) {
            return m.count(arm) ? fmt::format("{:.0f} / {:.0f}", 1e3 * m[arm].wall, 1e3 * m[arm].cpu) : std::string("-");
        };
        std::cout << fmt::format("{:<10} {:>3}  {:>15}  {:>15}  {:>15}  {:>15}  {:>17}  {:>17}  {:>20}  {:>6}\n", kernel,
                                 n, cell("pool"), cell("in-process"), cell("nvcc"), cell("batched"),
                                 fmt::format("{:.2f}x, {:.2f}x", m["nvcc"].wall / m["pool"].wall,
                                             m["nvcc"].cpu / m["pool"].cpu),
                                 fmt::format("{:.2f}x, {:.2f}x", m["pool"].wall / m["in-process"].wall,
                                             m["pool"].cpu / m["in-process"].cpu),
                                 fmt::format("{:.0f}, {:.0f}, {:.0f}", 1e3 * median(front_end), 1e3 * median(nvvm),
                                             1e3 * median(ptxas)),
                                 fmt::format("{:.2f}x", m["nvcc"].cpu / median(kernel_own)));
    }
    std::cout << "batched: the sample's instantiations in one NVRTC program (not what the tuner does; '-' where\n"
                 "the variants differ in source or options and cannot share one).\n"
                 "front end, NVVM, ptxas: wall ms per variant inside NVRTC (its -fdevice-time-trace). bound: nvcc's CPU\n"
                 "time over NVVM's and ptxas' alone (each runs on one thread), the most any compile that keeps the machine code could save.\n";
    return 0;
}
