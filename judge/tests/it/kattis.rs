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
