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

/// `package(name)` with its `accepted/` submissions alone.
fn accepted_only(name: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, package) = package(name);
    for folder in std::fs::read_dir(package.join("submissions")).unwrap() {
        let folder = folder.unwrap().path();
        if folder.is_dir() && !folder.ends_with("accepted") {
            std::fs::remove_dir_all(folder).unwrap();
        }
    }
    (dir, package)
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
    let python_only = python_only_path(dir.path());
    let output = judge_in(dir.path())
        .env("PATH", &python_only)
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
        // A language of the format's table that this judge does not run.
        (
            "wrong_answer/a_ruby.rb",
            &[
                "wrong_answer",
                "not judged",
                "skipped (Ruby is not a language this judge runs)",
            ],
        ),
        // After a row that could not be judged, the next still has its own folder's promise.
        (
            "wrong_answer/b_accepted_anyway.py",
            &["wrong_answer", "AC 2", "MISMATCH"],
        ),
        (
            "wrong_answer/c_plain.rs.disabled",
            &[
                "wrong_answer",
                "not judged",
                "skipped (disabled by its `.disabled` ending)",
            ],
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
        !table.contains("a_notes.txt"),
        "a file whose ending names no language is no submission:\n{table}"
    );
    assert!(
        table.contains("rows: 6 submissions, 1 mismatch, 3 skipped, 0 errors"),
        "{table}"
    );
    // With no solution named, `run` takes the first accepted submission it can build here:
    // not Main.java, whose javac is missing.
    judge_in(dir.path())
        .env("PATH", &python_only)
        .args(["run", "rows"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("submissions/accepted/sum.py"));
    drop(package);
}

/// `judge verify` on a fixture package: its exit code and its table.
fn verify(name: &str) -> (i32, String) {
    judge_verify(Path::new(&fixture(&format!("kattis/{name}"))), &[])
}

/// A row as `judge verify` must show it: submission, got, result.
type ExpectedRow = (&'static str, &'static str, &'static str);

/// `judge verify PACKAGE` exits 0 and shows each row (submission, got, result) and `line`.
/// The tests that call it take one package per rule of the format.
fn verified(package: &str, rows: &[ExpectedRow], line: &str) {
    let (code, table) = verify(package);
    assert_eq!(code, 0, "{package}:\n{table}");
    for (submission, got, result) in rows {
        let columns = row(&table, submission);
        assert_eq!(
            &columns[2..],
            [*got, *result],
            "{package}, {submission}:\n{table}"
        );
    }
    assert!(table.contains(line), "{package}: no `{line}` in:\n{table}");
}

/// A validator file directly in legacy `output_validators/`: it, not the default
/// validator, accepts an answer off by one.
#[test]
fn verified_legacy_validator_file() {
    verified(
        "legacy_validator_file",
        &[
            ("accepted/off_by_one.py", "AC 2", "ok"),
            ("wrong_answer/off_by_five.py", "WA 1", "ok"),
        ],
        "3 submissions, 0 mismatches",
    );
}

/// 2025-09 `output_validator/` of two files, built once as one program.
#[test]
fn verified_validator_folder_2025() {
    verified(
        "validator_folder_2025",
        &[
            ("accepted/off_by_one.py", "AC 2", "ok"),
            ("wrong_answer/off_by_five.py", "WA 1", "ok"),
        ],
        "3 submissions, 0 mismatches",
    );
}

/// A validator folder with a `build` script that makes its `run`.
#[test]
fn verified_validator_scripts() {
    verified(
        "validator_scripts",
        &[
            ("accepted/off_by_one.py", "AC 2", "ok"),
            ("wrong_answer/off_by_five.py", "WA 1", "ok"),
        ],
        "3 submissions, 0 mismatches",
    );
}

/// Group arguments for the default validator: a tolerance in secret/ only.
#[test]
fn verified_validator_args_legacy() {
    verified(
        "validator_args_legacy",
        &[
            ("accepted/near.py", "AC 2", "ok"),
            ("wrong_answer/far.py", "AC 1, WA 1", "ok"),
        ],
        "2 submissions, 0 mismatches",
    );
}

#[test]
fn verified_validator_args_2025() {
    verified(
        "validator_args_2025",
        &[
            ("accepted/near.py", "AC 2", "ok"),
            ("wrong_answer/far.py", "AC 1, WA 1", "ok"),
        ],
        "2 submissions, 0 mismatches",
    );
}

/// Lexicographic order: secret/10 and secret/2 run before secret/9, where the wrong
/// submission fails (natural order would stop it after two cases).
#[test]
fn verified_data_dirs() {
    verified(
        "data_dirs",
        &[
            ("accepted/echo.py", "AC 4", "ok"),
            ("wrong_answer/not_nine.py", "AC 3, WA 1", "ok"),
        ],
        "2 submissions, 0 mismatches",
    );
}

/// A folder the format does not know is a skipped row that counts its files, and a near miss
/// of a known one (`runtime_error/`) is named as the format spells it.
#[test]
fn a_folder_of_no_known_verdict_is_skipped_with_its_count_and_the_formats_name() {
    let (_dir, package) = package("data_dirs");
    let submissions = package.join("submissions");
    std::fs::rename(
        submissions.join("wrong_answer"),
        submissions.join("wronganswer"),
    )
    .unwrap();
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 0, "{table}");
    assert!(
        table.contains(
            "skipped (no verdict is known for this folder; 1 file not judged; the format's \
             folder is `wrong_answer/`)"
        ),
        "{table}"
    );
}

/// The top of `data/` holds `sample/`, `secret/` and the validation folders, and `secret/`
/// must be there, as the format and problemtools have it: each fault is a package error.
#[test]
fn data_without_secret_or_with_an_unknown_top_folder_is_a_package_error() {
    let (_dir, package) = package("data_dirs");
    let data = package.join("data");
    std::fs::create_dir(data.join("bad")).unwrap();
    std::fs::write(data.join("bad/1.in"), "1\n").unwrap();
    let (code, table) = judge_verify(&package, &["--validate"]);
    assert_eq!(code, 2, "{table}");
    assert!(
        table.contains("error: data/bad/: the top of data/ holds only sample/, secret/ and the"),
        "{table}"
    );
    std::fs::remove_dir_all(data.join("bad")).unwrap();
    std::fs::remove_dir_all(data.join("secret")).unwrap();
    let (code, table) = judge_verify(&package, &["--validate"]);
    assert_eq!(code, 2, "{table}");
    assert!(
        table.contains("error: data/secret/ is missing: the format requires secret data"),
        "{table}"
    );
}

