#!/usr/bin/env python3
"""The fidelity suite: public files other people wrote, judged by `judge`, each compared with
the verdict its own source states (for a Kattis package, the folder of each submission).

usage: python3 bench/fidelity.py [--judge PATH] [--mirror DIR] [--only SUBSTRING]

The files are named in bench/fidelity/manifest.toml by repository, commit and path; they are
taken from a mirror of those repositories (default /work/.mirror, one `owner+name/repo` git
folder each, as the tool library's `fetch` leaves them) and never kept here. A repository or
commit missing from the mirror is counted as missing, never as agreement. Prints a row per
submission and the totals; exits 1 on any disagreement the manifest does not list as known.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r"^(\S+)\s{2,}(\S+)\s{2,}(.+?)\s{2,}(ok|MISMATCH|skipped \(.*\)|ERROR: .*|not finished)$")


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--judge", default=os.path.join(ROOT, "target/release/judge"))
    parser.add_argument("--mirror", default="/work/.mirror")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "bench/fidelity/manifest.toml"), "rb") as file:
        manifest = tomllib.load(file)
    totals = {"agree": 0, "disagree": 0, "skipped": 0, "missing": 0}
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
    print(", ".join(f"{count} {what}" for what, count in totals.items()))
    sys.exit(1 if unexplained or totals["missing"] else 0)


if __name__ == "__main__":
    main()
