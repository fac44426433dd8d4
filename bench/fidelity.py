#!/usr/bin/env python3
"""The fidelity suite: public files other people wrote, judged by `judge`, each compared with
the verdict its own source states (for a Kattis package, the folder of each submission; for a
Polygon package, each solution's tag; for a published solution of one of our problems, the
judge's verdict its repository records).

usage: python3 bench/fidelity.py [--judge PATH] [--mirror DIR] [--only SUBSTRING]
                                [--part all|solutions|packages|polygon] [--verbose]

The files are named in bench/fidelity/manifest.toml (Kattis packages),
bench/fidelity/polygon.toml (Polygon packages: `judge verify`, which makes what a download
lacks in a scratch copy, and every generated input a package ships must come out the same
from its generator) and
bench/fidelity/solutions.toml (solutions) by repository, commit and path; they are
taken from a mirror of those repositories (default /work/.mirror, one `owner+name/repo` git
folder each, as the tool library's `fetch` leaves them) and never kept here. A repository or
commit missing from the mirror is counted as missing, never as agreement. Prints a row per
submission and the totals; exits 1 on any disagreement the manifest does not list as known.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r"^(\S+)\s{2,}(.+?)\s{2,}(.+?)\s{2,}(ok|MISMATCH|skipped \(.*\)|ERROR: .*|not finished)$")
REGENERATED = re.compile(r"^tests: (\d+) generated inputs? made again by their generators: (\d+) the same "
                         r"as the package's, (\d+) different$", re.M)


def git_dir(mirror, repository):
    base = os.path.join(mirror, repository.replace("/", "+"), "repo")
    dotgit = os.path.join(base, ".git")
    return dotgit if os.path.isdir(dotgit) else base


def extract(mirror, entry, into):
    """The package folder of `entry` written under `into`; None when the mirror lacks it."""
    git = git_dir(mirror, entry["repository"])
    if not os.path.isdir(git):
        return None
    archive = subprocess.run(["git", "--git-dir", git, "archive", entry["commit"], entry["path"]],
                             capture_output=True)
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", into], input=archive.stdout, check=True)
    return os.path.join(into, entry["path"])


def verify(judge, package):
    """`judge verify` of a package: its rows (submission, stated, got, result) and its output."""
    run = subprocess.run([judge, "--color", "never", "verify", package], capture_output=True,
                         text=True, timeout=1800, env=dict(os.environ, NO_COLOR="1"))
    rows = [m.groups() for m in map(ROW.match, run.stdout.splitlines()) if m and m.group(1) != "submission"]
    return rows, run.stdout + run.stderr


def solution_verdict(judge, problem, source):
    """What `judge run PROBLEM --solution SOURCE` gives: CE, the first case's verdict that is
    not AC, or AC; with the output, for a disagreement's row."""
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        run = subprocess.run([judge, "--color", "never", "run", problem, "--solution", source,
                              "--json", report], cwd=ROOT, capture_output=True, text=True,
                             timeout=900, env=dict(os.environ, NO_COLOR="1"))
        output = run.stdout + run.stderr
        if not os.path.exists(report):
            return "error", output
        with open(report) as file:
            judged = json.load(file)["problems"]
    if not judged:
        return "error", output
    if judged[0]["status"] == "compile_error":
        return "CE", output
    verdicts = [case["verdict"] for case in judged[0]["cases"]]
    return next((verdict for verdict in verdicts if verdict != "AC"), "AC"), output


