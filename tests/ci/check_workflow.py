#!/usr/bin/env python3
"""Checks the GitHub workflows without a GPU and without GitHub. Usage: check_workflow.py REPO AUTOTUNE

nightly-tune.yml: its structure (every built-in kernel tuned, one fan-in job after the
tuning matrix opens the one pull request), then its steps, run here as GitHub would run them
(bash -eo pipefail) for one matrix architecture (sm_90 where it is one): autotune tunes in --compile-only mode
(a wrapper adds the flag), the artifacts travel from the tuning job to the fan-in job as
upload-artifact and download-artifact would carry them, `git push` and `gh` are stand-ins
that record what they were asked. A regression is played by making `compare` exit 1: the
summary must be written all the same, and the step must fail.

ci.yml: runs .ci/run on pushes and pull requests, on a hosted runner, and a newer push
cancels the run it supersedes."""
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

repo, autotune = sys.argv[1], os.path.abspath(sys.argv[2])
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
    return bool(condition)


def load(name):
    return yaml.safe_load(open(os.path.join(repo, ".github/workflows", name)))


def triggers_of(workflow):
    return workflow.get("on", workflow.get(True)) or {}  # YAML reads the key "on" as true


def script(step):
    return step.get("run", "")


def job_text(job):
    return "\n".join(script(step) for step in job.get("steps", []))


def needs_of(job):
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


kernels = [k["name"] for k in json.loads(subprocess.run([autotune, "list", "--json"], capture_output=True,
                                                         text=True, check=True).stdout)]
expect(kernels, "autotune list names the built-in kernels")

# ---------------------------------------------------------------- nightly-tune.yml: structure
nightly = load("nightly-tune.yml")
triggers = triggers_of(nightly)
expect("schedule" in triggers and triggers["schedule"][0].get("cron"), "nightly: a nightly schedule")
expect(nightly.get("defaults", {}).get("run", {}).get("shell") == "bash",
       "nightly: steps run in bash -eo pipefail (defaults.run.shell: bash), as this check runs them")
jobs = nightly["jobs"]
tuning = [name for name, job in jobs.items() if "matrix" in job.get("strategy", {})]
expect(len(tuning) == 1, f"nightly: one tuning matrix job, found {tuning}")
tune_name = tuning[0]
tune = jobs[tune_name]
matrix = tune["strategy"]["matrix"]["include"]
expect(len(matrix) >= 1, "nightly: a matrix of architectures")
for entry in matrix:
    arch = entry["arch"]
    expect(re.fullmatch(r"sm_\d+[a-z]?", arch), f"nightly: matrix arch {arch} is sm_XX")
    expect("self-hosted" in entry["runner"], f"nightly: {arch} runs on a self-hosted GPU runner")
    # The committed header is made of every arch in results/ (tests/header/committed_header_test.cpp).
    expect(os.path.isdir(os.path.join(repo, "results", arch)), f"nightly: results/{arch}/ is committed")
tune_text = job_text(tune)
for needed in ("scripts/gpu-check", "autotune list", "autotune compare", "autotune report"):
    expect(needed.split()[-1] in tune_text, f"nightly: the tuning job runs {needed}")
expect(os.access(os.path.join(repo, "scripts/gpu-check"), os.X_OK), "scripts/gpu-check exists")
# The kernels come from autotune list, never from a list written here that drifts.
for name, job in jobs.items():
    for kernel in kernels:
        expect(not re.search(rf"(?<![\w-]){re.escape(kernel)}(?![\w-])", job_text(job)),
               f"nightly: job {name} names the kernel {kernel}: the kernels come from `autotune list`")

openers = [name for name, job in jobs.items() if "gh pr create" in job_text(job)]
expect(len(openers) == 1, f"nightly: exactly one job opens the pull request, found {openers}")
pr_name = openers[0] if openers else None
pr_job = jobs.get(pr_name, {})
expect(pr_name != tune_name, "nightly: the pull request is opened after the matrix, not by each matrix job")
expect(tune_name in needs_of(pr_job), f"nightly: the pull-request job needs: {tune_name}")
for name, job in jobs.items():
    if name != pr_name:
        expect(not re.search(r"\bgit push\b|\bgh pr\b", job_text(job)), f"nightly: job {name} publishes nothing")
