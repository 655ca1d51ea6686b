#!/usr/bin/env python3
"""Checks .github/workflows/nightly-tune.yml without a GPU: its structure, and every
autotune command it runs, executed here in --compile-only mode for the first matrix
architecture (GPU steps, git and gh are left out). Usage: check_workflow.py REPO AUTOTUNE"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

repo, autotune = sys.argv[1], sys.argv[2]
workflow = yaml.safe_load(open(os.path.join(repo, ".github/workflows/nightly-tune.yml")))
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


# YAML reads the key "on" as true.
triggers = workflow.get("on", workflow.get(True))
expect(triggers and "schedule" in triggers and triggers["schedule"][0].get("cron"), "a nightly schedule")
job = workflow["jobs"]["tune"]
matrix = job["strategy"]["matrix"]["include"]
expect(len(matrix) >= 1, "a matrix of architectures")
for entry in matrix:
    expect(re.fullmatch(r"sm_\d+", entry["arch"]), f"matrix arch {entry['arch']} is sm_XX")
    expect("self-hosted" in entry["runner"], f"{entry['arch']} runs on a self-hosted GPU runner")
steps = job["steps"]
runs = "\n".join(step.get("run", "") for step in steps)
for needed in ("scripts/gpu-check", "autotune compare", "autotune report", "autotune header", "gh pr create"):
    expect(needed.split()[-1] in runs, f"a step runs {needed}")
expect(any(step.get("uses", "").startswith("actions/upload-artifact") for step in steps), "results are uploaded")
expect(os.access(os.path.join(repo, "scripts/gpu-check"), os.X_OK), "scripts/gpu-check exists")

# Run the autotune commands of every step, compile-only, in a scratch directory that sees
# the committed results but cannot change them.
arch = matrix[0]["arch"]
with tempfile.TemporaryDirectory() as scratch:
    os.symlink(os.path.join(repo, "results"), os.path.join(scratch, "results"))
    for step in steps:
        script = step.get("run")
        if not script or "scripts/gpu-check" in script:
            continue  # the GPU check needs a GPU; its no-GPU path has tests of its own
        script = script.replace("${{ matrix.arch }}", arch)
        script = re.sub(r"\$\{\{[^}]*\}\}", "x", script)
        lines = []
        for line in script.replace("\\\n", " ").splitlines():
            if re.search(r"\b(git|gh|cp)\b|GITHUB_STEP_SUMMARY|branch=", line):
                continue  # publishing, not tuning
            line = line.replace("build/autotune", shlex.quote(autotune))
            if re.search(r"autotune\S*\s+\"?\$kernel\"?|autotune\S*\s+(copy|gemm)\b", line):
                line += " --compile-only"
            line = line.replace("-o results/autotune_tuned.hpp", "-o out/autotune_tuned.hpp")
            lines.append(line)
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", "\n".join(lines)], cwd=scratch,
                                capture_output=True, text=True)
        expect(result.returncode == 0, f"step '{step.get('name')}' runs: {result.stderr.strip()[-400:]}")
    for produced in (f"out/results/{arch}/copy.json", f"out/results/{arch}/gemm.json", "out/compare.md",
                     "out/report/report.md", "out/autotune_tuned.hpp"):
        expect(os.path.exists(os.path.join(scratch, produced)), f"the workflow produces {produced}")

for failure in failures:
    print("workflow check failed:", failure)
sys.exit(1 if failures else 0)
