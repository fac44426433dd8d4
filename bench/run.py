#!/usr/bin/env python3
"""The judge's cost next to the floor (a bare spawn-compare loop) and online-judge-tools.

usage: python3 bench/run.py [--rounds N] [--only WORKLOAD ...] [--no-oj] [--baseline BINARY]
                            [--update-readme]

Builds the release judge and the floor, generates the workloads under target/bench/
(deterministically; nothing is committed), warms the judge's compile cache, then times every
command of a workload in interleaved rounds and prints one Markdown table: median, min and
max wall time, the ratio to the floor at the same parallelism, and the peak memory of the
process (wait4's ru_maxrss: the judge itself, as every solution here stays small). With
--baseline BINARY another judge binary (an earlier build) runs in the same rounds, beside the
judge, so that two builds are compared in pairs. With --update-readme the table replaces the
one between the bench markers in docs/performance.md.
"""

import argparse
import datetime
import os
import platform
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "bench"
BUILT = ROOT / "target" / "release" / "judge"
# The rounds run copies of the judge and the baseline made side by side at the start: on this
# machine the same build ran one case 0.8 ms slower from a file written an hour before than
# from a fresh copy of it (9.13 against 8.35 ms, 120 paired rounds), which would have been
# counted to whichever binary was built last.
JUDGE = WORK / "bin" / "judge"
FLOOR = WORK / "floor"
CACHE = WORK / "cache"
# The baseline's own: a cache holds the last run's record, and one binary's way of writing
# it changes what the other's next write costs.
BASELINE_CACHE = WORK / "cache-baseline"
MIB = 1 << 20
# A run of a few milliseconds is timed this many times a round: its median and maximum come
# from dozens of samples, not from one per round.
SAMPLES_PER_ROUND = {"one": 15}

ECHO = r"""
#include <unistd.h>
int main(void) {
    static char buffer[1 << 16];
    ssize_t got;
    while ((got = read(0, buffer, sizeof buffer)) > 0) {
        for (ssize_t done = 0; done < got;) {
            ssize_t put = write(1, buffer + done, (size_t)(got - done));
            if (put <= 0) return 1;
            done += put;
        }
    }
    return 0;
}
"""

# Burns about 0.2 s of CPU, then echoes its input.
CPU = r"""
#include <time.h>
#include <unistd.h>
int main(void) {
    volatile unsigned long x = 1;
    while (clock() < CLOCKS_PER_SEC / 5) for (int i = 0; i < 100000; i++) x = x * 6364136223846793005UL + 1;
    static char buffer[1 << 16];
    ssize_t got;
    while ((got = read(0, buffer, sizeof buffer)) > 0) if (write(1, buffer, (size_t)got) != got) return 1;
    return 0;
}
"""

# Prints the numbers 0, 1, 2, ... one per line until 50 MiB are written.
FIFTY = r"""
#include <stdio.h>
int main(void) {
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    long written = 0;
    for (long i = 0; written < 50L * 1024 * 1024; i++) written += printf("%ld\n", i);
    return 0;
}
"""


def write_problem(name, solution_source, cases, time_limit_ms=10_000):
    """A one-problem repository under target/bench/NAME for the judge, and the floor's binary."""
    root = WORK / name
    if root.exists():
        shutil.rmtree(root)
    tests = root / "problems" / name / "tests"
    tests.mkdir(parents=True)
    (root / "problems" / name / "problem.toml").write_text(
        f'time_limit_ms = {time_limit_ms}\nmemory_limit_mib = 1024\noutput_limit_mib = 128\ncompare = "lines"\n'
    )
    (root / "solutions").mkdir()
    source = root / "solutions" / f"{name}.c"
    source.write_text(solution_source)
    for case_name, given, expected in cases:
        (tests / f"{case_name}.in").write_bytes(given)
        (tests / f"{case_name}.out").write_bytes(expected)
    binary = root / "floor-solution"
    subprocess.run(["gcc", "-O2", "-std=gnu11", "-o", binary, source, "-lm"], check=True)
    return root, binary, tests