/// `verify --validate` of `data_dirs` with one more input validator, the folder `name` holding
/// `main.cpp` (which includes `header`) and `add`'s files: its exit code and output.
fn with_folder_validator(name: &str, header: &str, add: impl Fn(&Path)) -> (i32, String) {
    let (_dir, package) = package("data_dirs");
    let folder = package.join("input_validators").join(name);
    std::fs::create_dir(&folder).unwrap();
    let main = format!("#include \"{header}\"\nint main() {{}}\n");
    std::fs::write(folder.join("main.cpp"), main).unwrap();
    add(&folder);
    judge_verify(&package, &["--validate"])
}

/// A validator that does not compile is named with the compiler's first error, not the
/// `In file included from` line before it.
#[test]
fn a_validator_that_does_not_compile_shows_its_first_error() {
    let (code, table) = with_folder_validator("broken", "bad.h", |folder| {
        std::fs::write(folder.join("bad.h"), "int x = ;\n").unwrap();
    });
    assert_eq!(code, 2, "{table}");
    let line = table
        .lines()
        .find(|line| line.contains("does not compile"))
        .unwrap();
    assert!(line.contains("bad.h:1:9: error: "), "{table}");
}

/// A validator folder's link to a file outside the package that is not there (a contest
/// repository's shared header) is named with its target.
#[test]
fn a_link_to_nothing_in_a_validator_is_named_with_its_target() {
    let (code, table) = with_folder_validator("linked", "validate.h", |folder| {
        std::os::unix::fs::symlink("../../../skel/validate.h", folder.join("validate.h")).unwrap();
    });
    assert_eq!(code, 2, "{table}");
    assert!(
        table.contains("validate.h: a link to ../../../skel/validate.h, which does not exist"),
        "{table}"
    );
}

/// `judge verify` runs the package's validators over its data: a sound package shows no
/// fault (its strict validator refuses every junk input); each fault put into a copy is a
/// package error naming its file, and a validator that takes anything is warned of.
#[test]
fn verify_runs_the_package_validators_on_its_data() {
    let (code, table) = verify("data_dirs");
    assert_eq!(code, 0, "{table}");
    assert!(
        table.contains("data: 8 cases checked by 2 validators: 0 errors, 0 warnings"),
        "{table}"
    );

    let (_dir, broken) = package("data_dirs");
    let data = broken.join("data");
    let write = |path: &str, text: &str| std::fs::write(data.join(path), text).unwrap();
    // Over the `--max 10` that secret/'s test_group.yaml gives: legal in sample/.
    write("secret/11.in", "11\n");
    write("secret/11.ans", "11\n");
    write("secret/2.ans", "3\n");
    write("invalid_input/fine.in", "4\n");
    write("invalid_output/wrong.out", "5\n");
    std::fs::remove_file(data.join("valid_output/right.out")).unwrap();
    // `verify --validate` runs the data check alone (a full verify runs it first, as the
    // sound package's line shows).
    let (code, table) = judge_verify(&broken, &["--validate"]);
    assert_eq!(code, 2, "{table}");
    assert!(table.starts_with("data: 9 cases"), "{table}");
    for line in [
        "error: data/secret/11.in: refused by input_validators/validate.py (exit 43: line 1: 11 is over 10)",
        "error: data/secret/2.ans: refused by answer_validators/echo.py (exit 43: the answer is not the input)",
        "error: data/invalid_input/fine.in: every input validator accepts it, and it must be refused",
        "error: data/invalid_output/wrong.out: the output validator accepts it, and it must be refused",
        "error: data/valid_output/right.in: a case of data/valid_output/ needs right.out beside it",
    ] {
        assert!(table.contains(line), "no `{line}` in:\n{table}");
    }
    assert_eq!(table.matches("error: ").count(), 5, "{table}");
    // `run --validate` asks the same validators before judging.
    judge()
        .args(["run", "--validate"])
        .arg(&broken)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "data/secret/11.in: refused by input_validators/validate.py",
        ));

    // A validator that takes anything: every junk input is a warning, and the invalid input
    // an error.
    std::fs::write(
        broken.join("input_validators/validate.py"),
        "import sys\nsys.exit(42)\n",
    )
    .unwrap();
    let (_, table) = judge_verify(&broken, &["--validate"]);
    for junk in [
        "an empty file",
        "an input cut in half",
        "an input with leading zeros on its integers with the arguments `--max 10`",
    ] {
        assert!(
            table.contains(&format!("warning: no input validator refuses {junk}")),
            "{junk}:\n{table}"
        );
    }
    assert!(
        table.contains("error: data/invalid_input/negative.in: every input validator accepts it")
    );
}

/// `judge verify [options] PACKAGE` on the package at `dir`: its exit code and its report.
fn judge_verify(dir: &Path, options: &[&str]) -> (i32, String) {
    let output = judge()
        .arg("verify")
        .args(options)
        .arg(dir)
        .output()
        .unwrap();
    let table =
        String::from_utf8(output.stdout).unwrap() + &String::from_utf8(output.stderr).unwrap();
    (output.status.code().unwrap(), table)
}

/// Over the memory limit is a run-time error.
#[test]
fn verified_memory() {
    verified(
        "memory",
        &[("run_time_error/hog.py", "RE 1", "ok")],
        "2 submissions, 0 mismatches",
    );
}

/// Writing forever runs on past the output limit, until its time is up.
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn verified_output_limit_2025() {
    verified(
        "output_limit_2025",
        &[("time_limit_exceeded/floods.py", "TLE 1", "ok")],
        "2 submissions, 0 mismatches",
    );
}