expect("autotune header" in job_text(pr_job), "nightly: the pull-request job regenerates the header")
expect("gh pr list" in job_text(pr_job), "nightly: the pull-request job looks for the open pull request first")

compare_steps = [s for s in tune["steps"] if "autotune compare" in script(s)]
expect(len(compare_steps) == 1, "nightly: one step compares with the committed results")
compare_step = compare_steps[0] if compare_steps else {}
expect("GITHUB_STEP_SUMMARY" in script(compare_step), "nightly: the compare step writes the job summary")

# ---------------------------------------------------------------- ci.yml
ci = load("ci.yml")
ci_triggers = triggers_of(ci)
expect("push" in ci_triggers and "pull_request" in ci_triggers, "ci: runs on push and pull_request")
concurrency = ci.get("concurrency") or {}
expect(isinstance(concurrency, dict) and "github.ref" in str(concurrency.get("group", ""))
       and concurrency.get("cancel-in-progress") is True,
       "ci: concurrency per ref with cancel-in-progress: true (a newer push cancels the superseded run)")
ci_runners = [job for job in ci["jobs"].values() if re.search(r"(^|[\s/])(bash\s+)?\.ci/run\b", job_text(job))]
expect(len(ci_runners) == 1, "ci: a job runs .ci/run")
for job in ci_runners:
    runs_on = job.get("runs-on")
    expect(isinstance(runs_on, str) and runs_on.startswith("ubuntu-"), f"ci: .ci/run runs on a hosted runner, not {runs_on}")
    expect(any(s.get("uses", "").startswith("actions/checkout") for s in job["steps"]), "ci: checks out the code")
    # scripts/setup installs Debian's packages but not the CUDA toolkit, which a hosted runner lacks.
    runs_at = next(i for i, s in enumerate(job["steps"]) if ".ci/run" in script(s))
    expect(any("cuda-toolkit" in script(s) + s.get("uses", "") for s in job["steps"][:runs_at]),
           "ci: the CUDA toolkit is installed before .ci/run")

# ---------------------------------------------------------------- nightly-tune.yml: run it
# The main job's architecture where the matrix has it: CI runs the main job first, so the
# compile cache then serves that arch's GEMM; otherwise the first.
arch = next((entry["arch"] for entry in matrix if entry["arch"] == "sm_90"), matrix[0]["arch"])


def expand(text, context):
    """${{ matrix.arch }} is the architecture; every other expression a placeholder."""
    text = re.sub(r"\$\{\{\s*matrix\.arch\s*\}\}", arch, str(text))
    return re.sub(r"\$\{\{[^}]*\}\}", context, text)


def write(path, text, mode=0o755):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def stand_ins(scratch):
    """build/autotune (tunes compile-only), and git (push recorded) and gh (recorded) on PATH."""
    os.makedirs(os.path.join(scratch, "build"), exist_ok=True)
    write(os.path.join(scratch, "build/autotune"), f"""#!/usr/bin/env bash
case "$1" in
  list|compare|report|header|merge) ;;
  *) set -- "$@" --compile-only ;;  # a tuning run: no GPU here
esac
'{autotune}' "$@"; status=$?
[ "$1" = compare ] && [ -n "${{FAKE_COMPARE_EXIT:-}}" ] && exit "$FAKE_COMPARE_EXIT"
exit $status
""")
    bin_dir = os.path.join(scratch, ".bin")
    os.makedirs(bin_dir, exist_ok=True)
    write(os.path.join(bin_dir, "git"), f"""#!/usr/bin/env bash
if [ "$1" = push ]; then echo "git $*" >> "$CALLS"; exit 0; fi
exec '{shutil.which("git")}' "$@"
""")
    write(os.path.join(bin_dir, "gh"), """#!/usr/bin/env bash
echo "gh $*" >> "$CALLS"
if [ "$1 $2" = "pr list" ]; then echo "${FAKE_OPEN_PR:-}"; fi
exit 0
""")
    return bin_dir