def workloads():
    rng = random.Random(2026)
    letters = "abcdefghijklmnopqrstuvwxyz"

    def word(length):
        return ("".join(rng.choice(letters) for _ in range(length)) + "\n").encode()

    made = {}
    made["one"] = write_problem("one", ECHO, [("1", b"hello\n", b"hello\n")])
    tiny = []
    for i in range(1, 1001):
        text = word(rng.randint(4, 19))
        tiny.append((str(i), text, text))
    made["tiny"] = write_problem("tiny", ECHO, tiny)
    shards = []
    for i in range(1, 4001):
        text = word(rng.randint(4, 19))
        shards.append((str(i), text, text))
    made["shards"] = write_problem("shards", ECHO, shards)
    big = []
    for i in range(1, 101):
        line = word(63)
        text = line * (MIB // len(line)) + word(MIB % len(line) - 1)
        big.append((str(i), text, text))
    made["big"] = write_problem("big", ECHO, big)
    cpu = [(str(i), b"x\n", b"x\n") for i in range(1, 11)]
    made["cpu"] = write_problem("cpu", CPU, cpu)
    made["wa50"] = write_problem("wa50", FIFTY, [("1", b"", b"")])
    # The expected output: what the solution prints, with the line 3 before the last changed.
    root, binary, tests = made["wa50"]
    output = subprocess.run([binary], check=True, stdout=subprocess.PIPE).stdout
    lines = output.split(b"\n")
    lines[-5] = b"differs"
    (tests / "1.out").write_bytes(b"\n".join(lines))
    return made


def builds(source, out):
    """How the compilers alone build `source` in the folder `out`, as argument lists, and the
    shell line that runs the result: rustc -O; javac on a copy named after the public class,
    as javac wants; Python's byte-compilation of a copy, the interpreter itself run (as the
    judge starts it, not a version manager's shim). `None` for another language."""
    mkdir = ["mkdir", "-p", str(out)]
    if source.suffix == ".rs":
        return [mkdir, ["rustc", "--edition", "2021", "-O", "-o", str(out / "main"), str(source)]], str(out / "main")
    if source.suffix == ".java":
        main = source.read_text().split("public class ", 1)[1].split()[0]
        named = out / f"{main}.java"
        steps = [mkdir, ["cp", str(source), str(named)], ["javac", "-encoding", "UTF-8", "-d", str(out), str(named)]]
        return steps, f"java -Xss64m -XX:+UseSerialGC -Dfile.encoding=UTF-8 -cp {out} {main}"
    if source.suffix == ".py":
        copy = out / source.name
        steps = [mkdir, ["cp", str(source), str(copy)], [python_itself(), "-m", "py_compile", str(copy)]]
        return steps, f"{python_itself()} {source}"
    return None


def repo_workload():
    """The repository's own problems with every solution file the judge runs for them (one per
    language): the floor runs each built with its language's usual command (`builds`), a
    compiled one as it is, the others through a one-line wrapper."""
    pairs = []
    work = WORK / "repo"
    work.mkdir(parents=True, exist_ok=True)
    for problem in sorted((ROOT / "problems").iterdir()):
        for source in sorted((ROOT / "solutions").glob(f"{problem.name}.*")):
            name = f"{problem.name}-{source.suffix[1:]}"
            built = builds(source, work / f"{name}-build")
            if built is None:
                continue
            steps, run = built
            for step in steps:
                subprocess.run(step, check=True)
            program = Path(run)
            if source.suffix != ".rs":
                program = work / name
                program.write_text(f"#!/bin/sh\nexec {run}\n")
                program.chmod(0o755)
            pairs += [str(program), str(problem / "tests")]
    return pairs


def cold_compiles():
    """The builds a cold run of the repository makes, as the compilers alone do them
    (`builds`), one after another into a fresh folder, as one shell line."""
    out = WORK / "cold-builds"
    lines = [f"rm -rf {out} && mkdir -p {out}"]
    for source in sorted((ROOT / "solutions").glob("*.*")):
        built = builds(source, out / f"{source.stem}-{source.suffix[1:]}")
        if built is not None:
            lines += [shlex.join(step) for step in built[0]]
    return " && ".join(lines)


def cold_judge(binary):
    """`binary` judging the repository with an empty build cache of its own."""
    return f"d=$(mktemp -d) && JUDGE_CACHE_DIR=$d {binary} --jobs 2 --color never; code=$?; rm -rf $d; exit $code"


def python_itself():
    """The interpreter that `python3` on PATH starts (pyenv's `python3` is a shell script)."""
    found = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"], check=True, stdout=subprocess.PIPE)
    return found.stdout.decode().strip()


def measure(command, cwd, env):
    """Wall time, peak RSS (MiB), exit code and CPU time (user + system, of the command and
    the children it waited for) of one run of `command`.

    The peak comes from GNU time, which forks the command from its own small process: a child
    spawned straight from this (large) Python process would inherit its memory high-water mark.
    """
    report = WORK / "time.out"
    start = time.perf_counter()
    process = subprocess.run(
        ["/usr/bin/time", "-o", report, "-f", "%M %x %U %S", *command],
        cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    elapsed = time.perf_counter() - start
    peak_kib, code, user, system = report.read_text().split()[-4:]
    return elapsed, int(peak_kib) / 1024, int(code), float(user) + float(system)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--no-oj", action="store_true")
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--update-readme", action="store_true")
    parser.add_argument(
        "--as-user",
        help="also time the judge (and the floor) run as this ordinary user, with runuser: the "
        "namespaces containment level, with no cgroup to write to (not the repo workload, "
        "whose toolchains may live in root's home)",
    )
    args = parser.parse_args()

    if not Path("/usr/bin/time").exists():
        sys.exit("GNU time is needed for peak memory: apt-get install time")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "judge"], cwd=ROOT, check=True)
    JUDGE.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(BUILT, JUDGE)
    if args.baseline:
        args.baseline = shutil.copy2(args.baseline, JUDGE.parent / "baseline")
    subprocess.run(["gcc", "-O2", "-pthread", "-o", FLOOR, ROOT / "bench" / "floor.c"], check=True)
    oj = None if args.no_oj else shutil.which("oj")

    # Each round judges every case: the result cache would time its reuse instead.
    env = dict(os.environ, JUDGE_CACHE_DIR=str(CACHE), NO_COLOR="1", JUDGE_NO_RESULT_CACHE="1")
    baseline_env = dict(env, JUDGE_CACHE_DIR=str(BASELINE_CACHE))
    as_user = []
    if args.as_user:
        user_cache = WORK / f"cache-{args.as_user}"
        user_cache.mkdir(exist_ok=True)
        shutil.chown(user_cache, user=args.as_user)
        as_user = ["runuser", "-u", args.as_user, "--", "env", f"JUDGE_CACHE_DIR={user_cache}"]
    names = args.only or ["one", "tiny", "big", "cpu", "wa50", "repo", "shards", "cold"]
    made = workloads()
    commands = {}
    for name in names:
        if name == "cold":
            cold = []
            # A fresh clone's first run: every solution built, then judged; against the same
            # builds by the compilers alone and the warm run.
            subprocess.run([JUDGE], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)  # warm the cache
            cold.append(("compilers, one after another", 1, ["sh", "-c", cold_compiles()]))
            cold.append(("judge, warm", 2, [JUDGE, "--jobs", "2", "--color", "never"]))
            cold.append(("judge, empty cache", 2, ["sh", "-c", cold_judge(JUDGE)]))
            if args.baseline:
                cold.append(("baseline, empty cache", 2, ["sh", "-c", cold_judge(args.baseline)]))
            commands[name] = cold
            continue
        if name == "repo":
            pairs = repo_workload()
            judge_root, floor_args, oj_args = ROOT, pairs, None
            subprocess.run([JUDGE], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)  # warm the cache
            if args.baseline:
                subprocess.run([args.baseline], cwd=ROOT, env=baseline_env, stdout=subprocess.DEVNULL)
        else:
            judge_root, binary, tests = made[name]
            floor_args = [str(binary), str(tests)]
            oj_args = (binary, tests)
            subprocess.run([JUDGE, "--root", judge_root], env=env, stdout=subprocess.DEVNULL)
            if args.baseline:
                subprocess.run([args.baseline, "--root", judge_root], env=baseline_env, stdout=subprocess.DEVNULL)
        runs = []
        if name == "shards":
            # One run against four shards judged one after another and merged, at -j2.
            reports = WORK / "shard-reports"
            reports.mkdir(exist_ok=True)
            script = " && ".join(
                f"{{ {JUDGE} --root {judge_root} -j 2 --color never run --partition hash:{k}/4 --json {reports}/{k}.json; [ $? -le 1 ]; }}"
                for k in range(1, 5)
            ) + f" && {JUDGE} --root {judge_root} --color never merge " + " ".join(f"{reports}/{k}.json" for k in range(1, 5))
            runs.append(("floor", 2, [FLOOR, "-j", "2", *floor_args]))
            runs.append(("judge", 2, [JUDGE, "--root", judge_root, "--jobs", "2", "--color", "never"]))
            runs.append(("judge, 4 shards + merge", 2, ["sh", "-c", script]))
            commands[name] = runs
            continue
        if name == "repo":
            # The same run with the result cache (off in every other row): an unchanged
            # repository judged again, its sample of 5 % judged all the same.
            unset = ["env", "-u", "JUDGE_NO_RESULT_CACHE"]
            subprocess.run([*unset, JUDGE], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
            runs.append(("judge, unchanged (result cache)", 2, [*unset, JUDGE, "--jobs", "2", "--color", "never"]))
        for jobs in (1, 2):
            runs.append(("floor", jobs, [FLOOR, "-j", str(jobs), *floor_args]))
            runs.append(("judge", jobs, [JUDGE, "--root", judge_root, "--jobs", str(jobs), "--color", "never"]))
            if args.baseline:
                runs.append(("baseline", jobs, [args.baseline, "--root", judge_root, "--jobs", str(jobs), "--color", "never"]))
            if as_user and name != "repo":
                runs.append((f"floor as {args.as_user}", jobs, [*as_user, FLOOR, "-j", str(jobs), *floor_args]))
                runs.append((f"judge as {args.as_user}", jobs, [*as_user, JUDGE, "--root", judge_root, "--jobs", str(jobs), "--color", "never"]))
            if oj and oj_args:
                binary, tests = oj_args
                runs.append(("oj test", jobs, [oj, "test", "-c", binary, "-d", tests, "-j", str(jobs)]))
        commands[name] = runs

    results = {}
    cpu_times = {}
    for round_number in range(args.rounds):
        for name in names:
            # Interleaved: every command of a workload once per round (a cheap one several
            # times), so drift hits all alike.
            samples = SAMPLES_PER_ROUND.get(name, 1)
            for _ in range(samples):
                for tool, jobs, command in commands[name]:
                    # A short pause, so that no command starts in the wake of the one before
                    # (oj's runs leave the machine busy for a moment: without it, the judge's
                    # single-case run after them took 3x longer).
                    time.sleep(0.3 if samples == 1 else 0.05)
                    run_env = baseline_env if tool == "baseline" else env
                    elapsed, peak, code, cpu = measure(command, ROOT, run_env)
                    results.setdefault((name, tool, jobs), []).append((elapsed, peak, code))
                    cpu_times.setdefault((name, tool, jobs), []).append(cpu)
        print(f"round {round_number + 1}/{args.rounds} done", file=sys.stderr)

    rows = ["| workload | tool | jobs | median | min | max | vs floor | peak memory |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    medians = {}
    for name in names:
        for tool, jobs, _ in commands[name]:
            samples = results[(name, tool, jobs)]
            times = [t for t, _, _ in samples]
            median = statistics.median(times)
            medians[(name, tool, jobs)] = median
            # Each run against its own floor: the ordinary user's includes runuser's start.
            floor_tool = "floor" + tool.partition(" as ")[1] + tool.partition(" as ")[2] if " as " in tool else "floor"
            floor = medians.get((name, floor_tool, jobs))
            ratio = f"{median / floor:.2f}x" if floor and not tool.startswith("floor") else ""
            peak = max(p for _, p, _ in samples)
            rows.append(
                f"| {name} | {tool} | {jobs} | {median * 1000:.1f} ms | {min(times) * 1000:.1f} ms | "
                f"{max(times) * 1000:.1f} ms | {ratio} | {peak:.1f} MiB |"
            )
    table = "\n".join(rows)
    cpu_model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    header = (
        f"Measured {datetime.date.today()} on {os.cpu_count()} cores ({cpu_model}), {platform.system()} "
        f"{platform.release()}, {args.rounds} interleaved rounds (`one` {SAMPLES_PER_ROUND['one']} times a round), with `python3 bench/run.py --rounds {args.rounds}`."
    )
    print(header + "\n\n" + table)
    checks = targets(medians, results, cpu_times)
    if args.as_user:
        checks += targets(as_tools(medians, args.as_user), as_tools(results, args.as_user), {}, f" as {args.as_user}")
    print("\n" + "\n".join(checks))
    if args.update_readme:
        readme = ROOT / "docs" / "performance.md"
        text = readme.read_text()
        start, end = "<!-- bench:start -->", "<!-- bench:end -->"
        before, rest = text.split(start)
        _, after = rest.split(end)
        readme.write_text(f"{before}{start}\n{header}\n\n{table}\n\n" + "\n".join(checks) + f"\n{end}{after}")


def as_tools(figures, user):
    """The figures of the runs as `user`, under the plain tools' names."""
    suffix = f" as {user}"
    return {(name, tool[: -len(suffix)], jobs): value for (name, tool, jobs), value in figures.items() if tool.endswith(suffix)}


def targets(medians, results, cpu_times, who=""):
    """The targets of the performance issue, as lines that say whether each holds."""
    lines = []

    def ratio(name, jobs):
        judge, floor = medians.get((name, "judge", jobs)), medians.get((name, "floor", jobs))
        return judge / floor if judge and floor else None

    for name in ("tiny", "big", "cpu", "repo"):
        for jobs in (1, 2):
            r = ratio(name, jobs)
            if r is not None:
                lines.append(f"- {name} -j{jobs}: judge {r:.2f}x the floor (target 1.25x): {'holds' if r <= 1.25 else 'MISSED'}")
    for jobs in (1, 2):
        judge, floor = medians.get(("one", "judge", jobs)), medians.get(("one", "floor", jobs))
        if judge and floor:
            gap = (judge - floor) * 1000
            lines.append(f"- one -j{jobs}: judge {gap:.1f} ms above the floor (target 5 ms): {'holds' if gap <= 5 else 'MISSED'}")
    for jobs in (1, 2):
        r = ratio("wa50", jobs)
        if r is not None:
            peak = max(p for _, p, _ in results[("wa50", "judge", jobs)])
            lines.append(
                f"- wa50 -j{jobs}: judge {r:.2f}x the floor (target 1.25x), peak {peak:.0f} MiB for a 50 MiB output "
                f"(target 100 MiB): {'holds' if r <= 1.25 and peak <= 100 else 'MISSED'}"
            )
    whole, shards = medians.get(("shards", "judge", 2)), medians.get(("shards", "judge, 4 shards + merge", 2))
    if whole and shards:
        lines.append(
            f"- shards -j2: 4 shards one after another and their merge take {shards / whole:.2f}x one run "
            f"(target 1.15x): {'holds' if shards / whole <= 1.15 else 'MISSED'}"
        )
    # The compilers' own time is their CPU time: rustc's code generation and javac's JIT and
    # collector use more than one core already, so their wall time one after another is not
    # what two cores can divide.
    compilers = cpu_times.get(("cold", "compilers, one after another", 1))
    warm, cold = medians.get(("cold", "judge, warm", 2)), medians.get(("cold", "judge, empty cache", 2))
    if compilers and warm and cold:
        compilers = statistics.median(compilers)
        bound = compilers / os.cpu_count() + warm
        lines.append(
            f"- cold -j2: an empty cache takes {cold * 1000:.0f} ms, {cold / bound:.2f}x of the compilers' "
            f"{compilers * 1000:.0f} ms of CPU over {os.cpu_count()} cores plus the warm {warm * 1000:.0f} ms "
            f"(target 1.15x): {'holds' if cold / bound <= 1.15 else 'MISSED'}"
        )
        before = medians.get(("cold", "baseline, empty cache", 2))
        if before:
            lines.append(
                f"- cold -j2: {cold / before:.2f}x of the baseline's {before * 1000:.0f} ms "
                f"(target 0.7x): {'holds' if cold / before <= 0.7 else 'MISSED'}"
            )
    one, two = medians.get(("cpu", "judge", 1)), medians.get(("cpu", "judge", 2))
    if one and two:
        lines.append(f"- cpu: judge --jobs 2 is {one / two:.2f}x faster than --jobs 1 (target 1.8x): {'holds' if one / two >= 1.8 else 'MISSED'}")
    judge, floor = medians.get(("repo", "judge", 2)), medians.get(("repo", "floor", 2))
    if judge and floor:
        lines.append(
            f"- repo -j2: the warm judge takes {judge * 1000:.0f} ms, the floor {floor * 1000:.0f} ms: "
            f"{(judge - floor) * 1000:.0f} ms ({(judge - floor) / judge:.0%}) is the judge's own overhead"
        )
    return [line.replace("- ", f"- {who.strip()} " if who else "- ", 1) for line in lines]


if __name__ == "__main__":
    main()