def judge_solutions(args, manifest, totals):
    """Each published solution judged on our problem; returns the disagreements not known."""
    unexplained = 0
    for entry in manifest.get("solution", []):
        name = f"{entry['repository']}: {entry['path']}"
        if args.only not in name and args.only not in entry["problem"]:
            continue
        with tempfile.TemporaryDirectory() as scratch:
            source = extract(args.mirror, entry, scratch)
            if source is None:
                print(f"MISSING  {entry['repository']}@{entry['commit'][:12]}: fetch it into the mirror")
                totals["missing"] += 1
                continue
            # The judge decides the language by the extension; the folder's name stays.
            got, output = solution_verdict(args.judge, entry["problem"], source)
        if got == entry["stated"]:
            totals["agree"] += 1
            verdict = "agree"
        else:
            totals["disagree"] += 1
            cause = entry.get("known")
            verdict = f"DISAGREE ({cause})" if cause else "DISAGREE"
            unexplained += cause is None
            if cause is None and args.verbose:
                print(output)
        print(f"{entry['problem']:20} {name[-68:]:68} {entry['stated']:4} {got:6} {verdict}")
    return unexplained


def judge_packages(args, manifest, totals, polygon):
    """Each package's submissions against what it states; returns the disagreements not
    known. For a Polygon package, the generated inputs it ships made again count as one more
    row: a difference is a disagreement."""
    unexplained = 0
    for entry in manifest.get("package", []):
        if args.only not in entry["repository"]:
            continue
        known = entry.get("known", {})
        with tempfile.TemporaryDirectory() as scratch:
            package = extract(args.mirror, entry, scratch)
            if package is None:
                print(f"MISSING  {entry['repository']}@{entry['commit'][:12]}: fetch it into the mirror")
                totals["missing"] += 1
                continue
            rows, output = verify(args.judge, package)
        found = REGENERATED.findall(output) if polygon else []
        for shipped, same, different in [row for row in found if int(row[0]) > 0]:
            cause = known.get("generated inputs")
            verdict = f"DISAGREE ({cause})" if cause else "DISAGREE"
            verdict = verdict if int(different) else "agree"
            print(f"{entry['repository']}: of {shipped} generated inputs it ships, {same} made again the same, "
                  f"{different} different  {verdict}")
            totals["disagree" if int(different) else "agree"] += 1
            unexplained += int(different) > 0 and cause is None
        if not rows:
            print(f"NO ROWS  {entry['repository']}:\n{output}")
            totals["disagree"] += 1
            unexplained += 1
            continue
        for submission, stated, got, result in rows:
            name = f"{entry['repository']}: {submission}"
            if result == "ok":
                totals["agree"] += 1
                verdict = "agree"
            elif result.startswith("skipped"):
                totals["skipped"] += 1
                verdict = result
            else:
                totals["disagree"] += 1
                cause = known.get(submission)
                verdict = f"DISAGREE ({cause})" if cause else "DISAGREE"
                unexplained += cause is None
            print(f"{name:70} {stated:20} {got:40} {verdict}")
    return unexplained


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--judge", default=os.path.join(ROOT, "target/release/judge"))
    parser.add_argument("--mirror", default="/work/.mirror")
    parser.add_argument("--only", default="")
    parser.add_argument("--part", choices=["all", "solutions", "packages", "polygon"], default="all")
    parser.add_argument("--verbose", action="store_true", help="print the judge's output of a disagreement")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "bench/fidelity/manifest.toml"), "rb") as file:
        manifest = tomllib.load(file)
    with open(os.path.join(ROOT, "bench/fidelity/solutions.toml"), "rb") as file:
        solutions = tomllib.load(file)
    with open(os.path.join(ROOT, "bench/fidelity/polygon.toml"), "rb") as file:
        polygon = tomllib.load(file)
    totals = {"agree": 0, "disagree": 0, "skipped": 0, "missing": 0}
    unexplained = 0
    if args.part in ("all", "solutions"):
        unexplained += judge_solutions(args, solutions, totals)
    if args.part in ("all", "packages"):
        unexplained += judge_packages(args, manifest, totals, polygon=False)
    if args.part in ("all", "polygon"):
        unexplained += judge_packages(args, polygon, totals, polygon=True)
    print(", ".join(f"{count} {what}" for what, count in totals.items()))
    sys.exit(1 if unexplained or totals["missing"] else 0)


if __name__ == "__main__":
    main()