/// A package's Python validator runs on the interpreter its Python submissions run on (PyPy
/// where installed), as problemtools runs every program of a package by its languages table.
#[test]
fn verified_validator_interpreter_legacy() {
    verified(
        "validator_interpreter_legacy",
        &[("accepted/interpreter.py", "AC 1", "ok")],
        "1 submission, 0 mismatches",
    );
}

/// Without `limits.output` the limit is the system's 8 MiB, as problemtools has it; a file
/// the program writes is not held to it.
#[test]
fn verified_default_output_limit_2025() {
    verified(
        "output_default_2025",
        &[
            ("output_limit_exceeded/nine_mib.py", "OLE 1", "ok"),
            ("accepted/writes_a_file.py", "AC 1", "ok"),
        ],
        "3 submissions, 0 mismatches",
    );
}

/// Ended by SIGXCPU, the kernel's CPU limit signal: too slow, as problemtools says,
/// even when the time measured is under the limit.
#[test]
fn verified_cpu_signal_legacy() {
    verified(
        "cpu_signal_legacy",
        &[("time_limit_exceeded/xcpu.py", "TLE 1", "ok")],
        "2 submissions, 0 mismatches",
    );
}

/// No time limit: derived from the accepted submission (well under 0.3 s, × 3, up to
/// a whole step), and the endless one is TLE under it.
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn verified_derived_time_limit_legacy() {
    verified(
        "derived_time_limit_legacy",
        &[("time_limit_exceeded/spins.py", "TLE 1", "ok")],
        "time limit: 1 s, derived",
    );
}

#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn verified_derived_time_limit_2025() {
    verified(
        "derived_time_limit_2025",
        &[("time_limit_exceeded/spins.py", "TLE 1", "ok")],
        "rounded up to a multiple of 0.5 s",
    );
}

/// A rejected submission's first run goes on to the least limit's margin (here 1 s × 2): one
/// that finished within it stands, its verdicts decided at the derived limit (2 s: WA, not the
/// TLE it is under 1 s).
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn verified_derived_time_limit_stands_legacy() {
    verified(
        "derived_time_limit_stands_legacy",
        &[("wrong_answer/slow_and_wrong.py", "WA 1", "ok")],
        "time limit: 2 s, derived",
    );
}

/// Submissions not expected to be too slow run beside the accepted ones under one resolution
/// step, the least limit a package can derive: one that meets it is judged again under the
/// derived limit, where its verdict is its own (here WA, not TLE).
#[test]
fn verified_derived_time_limit_rerun_2025() {
    verified(
        "derived_time_limit_rerun_2025",
        &[
            ("wrong_answer/slow_and_wrong.py", "WA 1", "ok"),
            ("wrong_answer/quick_and_wrong.py", "WA 1", "ok"),
        ],
        "3 submissions, 0 mismatches",
    );
}

#[test]
fn a_package_with_an_out_file_and_validation_data_is_judged_on_its_answers() {
    // `.out` beside `.ans` is an example output, and data/invalid_*, data/valid_output hold no
    // cases to judge: the run has the sample and the three secret cases only, in
    // lexicographic order.
    let output = judge()
        .args(["run", "--verbose", &fixture("kattis/data_dirs")])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = String::from_utf8(output).unwrap();
    let cases: Vec<&str> = report
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("AC"))
        .map(|rest| rest.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        cases,
        ["sample/1", "secret/10", "secret/2", "secret/9"],
        "{report}"
    );
}

/// Constants in a submission, an included file, the validator and test_group.yaml; the
/// included files of a submission's language (a Python module, a C++ header) beside it.
#[test]
fn verified_constants_2025() {
    verified(
        "constants_2025",
        &[
            ("accepted/answer.py", "AC 2", "ok"),
            ("accepted/with_header.cpp", "AC 2", "ok"),
            ("accepted/with_include.py", "AC 2", "ok"),
            ("wrong_answer/one_more.py", "WA 1", "ok"),
        ],
        "4 submissions, 0 mismatches",
    );
}

