#!/usr/bin/env python3
"""`judge verify` next to problemtools' `verifyproblem` on the same Kattis packages (targets:
the judge at least 2x faster with an empty build cache and 3x with its cache, on every
package, interactive ones included).

usage: python3 bench/kattis.py [--rounds N] [--verifyproblem PATH] [--baseline BINARY] PACKAGE...

Each PACKAGE is a problem package folder, e.g. the `examples/` of Kattis/problemtools (public;
nothing of them is kept in this repository). For every package both tools check every
submission: `judge verify PACKAGE` next to `verifyproblem PACKAGE -p submissions` (its
submissions alone, less work than the judge's) and `verifyproblem PACKAGE -p config validators
graders data submissions` (the same work: every part but the statement, which the judge does
not check), each in every round; the targets are read against the same work, and the
submissions-only ratio is shown too, as the judge's worst case. verifyproblem
compiles everything on every run, so the judge is timed the same way, with an empty build cache
("judge cold"), and also as a user sees it again, with its cache ("judge warm"). Prints one
Markdown table (median wall time over the rounds, ratio to verifyproblem) and each tool's exit
status. Without --verifyproblem it is taken from PATH, else installed from PyPI into
target/bench/problemtools/. With perf installed, the empty-cache run's CPU time (every process
of it) is shown too: over the cores, it is what no scheduling can beat. --baseline times
another judge binary with an empty cache in every round, for paired comparisons of two builds.
A Polygon package (a folder with problem.xml), which verifyproblem does not read, is timed by
the judge alone, its verifyproblem columns left empty.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "bench"
JUDGE = ROOT / "target" / "release" / "judge"


def find_verifyproblem(given):
    if given:
        return given
    found = shutil.which("verifyproblem")
    if found:
        return found
    venv = WORK / "problemtools"
    tool = venv / "bin" / "verifyproblem"
    if not tool.exists():
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([venv / "bin" / "pip", "install", "-q", "problemtools"], check=True)
    return str(tool)


def timed(command, env=None):
    start = time.perf_counter()
    process = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, process.returncode


def cpu_seconds(command, env):
    """The CPU time of `command` and every process below it, from `perf stat`; None without perf."""
    if not shutil.which("perf"):
        return None
    process = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "--", *command], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("task-clock"):
            return float(fields[0]) / 1000
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--verifyproblem")
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("packages", nargs="+", type=Path)
    args = parser.parse_args()
    polygon = {package.resolve() for package in args.packages if (package / "problem.xml").is_file()}
    kattis = any(package.resolve() not in polygon for package in args.packages)
    verifyproblem = find_verifyproblem(args.verifyproblem) if kattis else None
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "judge"], cwd=ROOT, check=True)
    WORK.mkdir(parents=True, exist_ok=True)
    warm_cache = Path(tempfile.mkdtemp(prefix="kattis-warm-", dir=WORK))

    cores = os.cpu_count()
    rows = ["| package | verifyproblem, same parts | verifyproblem, submissions | judge cold | judge warm "
            "| cold vs verifyproblem | warm vs verifyproblem | cold vs submissions only "
            f"| cold CPU / {cores} cores | baseline cold | exit (vp / judge) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    checks = []
    for package in args.packages:
        package = package.resolve()
        times = {"vp": [], "vp_all": [], "cold": [], "warm": [], "baseline": [], "cpu": []}
        codes = {}
        env_warm = dict(os.environ, JUDGE_CACHE_DIR=str(warm_cache), NO_COLOR="1")
        timed([JUDGE, "verify", package], env_warm)  # fills the warm cache
        for _ in range(args.rounds):
            if package not in polygon:
                elapsed, codes["vp"] = timed([verifyproblem, package, "-p", "submissions"])
                times["vp"].append(elapsed)
                same_parts = ["config", "validators", "graders", "data", "submissions"]
                times["vp_all"].append(timed([verifyproblem, package, "-p", *same_parts])[0])
            with tempfile.TemporaryDirectory(dir=WORK) as cold_cache:
                env_cold = dict(env_warm, JUDGE_CACHE_DIR=cold_cache)
                elapsed, codes["judge"] = timed([JUDGE, "verify", package], env_cold)
            times["cold"].append(elapsed)
            elapsed, _ = timed([JUDGE, "verify", package], env_warm)
            times["warm"].append(elapsed)
            if args.baseline:
                with tempfile.TemporaryDirectory(dir=WORK) as cold_cache:
                    env_cold = dict(env_warm, JUDGE_CACHE_DIR=cold_cache)
                    times["baseline"].append(timed([args.baseline, "verify", package], env_cold)[0])
            with tempfile.TemporaryDirectory(dir=WORK) as cold_cache:
                env_cold = dict(env_warm, JUDGE_CACHE_DIR=cold_cache)
                cpu = cpu_seconds([JUDGE, "verify", package], env_cold)
            if cpu is not None:
                times["cpu"].append(cpu)
        cold, warm = (statistics.median(times[key]) for key in ("cold", "warm"))
        cpu = f"{statistics.median(times['cpu']) / cores:.2f} s" if times["cpu"] else "-"
        baseline = f"{statistics.median(times['baseline']):.2f} s" if times["baseline"] else "-"
        if package in polygon:
            rows.append(f"| {package.name} (Polygon) | - | - | {cold:.2f} s | {warm:.2f} s | - | - | - "
                        f"| {cpu} | {baseline} | - / {codes['judge']} |")
            continue
        vp, vp_all = statistics.median(times["vp"]), statistics.median(times["vp_all"])
        ratio, warm_ratio, worst = vp_all / cold, vp_all / warm, vp / cold
        rows.append(f"| {package.name} | {vp_all:.2f} s | {vp:.2f} s | {cold:.2f} s | {warm:.2f} s "
                    f"| {ratio:.1f}x | {warm_ratio:.1f}x | {worst:.1f}x | {cpu} | {baseline} "
                    f"| {codes['vp']} / {codes['judge']} |")
        for how, value, target in (("cold", ratio, 2), ("warm", warm_ratio, 3)):
            checks.append(f"- {package.name}: judge ({how}) {value:.1f}x faster than verifyproblem on the "
                          f"same parts (target {target}x): {'holds' if value >= target else 'MISSED'}")
        checks.append(f"- {package.name}: judge (cold) {worst:.1f}x faster than verifyproblem's submissions "
                      "alone (the judge's worst case)")
        if times["baseline"]:
            paired = statistics.median(c / b for c, b in zip(times["cold"], times["baseline"]))
            checks.append(f"- {package.name}: judge (cold) takes {paired:.2f}x the baseline's time (paired)")
    shutil.rmtree(warm_cache, ignore_errors=True)
    print("\n".join(rows) + "\n\n" + "\n".join(checks))


if __name__ == "__main__":
    main()