def run_step(job, step, cwd, **extra):
    summary = os.path.join(cwd, "summary.md")
    env = dict(os.environ, PATH=stand_ins(cwd) + os.pathsep + os.environ["PATH"], GITHUB_STEP_SUMMARY=summary,
               CALLS=os.path.join(cwd, "calls.log"), HOME=os.environ.get("HOME", cwd))
    for scope in (nightly.get("env", {}), job.get("env", {}), step.get("env", {})):
        env.update({k: expand(v, "x") for k, v in scope.items()})
    env.update(extra)
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(script(step), "x")],
                          cwd=cwd, env=env, capture_output=True, text=True)


def builds(step):
    # The GPU check needs a GPU (its no-GPU path has tests of its own); the build is done.
    return re.search(r"scripts/(gpu-check|setup)\b", script(step))


def run_steps(job, steps, cwd, **extra):
    for step in steps:
        if not script(step) or builds(step):
            continue
        result = run_step(job, step, cwd, **extra)
        if not expect(result.returncode == 0, f"nightly: step '{step.get('name')}' runs: "
                                              f"{(result.stderr or result.stdout).strip()[-600:]}"):
            return False
    return True


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def calls(cwd):
    return read(os.path.join(cwd, "calls.log")).splitlines()


def carry_artifacts(tuned, fan_in):
    """What the fan-in job's download-artifact steps get of the tuning job's uploads."""
    uploads = [s for s in tune["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    downloads = [s for s in pr_job.get("steps", []) if s.get("uses", "").startswith("actions/download-artifact")]
    expect(downloads, "nightly: the pull-request job downloads the tuning job's results")
    for download in downloads:
        wanted = download.get("with", {})
        carried = [u for u in uploads if fnmatch.fnmatchcase(expand(u["with"]["name"], "x"),
                                                             wanted.get("pattern", wanted.get("name", "*")))]
        expect(carried, f"nightly: an upload matches the download {wanted}")
        for upload in carried:
            # Only a tuning job without a regression proposes its results.
            expect(upload.get("if", "success()").strip("${} ") == "success()",
                   f"nightly: '{upload.get('name')}' uploads results to propose only when its job passed")
            name = expand(upload["with"]["name"], "x")
            pattern = expand(upload["with"]["path"], "x").strip()
            parts = pattern.rstrip("/").split("/")
            wild = next((i for i, p in enumerate(parts) if re.search(r"[*?\[]", p)), len(parts))
            root = os.path.join(tuned, *parts[:wild])
            files = [f for f in glob.glob(os.path.join(tuned, pattern), recursive=True) if os.path.isfile(f)]
            if wild == len(parts) and os.path.isdir(root):
                files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
            expect(files, f"nightly: the artifact {name} holds files")
            into = os.path.join(fan_in, wanted.get("path", "."))
            if not wanted.get("merge-multiple"):
                into = os.path.join(into, name)
            for f in files:
                target = os.path.join(into, os.path.relpath(f, root))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy(f, target)


def committed_checkout(where):
    """A git checkout holding the committed results, as actions/checkout leaves it."""
    shutil.copytree(os.path.join(repo, "results"), os.path.join(where, "results"))
    git = ["git", "-C", where, "-c", "user.name=check", "-c", "user.email=check@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", where], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "committed results"], check=True)