#[test]
fn a_memory_hog_is_a_run_time_error_that_names_memory() {
    judge()
        .args([
            "run",
            &fixture("kattis/memory"),
            "--solution",
            &fixture("kattis/memory/submissions/run_time_error/hog.py"),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE "))
        .stdout(predicate::str::contains("run-time error: memory limit"));
}

/// Whether `tool` is on this machine's `PATH`.
#[test]
fn a_folder_submission_is_one_program_and_languages_follow_the_table() {
    let (code, table) = verify("languages_2025");
    assert_eq!(code, 0, "{table}");
    for (submission, got, result) in [
        // main.cpp and add.cpp compiled together, add.h beside them.
        ("accepted/cpp_parts", "AC 2", "ok"),
        // __main__.py is the entry point and imports its neighbour.
        ("accepted/python_parts", "AC 2", "ok"),
        ("wrong_answer/python_parts_wrong", "AC 1, WA 1", "ok"),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
    let javascript = &row(&table, "accepted/sum.js")[2..];
    if on_path("node") {
        assert_eq!(javascript, ["AC 2", "ok"], "{table}");
    } else {
        assert_eq!(javascript, ["not judged", "skipped (no node)"], "{table}");
    }
}

#[test]
fn bash_runs_as_the_language_table_says() {
    let (code, table) = verify("bash_2025");
    assert_eq!(code, 0, "{table}");
    for (submission, got, result) in [
        ("accepted/sum.sh", "AC 2", "ok"),
        // main.sh is the entry point, and sources its neighbour.
        ("accepted/bash_parts", "AC 2", "ok"),
        ("wrong_answer/difference.sh", "WA 1", "ok"),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
}

#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn run_and_watch_use_the_time_limit_verify_derived_and_say_which_they_use() {
    let (dir, package) = package("derived_time_limit_2025");
    let cache = dir.path().join("cache");
    let run = || {
        judge_in(dir.path())
            .env("JUDGE_CACHE_DIR", &cache)
            .args(["run", "derived_time_limit_2025"])
            .assert()
            .code(0)
    };
    run().stderr(predicate::str::contains(
        "states no time limit: the default 1 s (run `judge verify`",
    ));
    judge_in(dir.path())
        .env("JUDGE_CACHE_DIR", &cache)
        .args(["verify", "derived_time_limit_2025"])
        .assert()
        .code(0);
    // The figure depends on this machine's speed; that it is the derived one does not.
    let derived = r"states no time limit: [0-9.]+ s, as the last `judge verify` derived it";
    run().stderr(predicate::str::is_match(derived).unwrap());
    // `watch` judges under the same limit as `run`, and also needs no repository.
    let log = dir.path().join("watch.err");
    let mut watch = judge_std_in(dir.path())
        .env("JUDGE_CACHE_DIR", &cache)
        .args(["watch", "derived_time_limit_2025"])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let pattern = matches_regex(derived);
    let started = std::time::Instant::now();
    let mut said = String::new();
    while started.elapsed() < std::time::Duration::from_secs(60) && !pattern(&said) {
        std::thread::sleep(std::time::Duration::from_millis(50));
        said = std::fs::read_to_string(&log).unwrap_or_default();
    }
    // SAFETY: the watch this test started.
    unsafe { libc::kill(watch.id() as i32, libc::SIGINT) };
    watch.wait().unwrap();
    assert!(pattern(&said), "watch said:\n{said}");
    drop(package);
}

/// Whether a text matches `pattern`, by the `predicates` crate's regular expressions.
fn matches_regex(pattern: &str) -> impl Fn(&str) -> bool {
    let predicate = predicate::str::is_match(pattern).unwrap();
    move |text| predicate.eval(text)
}

#[test]
fn submissions_yaml_overrides_and_adds_requirements_by_glob() {
    let (code, table) = verify("submissions_yaml_2025");
    assert_eq!(code, 1, "{table}");
    for (submission, got, result) in [
        // The accepted folder's default is replaced: WA is what it must get.
        ("accepted/wrong.py", "WA 1", "ok"),
        // A folder the format does not define, given a requirement by the file.
        ("mine/any.py", "WA 1", "ok"),
        // `mine/ok.{py,cpp}` adds "only AC" to both.
        ("mine/ok.cpp", "AC 2", "ok"),
        ("mine/ok.py", "WA 1", "MISMATCH"),
        // `message`: in some case's message (the default validator quotes the token).
        ("mine/says_hello.py", "WA 2", "ok"),
        ("mine/says_bye.py", "WA 2", "MISMATCH"),
        // `language` and `entrypoint` followed: Python in a `.txt`, a folder started from
        // solve.py (its main.py prints 0).
        ("mine/typed.txt", "AC 2", "ok"),
        ("mine/entry", "AC 2", "ok"),
        (
            "mine/other.rb",
            "not judged",
            "skipped (submissions.yaml names its language `ruby`, which this judge does not run)",
        ),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
}

#[test]
fn a_requirement_on_test_data_is_checked_on_those_cases_only() {
    // Every case is judged (no stop at the first WA), and each group's requirement is
    // checked on the cases its glob matches, spaces around brace alternatives ignored.
    let (code, table) = verify("case_requirements_2025");
    assert_eq!(code, 1, "{table}");
    assert_eq!(
        &row(&table, "mixed/odd.py")[2..],
        ["AC 4, WA 2", "ok"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "mixed/even.py")[2..],
        ["AC 2, WA 4", "MISMATCH"],
        "{table}"
    );
}

/// A submission that must time out runs to the time limit × time_limit_to_tle (1.5), as
/// problemtools and BAPCtools run it, but its verdicts are those under the limit: one that
/// needs the margin is warned of. In a 2025-09 package (as BAPCtools decides) a promise is
/// kept only under the limit.
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn a_too_slow_submission_is_judged_at_the_limit_and_warned_of_within_the_margin() {
    // barely.py takes about 1.2 s of CPU: TLE under the 1 s limit (as `run` says), though it
    // finishes under 1.5 s. slow_and_wrong.py too, and then answers wrong: TLE, which its
    // folder does not permit.
    let (code, table) = verify("tle_margin_2025");
    assert_eq!(code, 1, "{table}");
    for (submission, got, result) in [
        ("time_limit_exceeded/barely.py", "TLE 1", "ok"),
        ("time_limit_exceeded/spins.py", "TLE 1", "ok"),
        ("wrong_answer/slow_and_wrong.py", "TLE 1", "MISMATCH"),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
    let warning = "warning: time_limit_exceeded/barely.py: sensitive to the time limit: \
                   TLE 1 under 1 s, AC 1 under 1.5 s\n";
    assert!(table.contains(warning), "{table}");
    // A 2025-09 package's verdicts are decided at the limit alone: no run beyond it.
    assert!(!table.contains("slow_and_wrong.py: sensitive"), "{table}");
    assert!(!table.contains("spins.py: sensitive"), "{table}");
    judge()
        .args([
            "run",
            &fixture("kattis/tle_margin_2025"),
            "--solution",
            &fixture("kattis/tle_margin_2025/submissions/time_limit_exceeded/barely.py"),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("TLE"));
}

/// With no time limit given and no accepted submission keeping its promise, the note says
/// which of the two it is.
#[test]
fn no_derived_limit_says_why() {
    let (_dir, package) = accepted_only("derived_time_limit_2025");
    std::fs::write(package.join("submissions/accepted/one.py"), "print(2)\n").unwrap();
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 1, "{table}");
    let note = "note: no time limit in the package, and none of its 1 accepted submissions kept its promise";
    assert!(table.contains(note), "{table}");
}

/// A 2025-09 case's `args` (its own `.yaml`, else its group's `test_group.yaml`) are the
/// submission's command-line arguments.
#[test]
fn a_cases_args_are_the_submissions_arguments() {
    let (_dir, package) = accepted_only("tle_margin_2025");
    let write = |path: &str, text: &str| std::fs::write(package.join(path), text).unwrap();
    write(
        "submissions/accepted/one.py",
        "import sys\nprint(' '.join(sys.argv[1:]) or 'NOARGS')\n",
    );
    write("data/secret/test_group.yaml", "args: [hello, there]\n");
    write("data/secret/1.ans", "hello there\n");
    write("data/secret/2.in", "2\n");
    write("data/secret/2.yaml", "args: [world]\n");
    write("data/secret/2.ans", "world\n");
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 0, "{table}");
    assert_eq!(
        &row(&table, "accepted/one.py")[2..],
        ["AC 2", "ok"],
        "{table}"
    );
}

/// A case's `NAME.files` (2025-09) are in its submission's working folder, folders and all,
/// and in its input validator's; they stay that case's, and what they hold is never a case.
#[test]
fn a_cases_files_are_in_the_working_folder_of_its_runs() {
    let (dir, package) = accepted_only("tle_margin_2025");
    let write = |path: &str, text: &str| {
        let path = package.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let reads_its_files = "import os\n\
        names = ['note.txt', 'deep/inner.txt', 'alias.txt']\n\
        found = [open(n).read().strip() for n in names if os.path.exists(n)]\n\
        found += ['(a link)'] if os.path.islink('alias.txt') else []\n\
        print(' '.join(found) or 'NONE')\n";
    write("submissions/accepted/one.py", reads_its_files);
    // Case 1 has files and case 2, which runs after it in the same folder, none.
    write("data/secret/1.ans", "hello there hello (a link)\n");
    write("data/secret/1.files/note.txt", "hello\n");
    write("data/secret/1.files/deep/inner.txt", "there\n");
    // A link stays a link, so that one out of the package reaches nothing it should not.
    std::os::unix::fs::symlink("note.txt", package.join("data/secret/1.files/alias.txt")).unwrap();
    write("data/secret/2.in", "2\n");
    write("data/secret/2.ans", "NONE\n");
    // Not a case: it has no answer, and would be refused as one.
    write("data/secret/1.files/deep/lone.in", "1\n");
    // Refuses case 1 without its files, and case 2 with them.
    let validator = "import os, sys\n\
        case_one = sys.stdin.read().strip() == '1'\n\
        sys.exit(42 if os.path.exists('note.txt') == case_one else 43)\n";
    write("input_validators/files.py", validator);
    let (code, table) = judge_verify(&package, &["--jobs", "1"]);
    assert_eq!(code, 0, "{table}");
    assert!(!table.contains("refused by"), "{table}");
    assert_eq!(
        &row(&table, "accepted/one.py")[2..],
        ["AC 2", "ok"],
        "{table}"
    );
    // A kept result's key holds the case's files: one edited, that case alone runs again.
    let cache = dir.path().join("cache");
    let run = || {
        let output = judge_in(dir.path())
            .env("JUDGE_CACHE_DIR", &cache)
            .env("JUDGE_CACHE_SAMPLE_PERCENT", "0")
            .args(["run", "tle_margin_2025", "--format", "json"])
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let cases = report["problems"][0]["cases"].as_array().unwrap().clone();
        (cases.iter())
            .map(|case| format!("{} {} {}", case["name"], case["verdict"], case["cached"]))
            .collect::<Vec<_>>()
    };
    run();
    write("data/secret/1.files/deep/inner.txt", "you\n");
    let rerun = run();
    assert_eq!(
        rerun,
        [r#""secret/1" "WA" null"#, r#""secret/2" "AC" true"#],
        "{rerun:?}"
    );
    // A pipe cannot be copied (it would wait forever for a writer): the package's fault.
    let pipe = package.join("data/secret/1.files/pipe");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    assert!(made.unwrap().success());
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 2, "{table}");
    let said = format!("error: {}: is in a case's .files folder", pipe.display());
    assert!(table.contains(&said), "{table}");
}

/// An output validator or grader that does not compile is one package error, named with the
/// compiler's first error, and no submission is judged, as problemtools stops there.
#[test]
fn a_judging_program_that_does_not_compile_is_one_package_error() {
    let (_dir, package) = package("validator_folder_2025");
    let source = package.join("output_validator/validate.cc");
    let code = std::fs::read_to_string(&source).unwrap();
    std::fs::write(&source, format!("{code}\nint broken = ;\n")).unwrap();
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 2, "{table}");
    let said: Vec<&str> = table.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(said.len(), 1, "{table}");
    assert!(
        said[0].starts_with("error: output_validator: the output validator does not compile: ")
            && said[0].contains("validate.cc:")
            && said[0].contains("error: expected"),
        "{table}"
    );
    for submission in [
        "accepted/exact.py",
        "accepted/off_by_one.py",
        "wrong_answer/off_by_five.py",
    ] {
        assert_eq!(
            &row(&table, submission)[2..],
            [
                "not judged",
                "skipped (the package's judging programs do not build)"
            ],
            "{table}"
        );
    }
    assert!(!table.contains("none of its"), "{table}");
    // A grader's the same.
    let (_dir, graded) = self::package("scoring_grader_legacy");
    std::fs::remove_file(graded.join("graders/grader.py")).unwrap();
    std::fs::write(
        graded.join("graders/grader.cc"),
        "int main() { return x; }\n",
    )
    .unwrap();
    let (code, table) = judge_verify(&graded, &[]);
    assert_eq!(code, 2, "{table}");
    assert!(
        table.contains("error: graders/grader.cc: the grader does not compile: "),
        "{table}"
    );
}

/// A `limits.time_limit` must leave the slowest accepted submission `ac_to_time_limit` times
/// its time (2 by default), as the format says and problemtools holds it (an error there).
#[test]
fn a_fixed_time_limit_too_tight_for_the_accepted_submissions_is_the_packages_fault() {
    let (dir, package) = accepted_only("tle_margin_2025");
    // About 0.6 s of CPU: accepted under the 1 s limit, which 2 x 0.6 s does not fit in.
    std::fs::write(
        package.join("submissions/accepted/spins.py"),
        "import time\nwhile time.process_time() < 0.6:\n    pass\nprint(1)\n",
    )
    .unwrap();
    let output = judge_in(dir.path())
        .args(["verify", "tle_margin_2025"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{table}");
    assert_eq!(
        &row(&table, "accepted/spins.py")[2..],
        ["AC 1", "ok"],
        "{table}"
    );
    assert!(
        table.contains("error: limits.time_limit (1 s) is tighter than the slowest accepted submission allows:"),
        "{table}"
    );
    std::fs::remove_file(package.join("submissions/accepted/spins.py")).unwrap();
    let (code, table) = judge_verify(&package, &[]);
    assert_eq!(code, 0, "{table}");
    assert!(!table.contains("tighter"), "{table}");
}

/// problemtools keeps a legacy package's promise that holds only with the margin's extra
/// time ("OK with extra time"), and warns; the row says what it got under the limit.
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn a_legacy_promise_kept_with_extra_time_is_kept_and_warned_of() {
    verified(
        "extra_time_legacy",
        &[
            ("wrong_answer/slow_and_wrong.py", "TLE 1", "ok"),
            ("time_limit_exceeded/slow_then_stuck.py", "TLE 1", "ok"),
        ],
        "warning: wrong_answer/slow_and_wrong.py: sensitive to the time limit: TLE 1 under 1 s, \
         WA 1 under 2 s (kept with the extra time, as problemtools keeps it)",
    );
    // TLE under both limits (AC 1, TLE 1 with the extra time): the verdict does not depend on
    // the limit, and problemtools warns only when the verdict or the score does.
    let (_, table) = verify("extra_time_legacy");
    assert!(!table.contains("slow_then_stuck.py: sensitive"), "{table}");
}

/// A legacy scoring submission is graded under the limit, as problemtools grades it: the
/// case too slow for it is rejected and scores nothing, so the grader says TLE, though with
/// the margin's extra time it would have said AC with the full score.
#[test]
#[ignore = "runs submissions to their time limits: .ci/run runs it"]
fn a_scored_submission_is_graded_at_the_limit() {
    verified(
        "scoring_tle_legacy",
        &[
            (
                "accepted/twice.py",
                "AC 2 · score 100/100 · grader AC",
                "ok",
            ),
            (
                "time_limit_exceeded/slow_on_two.py",
                "AC 1, TLE 1 · score 50/100 · grader TLE",
                "ok",
            ),
        ],
        "slow_on_two.py: sensitive to the time limit: AC 1, TLE 1 · score 50/100 · grader TLE \
         under 1 s, AC 2 · score 100/100 · grader AC under 2 s",
    );
}

/// The score `judge run --format json` gives `submission` of the fixture package `name`:
/// the total, then each part's name and score.
fn json_score(name: &str, submission: &str) -> (f64, Vec<(String, f64)>) {
    let package = fixture(&format!("kattis/{name}"));
    let output = judge()
        .args(["--format", "json", "run", &package, "--solution"])
        .arg(format!("{package}/submissions/{submission}"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let score = &report["problems"][0]["score"];
    let parts = score["parts"]
        .as_array()
        .unwrap_or_else(|| panic!("no score parts in {report}"))
        .iter()
        .map(|part| {
            let name = part["name"].as_str().unwrap().to_owned();
            (name, part["score"].as_f64().unwrap())
        })
        .collect();
    (score["score"].as_f64().unwrap(), parts)
}

fn parts(list: &[(&str, f64)]) -> Vec<(String, f64)> {
    list.iter()
        .map(|(name, score)| (name.to_string(), *score))
        .collect()
}

#[test]
fn a_legacy_scoring_package_is_scored_by_the_default_grader() {
    // small: min over its cases of accept_score 30; large: min of 70, `on_reject: break`;
    // secret sums them and is accepted if one group is; the sample is ignored.
    let (code, table) = verify("scoring_legacy");
    assert_eq!(code, 1, "{table}");
    for (submission, got, result) in [
        (
            "accepted/exact.py",
            "AC 5 · score 100/100 · grader AC",
            "ok",
        ),
        // float is exact for small only: 30, and accepted as a whole; large breaks at its
        // first rejection, so large/2 is not judged (it could not count), as problemtools
        // stops there.
        (
            "partially_accepted/float.py",
            "AC 3, WA 1 · score 30/100 · grader AC",
            "ok",
        ),
        // Accepted short of the full score: kept, with problemtools' warning (below).
        (
            "accepted/short.py",
            "AC 3, WA 1 · score 30/100 · grader AC",
            "ok",
        ),
        // The best score is not a partial one.
        (
            "partially_accepted/full.py",
            "AC 5 · score 100/100 · grader AC",
            "MISMATCH",
        ),
        (
            "wrong_answer/zero.py",
            "WA 4 · score 0/100 · grader WA",
            "ok",
        ),
        // A folder other than accepted/ names the grader's verdict, as problemtools checks
        // it: float.py's cases, accepted as a whole, are not a wrong answer.
        (
            "wrong_answer/half.py",
            "AC 3, WA 1 · score 30/100 · grader AC",
            "MISMATCH",
        ),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
    for warning in [
        "warning: accepted/short.py: did not attain the full score",
        // sample has no grader_flags of its own: it inherits the top's ignore_sample.
        "warning: data/sample/testdata.yaml: `grader_flags: ignore_sample`, its own or inherited",
    ] {
        assert!(table.contains(warning), "no `{warning}` in:\n{table}");
    }
    assert!(!table.contains("exact.py: did not attain"), "{table}");
    let (score, groups) = json_score("scoring_legacy", "partially_accepted/float.py");
    assert_eq!(score, 30.0);
    assert_eq!(
        groups,
        parts(&[
            // The sample's score (accept_score 1) is left out by `ignore_sample` above it.
            ("sample", 1.0),
            // large/2 would be accepted, but after large/1's rejection `break` ends the group.
            ("secret/large", 0.0),
            ("secret/small", 30.0),
            ("secret", 30.0),
        ])
    );
}

#[test]
fn a_legacy_validator_gives_each_case_its_score() {
    // score.txt is 10 less the distance to the answer: 10 + 10, and one off 9 + 9.
    let (code, table) = verify("scoring_validator_legacy");
    assert_eq!(code, 0, "{table}");
    assert_eq!(
        &row(&table, "accepted/same.py")[2..],
        ["AC 2 · score 20/20 · grader AC", "ok"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "partially_accepted/one_off.py")[2..],
        ["AC 2 · score 18/20 · grader AC", "ok"],
        "{table}"
    );
}

/// A validator that writes a score and then rejects is the package's fault (a judge error, as
/// the format and problemtools have it), named, and the run's own figures are kept.
#[test]
fn a_score_written_beside_a_rejection_is_a_judge_error_that_names_the_validator() {
    let (dir, package) = package("scoring_validator_legacy");
    let validator = package.join("output_validators/close.py");
    let text = std::fs::read_to_string(&validator).unwrap();
    let rejecting = text.replace("sys.exit(42)", "sys.exit(43)");
    assert_ne!(rejecting, text, "close.py accepts with 42");
    std::fs::write(&validator, rejecting).unwrap();
    let output = judge()
        .current_dir(dir.path())
        .args(["run", "scoring_validator_legacy", "--solution"])
        .arg(package.join("submissions/accepted/same.py"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "output_validators/close.py rejected the output (exit 43) but wrote score.txt"
        ),
        "{stdout}"
    );
    let je = stdout
        .lines()
        .find(|line| line.trim_start().starts_with("JE"))
        .unwrap();
    assert!(!je.contains(" 0 KiB"), "the run's memory is kept: {je}");
}

#[test]
fn a_2025_scoring_package_sums_its_groups_and_submissions_yaml_checks_scores() {
    // secret (100) = easy (pass-fail, 40) + hard (sum of 3 cases, 20 each).
    let (code, table) = verify("scoring_2025");
    assert_eq!(code, 1, "{table}");
    for (submission, got, result) in [
        ("accepted/exact.py", "AC 6 · score 100/100", "ok"),
        // easy 40 and one case of hard, 20.
        ("partial/float.py", "AC 4, WA 2 · score 60/100", "ok"),
        ("partial/in_range.py", "AC 4, WA 2 · score 60/100", "ok"),
        (
            "partial/promised_too_much.py",
            "AC 4, WA 2 · score 60/100",
            "MISMATCH",
        ),
        ("wrong_answer/zero.py", "WA 6 · score 0/100", "ok"),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
    let (score, groups) = json_score("scoring_2025", "partial/float.py");
    assert_eq!(score, 60.0);
    assert_eq!(
        groups,
        parts(&[("secret/easy", 40.0), ("secret/hard", 20.0)])
    );
}

/// submissions.yaml holds every submission its patterns match, in our own folders too: a
/// `partially_accepted/` file must keep both its folder's promise and the file's requirements.
#[test]
fn submissions_yaml_speaks_for_partially_accepted_too() {
    let (dir, package) = package("scoring_2025");
    let submissions = package.join("submissions");
    std::fs::create_dir(submissions.join("partially_accepted")).unwrap();
    std::fs::rename(
        submissions.join("partial/float.py"),
        submissions.join("partially_accepted/float.py"),
    )
    .unwrap();
    let yaml = submissions.join("submissions.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    for (asked, result) in [("[0, 10]", "MISMATCH"), ("60", "ok")] {
        let entry = format!("partially_accepted/float.py:\n  score: {asked}\n");
        std::fs::write(
            &yaml,
            text.replace(
                "partial/float.py:\n  permitted: [AC, WA]\n  score: 60\n",
                &entry,
            ),
        )
        .unwrap();
        let output = judge_in(dir.path())
            .args(["verify", "scoring_2025"])
            .output()
            .unwrap();
        let table = String::from_utf8_lossy(&output.stdout).into_owned();
        let row = row(&table, "partially_accepted/float.py");
        assert_eq!(row[3], result, "score {asked}:\n{table}");
    }
}

#[test]
fn bad_scoring_configuration_is_an_error_naming_file_and_line() {
    let (dir, package) = package("scoring_2025");
    std::fs::write(
        package.join("data/secret/hard/test_group.yaml"),
        "max_score: 60\nscore_aggregation: average\n",
    )
    .unwrap();
    judge_in(dir.path())
        .args(["verify", "scoring_2025"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "hard/test_group.yaml: line 2: `score_aggregation` expected `pass-fail`, `sum` or `min`",
        ));
    std::fs::write(
        package.join("data/secret/hard/test_group.yaml"),
        "score_aggregation: sum\n",
    )
    .unwrap();
    judge_in(dir.path())
        .args(["verify", "scoring_2025"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs a `max_score`"));
}

#[test]
fn a_2023_draft_package_with_scoring_maps_is_scored_as_2025_is() {
    // secret (100) = easy (`scoring: {score: 40}`, pass-fail) + hard (60, sum of 3 cases).
    let (code, table) = verify("scoring_draft_2023");
    assert_eq!(code, 1, "{table}");
    for (submission, got, result) in [
        ("accepted/exact.py", "AC 6 · score 100/100", "ok"),
        (
            "partially_accepted/float.py",
            "AC 4, WA 2 · score 60/100",
            "ok",
        ),
        (
            "partially_accepted/full.py",
            "AC 6 · score 100/100",
            "MISMATCH",
        ),
        ("wrong_answer/zero.py", "WA 6 · score 0/100", "ok"),
    ] {
        assert_eq!(&row(&table, submission)[2..], [got, result], "{table}");
    }
}

/// A language that submissions.yaml names by other than a code of the format's table is the
/// package's error (exit 2); a code of the table that this judge does not run only skips.
#[test]
fn a_language_outside_the_format_table_is_an_error() {
    let (code, table) = verify("language_code_2025");
    assert_eq!(code, 2, "{table}");
    assert_eq!(
        &row(&table, "accepted/plain.py")[2..],
        ["AC 1", "ok"],
        "{table}"
    );
    let named = row(&table, "accepted/named.py");
    assert_eq!(named[2], "not judged", "{table}");
    assert!(
        named[3].starts_with(
            "ERROR: submissions.yaml names its language `Python 3`, which is not a code"
        ),
        "{table}"
    );
}

/// Kattis builds C on Ubuntu, whose GCC protects the stack: an overrun stack buffer is a
/// run-time error there, whatever this machine's compiler does by default.
#[test]
fn a_stack_buffer_overflow_is_a_run_time_error_as_on_kattis() {
    verified(
        "stack_protector_legacy",
        &[
            ("accepted/lower.c", "AC 1", "ok"),
            ("run_time_error/short_buffer.c", "RE 1", "ok"),
        ],
        "2 submissions, 0 mismatches",
    );
}

/// 2025-09's brute_force/ is judged by its default requirement, with no submissions.yaml.
#[test]
fn brute_force_submissions_must_fail_but_never_answer_wrong_2025() {
    let (code, table) = verify("brute_force_2025");
    assert_eq!(code, 1, "{table}");
    assert_eq!(
        &row(&table, "brute_force/gives_up.py")[2..],
        ["RE 1", "ok"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "brute_force/wrong.py")[2..],
        ["WA 1", "MISMATCH"],
        "{table}"
    );
}

/// Without `limits.memory` the limit is the system's 1024 MiB, as problemtools has it.
#[test]
fn verified_default_memory_limit_legacy() {
    verified(
        "memory_default_legacy",
        &[("run_time_error/holds_1100_mib.py", "RE 1", "ok")],
        "2 submissions, 0 mismatches",
    );
}

/// Kattis' memory limit is the JVM's heap (`-Xmx`), as problemtools sets it: a program whose
/// heap fits is accepted though the JVM beside it takes the whole past the limit, and one
/// whose heap does not is out of memory.
#[test]
fn a_java_programs_limit_is_its_heap_on_kattis() {
    let repository = repository_with(&[
        (
            "problems/heap/problem.toml",
            "profile = \"kattis\"\nmemory_limit_mib = 64\n",
        ),
        ("problems/heap/tests/fits.in", "56\n"),
        ("problems/heap/tests/fits.out", "56\n"),
        ("problems/heap/tests/over.in", "80\n"),
        ("problems/heap/tests/over.out", "80\n"),
        (
            "Heap.java",
            "public class Heap {\n    public static void main(String[] args) {\n        \
             int mib = new java.util.Scanner(System.in).nextInt();\n        \
             byte[][] held = new byte[mib][];\n        \
             for (int i = 0; i < mib; i++) {\n            held[i] = new byte[1 << 20];\n            \
             for (int j = 0; j < held[i].length; j += 4096) held[i][j] = 1;\n        }\n        \
             System.out.println(held.length);\n    }\n}\n",
        ),
    ]);
    // Kotlin as Kattis runs it too (`kotlin -J-Xmx...`), where kotlinc is installed.
    std::fs::write(
        repository.path().join("Heap.kt"),
        "fun main() {\n    val mib = readLine()!!.trim().toInt()\n    \
         val held = Array(mib) { ByteArray(1 shl 20) }\n    \
         for (b in held) { var j = 0; while (j < b.size) { b[j] = 1; j += 4096 } }\n    \
         println(held.size)\n}\n",
    )
    .unwrap();
    let kotlin = on_path("kotlinc");
    if !kotlin {
        skip_off_ci("no kotlinc on PATH: Heap.kt is not judged");
    }
    for solution in ["Heap.java", "Heap.kt"]
        .into_iter()
        .take(1 + usize::from(kotlin))
    {
        let output = judge_in(repository.path())
            .args(["run", "heap", "--solution", solution])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{solution}: {report}");
        let verdict = |case: &str| {
            let line = report.lines().find(|line| line.contains(case));
            line.unwrap_or_else(|| panic!("no {case}:\n{report}"))
                .trim()
                .to_owned()
        };
        assert!(report.contains("1/2 accepted"), "{solution}: {report}");
        assert!(verdict(" over ").starts_with("MLE"), "{solution}: {report}");
    }
}

/// A Python output validator's fault is told by the line that says it: the compiler's
/// `SyntaxError` with where, a crash's last traceback line.
#[test]
fn a_python_validators_fault_is_told_by_its_error_line() {
    let package = |validator: &str| {
        repository_with(&[
            ("p/problem.yaml", "name: P\nvalidation: custom\n"),
            ("p/data/sample/1.in", "1\n"),
            ("p/data/sample/1.ans", "1\n"),
            ("p/data/secret/1.in", "2\n"),
            ("p/data/secret/1.ans", "2\n"),
            ("p/output_validators/v/v.py", validator),
            ("p/submissions/accepted/echo.py", "print(input())\n"),
        ])
    };
    let broken = package("print \"hi\"\n");
    let output = judge_in(broken.path())
        .args(["verify", "p"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("v.py\", line 1: SyntaxError: "), "{said}");
    let crashing = package("raise ValueError('no judgement here')\n");
    let output = judge_in(crashing.path())
        .args(["run", "p"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("which its protocol does not allow: ValueError: no judgement here"),
        "{said}"
    );
}

/// A package without samples is judged, with the warning problemtools gives.
#[test]
fn a_package_without_samples_is_warned_of() {
    let package = |with_sample: bool| {
        let mut files = vec![
            ("p/problem.yaml", "name: P\n"),
            ("p/data/secret/1.in", "2\n"),
            ("p/data/secret/1.ans", "2\n"),
            ("p/submissions/accepted/echo.py", "print(input())\n"),
        ];
        if with_sample {
            files.extend([
                ("p/data/sample/1.in", "1\n"),
                ("p/data/sample/1.ans", "1\n"),
            ]);
        }
        repository_with(&files)
    };
    let warning = "warning: no sample data: data/sample/ holds no case";
    let without = stdout_of(judge_in(package(false).path()).args(["verify", "p"]), 0);
    assert!(without.contains(warning), "{without}");
    let with = stdout_of(judge_in(package(true).path()).args(["verify", "p"]), 0);
    assert!(!with.contains(warning), "{with}");
}
