#!/usr/bin/env python3
"""Save-to-verdict latency of `judge watch` (issue 12's targets: under 1 s for a problem of 20
small cases with a cached build; under 1 s plus the compile when the solution changes).

usage: python3 bench/watch.py [--rounds N]

Builds the release judge, makes a throwaway repository under target/bench/watch/ with one
problem of 20 small cases and a Rust solution, starts `judge watch` on it, and then, N times
each, (a) rewrites a case's expected output (the build stays cached) and (b) rewrites the
solution (a rebuild), timing from the write to the line that ends the round (`Summary:`).
Prints the median, min and max of each. The time includes the watch's debounce (100 ms).
"""

import argparse
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "bench" / "watch"
JUDGE = ROOT / "target" / "release" / "judge"

SOLUTION = """use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum();
    println!("{}", n); // VARIANT
}
"""


def make_repository():
    shutil.rmtree(WORK, ignore_errors=True)
    cases = WORK / "problems" / "sum" / "tests" / "random"
    cases.mkdir(parents=True)
    (WORK / "problems" / "sum" / "problem.toml").write_text('name = "sum"\n')
    for i in range(1, 21):
        (cases / f"{i}.in").write_text(f"{i} {2 * i}\n")
        (cases / f"{i}.out").write_text(f"{3 * i}\n")
    (WORK / "solutions").mkdir()
    (WORK / "solutions" / "sum.rs").write_text(SOLUTION)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "judge"], cwd=ROOT, check=True)
    make_repository()
    env = dict(os.environ, JUDGE_CACHE_DIR=str(WORK / "cache"))
    watch = subprocess.Popen(
        [str(JUDGE), "watch", "sum", "--color", "never"],
        cwd=WORK, env=env, stdout=subprocess.PIPE, text=True,
    )
    lines = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in watch.stdout], daemon=True
    ).start()

    def round_end():
        while True:
            line = lines.get(timeout=60)
            if line.startswith("Summary:"):
                return line.strip()

    try:
        round_end()
        results = {"case changed (cached build)": [], "solution changed (rebuild)": []}
        expected = WORK / "problems" / "sum" / "tests" / "random" / "1.out"
        solution = WORK / "solutions" / "sum.rs"
        for n in range(args.rounds):
            time.sleep(0.3)
            start = time.perf_counter()
            expected.write_text("3\n" if n % 2 == 0 else "3\n\n")
            round_end()
            results["case changed (cached build)"].append(time.perf_counter() - start)
            time.sleep(0.3)
            start = time.perf_counter()
            solution.write_text(SOLUTION.replace("VARIANT", f"variant {n}"))
            summary = round_end()
            results["solution changed (rebuild)"].append(time.perf_counter() - start)
        print(f"| change | median | min | max | rounds |\n|---|---|---|---|---|")
        for name, times in results.items():
            print(
                f"| {name} | {statistics.median(times) * 1000:.0f} ms "
                f"| {min(times) * 1000:.0f} ms | {max(times) * 1000:.0f} ms | {len(times)} |"
            )
        print(f"last round: {summary}", file=sys.stderr)
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(timeout=10)


if __name__ == "__main__":
    main()