with tempfile.TemporaryDirectory() as scratch:
    tuned = os.path.join(scratch, "tune")
    os.makedirs(tuned)
    shutil.copytree(os.path.join(repo, "results"), os.path.join(tuned, "results"))
    if run_steps(tune, tune["steps"], tuned):
        for kernel in kernels:
            expect(os.path.exists(os.path.join(tuned, f"out/results/{arch}/{kernel}.json")),
                   f"nightly: the tuning job tunes {kernel} (out/results/{arch}/{kernel}.json)")
        for produced in ("out/compare.md", "out/report/report.md"):
            expect(os.path.exists(os.path.join(tuned, produced)), f"nightly: the tuning job writes {produced}")
        expect(read(os.path.join(tuned, "out/compare.md")).strip() in read(os.path.join(tuned, "summary.md")),
               "nightly: the comparison is in the job summary")

    # A regression: compare exits 1. The summary still gets the comparison; the step fails.
    regressed = os.path.join(scratch, "regressed")
    shutil.copytree(tuned, regressed, symlinks=True)
    if os.path.exists(os.path.join(regressed, "summary.md")):
        os.remove(os.path.join(regressed, "summary.md"))
    result = run_step(tune, compare_step, regressed, FAKE_COMPARE_EXIT="1")
    expect(result.returncode != 0, "nightly: the compare step fails on a regression")
    compare_md = read(os.path.join(regressed, "out/compare.md")).strip()
    expect(compare_md and compare_md in read(os.path.join(regressed, "summary.md")),
           "nightly: on a regression the compare step writes the summary before it fails")

    # The fan-in job, with a kernel whose results were never committed for this arch: they
    # are proposed and the header names them.
    fan_in = os.path.join(scratch, "fan-in")
    committed_checkout(fan_in)
    new_kernel = f"results/{arch}/{kernels[-1]}.json"
    subprocess.run(["git", "-C", fan_in, "rm", "-q", new_kernel], check=True)
    subprocess.run(["git", "-C", fan_in, "-c", "user.name=check", "-c", "user.email=check@example.invalid",
                    "commit", "-q", "-m", f"no {new_kernel}"], check=True)
    unchanged = os.path.join(scratch, "unchanged")
    committed_checkout(unchanged)
    carry_artifacts(tuned, fan_in)
    pr_steps = pr_job.get("steps", [])
    opens = [i for i, s in enumerate(pr_steps) if "gh pr create" in script(s)]
    if opens and run_steps(pr_job, pr_steps[:opens[0]], fan_in):
        header = read(os.path.join(fan_in, "results/autotune_tuned.hpp"))
        every = sorted(os.path.relpath(f, fan_in) for f in glob.glob(os.path.join(fan_in, "results/sm_*/*.json")))
        expect(new_kernel in every, f"nightly: the fan-in job collects {new_kernel} from the artifact")
        expect(f"//   autotune header {' '.join(every)} -o <this file>" in header,
               "nightly: the header is regenerated from every kernel's results of every architecture")
        # Tonight's results, no pull request open yet: a push and a new pull request.
        with_open_pr = os.path.join(scratch, "with-open-pr")
        shutil.copytree(fan_in, with_open_pr, symlinks=True)
        run_steps(pr_job, pr_steps[opens[0]:], fan_in)
        pushes = [c for c in calls(fan_in) if c.startswith("git push")]
        created = [c for c in calls(fan_in) if c.startswith("gh pr create")]
        expect(len(pushes) == 1 and re.search(r"\s(--force|-f)\b|\s\+", pushes[0]),
               f"nightly: the branch is force-pushed, so a rerun replaces it: {pushes}")
        expect(len(created) == 1, f"nightly: one pull request is opened when none is open: {created}")
        committed = subprocess.run(["git", "-C", fan_in, "show", "--name-only", "--format=", "HEAD"],
                                   capture_output=True, text=True).stdout.split()
        expect(new_kernel in committed, f"nightly: the commit proposed holds {new_kernel}: {committed}")
        # A rerun, or the next night, with the pull request open: the same branch, no new PR.
        run_steps(pr_job, pr_steps[opens[0]:], with_open_pr, FAKE_OPEN_PR="42")
        again = [c for c in calls(with_open_pr) if c.startswith("git push")]
        expect(again == pushes, f"nightly: a rerun pushes the same branch: {pushes} then {again}")
        expect(not [c for c in calls(with_open_pr) if c.startswith("gh pr create")],
               "nightly: no second pull request while one is open")
    # Results equal to the committed ones: nothing is pushed, the stale pull request closes.
    run_steps(pr_job, pr_steps[opens[0]:] if opens else [], unchanged, FAKE_OPEN_PR="42")
    expect(not [c for c in calls(unchanged) if c.startswith(("git push", "gh pr create"))],
           f"nightly: unchanged results push nothing: {calls(unchanged)}")
    expect([c for c in calls(unchanged) if c.startswith("gh pr close 42")],
           f"nightly: unchanged results close the pull request they supersede: {calls(unchanged)}")

for failure in failures:
    print("workflow check failed:", failure)
sys.exit(1 if failures else 0)
