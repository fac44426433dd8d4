#!/usr/bin/env python3
"""Which files of judge/src a `judge run P` executes code in: the files a newcomer who follows
one run from `main` to the summary reads through (issue 43's measure).

usage: python3 bench/run_path.py [PROBLEM] [--list]

Builds the judge with `-C instrument-coverage` into target/run-path/, runs `judge run PROBLEM
--no-cache` (default: boj_2615) in this repository with every process writing its profile,
and counts the files of judge/src in which at least one function ran (the judge and its run
supervisors together). --list names them with the number of functions that ran in each.

Needs llvm-profdata and llvm-cov that read rustc's profiles: rustup's llvm-tools, or Debian's
llvm-19 (`apt-get install llvm-19`) or newer.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "target" / "run-path"


def llvm_tool(name):
    """rustup's llvm-tools, the newest /usr/lib/llvm-N, or PATH's (often too old to read)."""
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True)
    found = glob.glob(f"{sysroot.stdout.strip()}/lib/rustlib/*/bin/{name}")
    found += sorted(
        glob.glob(f"/usr/lib/llvm-*/bin/{name}"),
        key=lambda path: int(path.split("llvm-")[1].split("/")[0]),
        reverse=True,
    )
    found += [shutil.which(name)] if shutil.which(name) else []
    if not found:
        sys.exit(f"run_path.py: no {name}: install rustup's llvm-tools or Debian's llvm-19")
    return found[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problem", nargs="?", default="boj_2615")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    profdata, cov = llvm_tool("llvm-profdata"), llvm_tool("llvm-cov")
    judge = TARGET / "debug" / "judge"
    with tempfile.TemporaryDirectory() as profiles:
        # Instrumented build scripts write profiles too: into the scratch folder, not the tree.
        env = dict(
            os.environ,
            RUSTFLAGS="-C instrument-coverage",
            CARGO_TARGET_DIR=str(TARGET),
            LLVM_PROFILE_FILE=f"{profiles}/build-%p.profraw",
        )
        subprocess.run(["cargo", "build", "-q", "-p", "judge"], cwd=ROOT, env=env, check=True)
        run_env = dict(os.environ, LLVM_PROFILE_FILE=f"{profiles}/%p-%m.profraw")
        run = subprocess.run(
            [judge, "run", args.problem, "--no-cache"], cwd=ROOT, env=run_env,
            stdout=subprocess.DEVNULL,
        )
        if run.returncode != 0:
            sys.exit(f"run_path.py: judge run {args.problem} exited {run.returncode}")
        merged = f"{profiles}/merged.profdata"
        raw = [path for path in glob.glob(f"{profiles}/*.profraw") if "/build-" not in path]
        subprocess.run([profdata, "merge", "-o", merged, *raw], check=True)
        report = subprocess.run(
            [cov, "export", "--format=text", "--summary-only", judge, f"-instr-profile={merged}"],
            capture_output=True, text=True, check=True,
        ).stdout
    ran = Counter()
    source = str(ROOT / "judge" / "src") + "/"
    for entry in json.loads(report)["data"][0]["files"]:
        if entry["filename"].startswith(source):
            functions = entry["summary"]["functions"]["covered"]
            if functions:
                ran[entry["filename"][len(source):]] = functions
    parts = Counter(name.split("/")[0] if "/" in name else "(top)" for name in ran)
    print(f"judge run {args.problem}: code ran in {len(ran)} files of judge/src, "
          f"in {len(parts)} parts: " + ", ".join(f"{p} {n}" for p, n in sorted(parts.items())))
    if args.list:
        for name, functions in sorted(ran.items()):
            print(f"  {name}: {functions} functions")


if __name__ == "__main__":
    main()
