//! Kattis / ICPC problem packages judged as the package format says: one small package per
//! rule under `judge/tests/fixtures/kattis/`, each copied to a folder of its own (no
//! repository above it) and judged there with the real binary.

use crate::common::*;

use std::path::{Path, PathBuf};

use predicates::prelude::*;

/// A copy of `fixtures/kattis/<name>` in a fresh temporary folder, outside any repository.
fn package(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(name);
    copy_tree(Path::new(&fixture(&format!("kattis/{name}"))), &copy);
    (dir, copy)
}

#[test]
fn a_package_outside_any_repository_is_judged_and_left_untouched() {
    let (dir, package) = package("outside");
    let before = snapshot(&package);
    let cache = dir.path().join("xdg");
    for args in [
        vec!["verify", "outside"],
        vec!["verify", "outside", "--root", "outside"],
    ] {
        judge_in(dir.path())
            .env_remove("JUDGE_CACHE_DIR")
            .env("XDG_CACHE_HOME", &cache)
            .args(&args)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("wrong_answer/off_by_one.py"))
            .stdout(predicate::str::contains(
                "outside: 2 submissions, 0 mismatches",
            ));
    }
    // Run from inside the package, naming nothing: the package itself is judged.
    judge_in(&package)
        .env_remove("JUDGE_CACHE_DIR")
        .env("XDG_CACHE_HOME", &cache)
        .arg("run")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("outside: 2/2 accepted"));
    assert!(
        cache.join("judge").is_dir(),
        "builds are kept in $XDG_CACHE_HOME/judge"
    );
    assert_eq!(snapshot(&package), before, "the package is not written to");
    // Commands that need a repository still say so.
    judge_in(dir.path())
        .arg("list")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no `problems/` folder"));
}

/// A `PATH` holding only `python3`: every other toolchain is missing.
fn python_only_path(dir: &Path) -> PathBuf {
    let python = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap()
        .stdout;
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(
        String::from_utf8(python).unwrap().trim(),
        bin.join("python3"),
    )
    .unwrap();
    bin
}

/// The row of `submission` in a verify table, with its columns split on runs of spaces.
fn row<'a>(table: &'a str, submission: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|line| line.starts_with(&format!("{submission} ")))
        .unwrap_or_else(|| panic!("no row for {submission} in:\n{table}"));
    line.split("  ")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect()
}

#[test]
fn each_verify_row_carries_its_own_expectation() {
    let (dir, package) = package("rows");
    let output = judge_in(dir.path())
        .env("PATH", python_only_path(dir.path()))
        .args(["verify", "rows"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let table = String::from_utf8(output).unwrap();
    let expected: [(&str, &[&str]); 6] = [
        (
            "accepted/Main.java",
            &["accepted", "not judged", "skipped (no javac)"],
        ),
        ("accepted/sum.py", &["accepted", "AC 2", "ok"]),
        ("run_time_error/exits.py", &["run_time_error", "RE 1", "ok"]),
        (
            "wrong_answer/a_notes.txt",
            &["wrong_answer", "not judged", "skipped (unknown language)"],
        ),
        // After a row that could not be judged, the next still has its own folder's promise.
        (
            "wrong_answer/b_accepted_anyway.py",
            &["wrong_answer", "AC 2", "MISMATCH"],
        ),
        (
            "wrong_answer/c_plain.rs.disabled",
            &["wrong_answer", "not judged", "skipped (unknown language)"],
        ),
    ];
    for (submission, columns) in expected {
        assert_eq!(
            &row(&table, submission)[1..],
            columns,
            "{submission} in:\n{table}"
        );
    }
    assert!(
        !table.contains(".gitkeep"),
        "dot-files are no submissions:\n{table}"
    );
    assert!(
        table.contains("rows: 6 submissions, 1 mismatches, 3 skipped, 0 errors"),
        "{table}"
    );
    drop(package);
}
