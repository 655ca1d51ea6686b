#!/usr/bin/env python3
"""The fuzz targets' text seeds, from the repository's real files (run by seeds.cmake).

  make_seeds.py SOURCE_DIR SEEDS_DIR

Writes SEEDS_DIR/<target>/: toml_spec the TOML specs (kernels/, examples/, tests/data/);
t1_spec the T1 files of tests/fuzz/seeds/t1_spec; expression every string those specs hold
(constraints, launch geometry, sizes, Python Values and Conditions); results each committed
results file cut to its first variants, the file's and each problem's (a 3 MB file would make
each execution slow and each mutation blind); kt_cache the caches and T4 files of tests/fuzz/seeds/kt_cache, plain and
gzipped; ptxas_log the logs of tests/fuzz/seeds/ptxas_log; ptx the PTX of tests/fuzz/seeds/ptx
(inputs the target once failed on). (nvcc adds cubins, more ptxas logs and PTX; see seeds.cmake.)
"""
import gzip
import json
import shutil
import sys
import tomllib
from pathlib import Path

KEPT_VARIANTS = 3


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def main(source, seeds):
    committed = source / "tests" / "fuzz" / "seeds"
    specs = sorted([*(source / "kernels").glob("*.toml"), *(source / "examples").glob("*.toml"),
                    *(source / "tests" / "data").rglob("*.toml")])
    t1_files = sorted((committed / "t1_spec").glob("*.json"))

    out = fresh(seeds / "toml_spec")
    for spec in specs:
        shutil.copyfile(spec, out / f"{spec.parent.name}-{spec.name}")

    out = fresh(seeds / "t1_spec")
    for t1 in t1_files:
        shutil.copyfile(t1, out / t1.name)

    expressions = set()
    for spec in specs:
        expressions.update(strings_in(tomllib.loads(spec.read_text())))
    for t1 in t1_files:
        expressions.update(strings_in(json.loads(t1.read_text())))
    out = fresh(seeds / "expression")
    for i, text in enumerate(sorted(expressions)):
        (out / f"{i:04d}.txt").write_text(text)

    out = fresh(seeds / "results")
    for results in sorted((source / "results").rglob("*.json")):
        document = json.loads(results.read_text())
        for part in [document, *document.get("problems", [])]:
            if isinstance(part.get("variants"), list):
                part["variants"] = part["variants"][:KEPT_VARIANTS]
        (out / f"{results.parent.name}-{results.name}").write_text(json.dumps(document, indent=1))

    out = fresh(seeds / "kt_cache")
    for cache in sorted((committed / "kt_cache").glob("*.json")):
        shutil.copyfile(cache, out / cache.name)
        (out / (cache.name + ".gz")).write_bytes(gzip.compress(cache.read_bytes(), mtime=0))

    # Appended to by seeds.cmake's compiled logs, so only the committed ones are replaced.
    out = seeds / "ptxas_log"
    out.mkdir(parents=True, exist_ok=True)
    for log in sorted((committed / "ptxas_log").glob("*.log")):
        shutil.copyfile(log, out / ("committed-" + log.name))

    # The same for PTX: nvcc's output of the seed kernels beside inputs the target once failed on.
    out = seeds / "ptx"
    out.mkdir(parents=True, exist_ok=True)
    for ptx in sorted((committed / "ptx").glob("*.ptx")):
        shutil.copyfile(ptx, out / ("committed-" + ptx.name))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
