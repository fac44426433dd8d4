//! Interactive and multi-pass problems: Kattis packages whose output validator talks with the
//! submission (`fixtures/kattis/interactive_*`, a guessing game) or runs it again on its
//! `nextpass.in` (`fixtures/kattis/multipass_2025`), and our own problems with a testlib
//! interactor. Every expected verdict below was decided by hand from the package format's
//! rules, as the module `interactive` lists them.

use crate::common::*;

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

/// A copy of `fixtures/kattis/<name>` in a fresh temporary folder.
fn package(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(name);
    copy_tree(Path::new(&fixture(&format!("kattis/{name}"))), &copy);
    (dir, copy)
}

/// The `got` and `result` columns of `submission`'s row in a verify table.
fn got(table: &str, submission: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|line| line.starts_with(&format!("{submission} ")))
        .unwrap_or_else(|| panic!("no row for {submission} in:\n{table}"));
    let columns: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    columns[2..].iter().map(|c| c.to_string()).collect()
}

/// `judge verify` of a copy of the package `name` shows each row's verdict, as expected.
fn verifies(name: &str, rows: &[(&str, &str)]) {
    let (dir, _package) = package(name);
    let output = judge_in(dir.path())
        .args(["verify", name])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{name}:\n{table}");
    for (submission, verdict) in rows {
        assert_eq!(
            got(&table, submission),
            [*verdict, "ok"],
            "{name}, {submission}:\n{table}"
        );
    }
    assert!(table.contains(", 0 mismatches"), "{name}:\n{table}");
}

#[test]
fn an_interactive_package_is_verified_as_the_format_says() {
    verifies(
        "interactive_2025",
        &[
            ("accepted/bisect.py", "AC 3"),
            // It ends first, with an error.
            ("run_time_error/crash.py", "RE 1"),
            // The validator accepts and ends; the submission's own crash decides.
            ("run_time_error/crash_after_correct.py", "RE 1"),
            // Both wait for each other: the submission's time.
            ("time_limit_exceeded/no_flush.py", "TLE 1"),
            // The validator rejects first; the crash that follows does not count.
            ("wrong_answer/always_one.py", "WA 1"),
        ],
    );
}

#[test]
fn a_validator_that_closes_its_output_ends_the_submissions_input() {
    // The validator closes its output while it runs: the submission gets the end of its
    // input then, not when the validator ends (which waits for the sum).
    verifies(
        "interactive_closed_output_2025",
        &[
            ("accepted/to_the_end.py", "AC 1"),
            ("wrong_answer/off_by_one.py", "WA 1"),
        ],
    );
}

#[test]
fn a_legacy_interactive_package_is_verified_as_the_format_says() {
    verifies(
        "interactive_legacy",
        &[
            ("accepted/bisect.py", "AC 2"),
            ("wrong_answer/always_one.py", "WA 1"),
        ],
    );
}

#[test]
fn a_multi_pass_package_is_verified_as_the_format_says() {
    verifies(
        "multipass_2025",
        &[
            ("accepted/shift.py", "AC 2"),
            ("run_time_error/no_decoder.py", "RE 1"),
            ("wrong_answer/forgets.py", "WA 1"),
        ],
    );
}

/// `judge run` of one submission of a package copy: its report.
fn run(dir: &Path, package: &str, submission: &str, code: i32) -> String {
    run_cases(dir, package, submission, code, &[])
}

/// `run`, judging only the cases `--case` picks.
fn run_cases(dir: &Path, package: &str, submission: &str, code: i32, cases: &[&str]) -> String {
    let output = judge_in(dir)
        .args([
            "run",
            package,
            "--solution",
            &format!("{package}/submissions/{submission}"),
        ])
        .args(cases.iter().flat_map(|case| ["--case", case]))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{submission}:\n{report}");
    report
}

/// An interactive case's `NAME.files` are in its submission's working folder too.
#[test]
fn an_interactive_submission_finds_its_cases_files() {
    let (dir, package) = package("interactive_2025");
    let bisect = fs::read_to_string(package.join("submissions/accepted/bisect.py")).unwrap();
    let checks = "import os, sys\nif not os.path.exists('hint.txt'):\n    sys.exit(3)\n";
    let submission = package.join("submissions/accepted/with_hint.py");
    fs::write(submission, format!("{checks}{bisect}")).unwrap();
    for case in ["sample/1", "secret/1", "secret/2"] {
        let files = package.join(format!("data/{case}.files"));
        fs::create_dir(&files).unwrap();
        fs::write(files.join("hint.txt"), "guess well\n").unwrap();
    }
    run(dir.path(), "interactive_2025", "accepted/with_hint.py", 0);
}

#[test]
fn the_report_says_why_an_interaction_failed() {
    let (dir, _package) = package("interactive_2025");
    let report = run(
        dir.path(),
        "interactive_2025",
        "wrong_answer/always_one.py",
        1,
    );
    // The validator's judge message, not the submission's crash on the end of its input.
    assert!(report.contains("7 guesses, none correct"), "{report}");
    assert!(!report.contains("RE ("), "{report}");
    // One case: it waits for the wall-clock backstop (again, alone, only if its validator
    // may have been kept from a CPU meanwhile).
    let report = run_cases(
        dir.path(),
        "interactive_2025",
        "time_limit_exceeded/no_flush.py",
        1,
        &["secret/1"],
    );
    assert!(
        report.contains("stopped by the wall-clock backstop"),
        "{report}"
    );
    let (dir, _package) = package("multipass_2025");
    let report = run(dir.path(), "multipass_2025", "wrong_answer/forgets.py", 1);
    assert!(report.contains("pass 2: decoded 6, expected 5"), "{report}");
}

/// The multi-pass package with its validator replaced by `validator` (Python).
fn multipass_with_validator(validator: &str) -> (tempfile::TempDir, PathBuf) {
    let (dir, package) = package("multipass_2025");
    fs::write(package.join("output_validator/passes.py"), validator).unwrap();
    (dir, package)
}

#[test]
fn a_validator_that_breaks_the_multi_pass_rules_is_a_judge_error() {
    for (validator, message) in [
        (
            // Asks for a third pass where two are allowed.
            "import sys\nopen(sys.argv[3] + 'nextpass.in', 'w').write('encode 1\\n')\nsys.exit(42)\n",
            "asked for pass 3 (it wrote nextpass.in), but `validation_passes` is 2",
        ),
        (
            // Rejects and yet asks for another pass.
            "import sys\nopen(sys.argv[3] + 'nextpass.in', 'w').write('encode 1\\n')\nsys.exit(43)\n",
            "wrote nextpass.in but did not accept (exit 42)",
        ),
        (
            // Exit 0 is no judgement.
            "import sys\nsys.exit(0)\n",
            "checker ended with exit 0, which its protocol does not allow",
        ),
    ] {
        let (dir, _package) = multipass_with_validator(validator);
        let report = run(dir.path(), "multipass_2025", "accepted/shift.py", 1);
        assert!(report.contains("JE"), "{report}");
        assert!(report.contains(message), "{message}:\n{report}");
    }
}

#[test]
fn an_interactive_package_needs_an_output_validator() {
    let (dir, package) = package("interactive_2025");
    fs::remove_dir_all(package.join("output_validator")).unwrap();
    judge_in(dir.path())
        .args(["run", "interactive_2025"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problem.yaml: line 5: an interactive problem needs an output validator",
        ));
}

/// A testlib interactor in Rust for the guessing game: `interactor input output answer`, the
/// secret in the input file, exit 0 accepted, 1 wrong answer.
const INTERACTOR: &str = r#"use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secret: u32 = std::fs::read_to_string(&args[1]).unwrap().trim().parse().unwrap();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    for _ in 0..7 {
        let Some(Ok(line)) = lines.next() else {
            eprintln!("no guess");
            std::process::exit(1);
        };
        let guess: u32 = match line.trim().parse() {
            Ok(guess) => guess,
            Err(_) => {
                eprintln!("not a number");
                std::process::exit(2);
            }
        };
        let reply = if guess == secret { "correct" } else if guess < secret { "higher" } else { "lower" };
        writeln!(out, "{reply}").unwrap();
        out.flush().unwrap();
        if guess == secret {
            std::fs::write(&args[2], format!("{guess}\n")).unwrap();
            std::process::exit(0);
        }
    }
    eprintln!("7 guesses, none correct");
    std::process::exit(1);
}
"#;

#[test]
fn our_problem_with_a_testlib_interactor_is_judged_interactively() {
    let solution = fs::read_to_string(fixture(
        "kattis/interactive_2025/submissions/accepted/bisect.py",
    ))
    .unwrap();
    let wrong = fs::read_to_string(fixture(
        "kattis/interactive_2025/submissions/wrong_answer/always_one.py",
    ))
    .unwrap();
    let repo = repository_with(&[
        (
            "problems/guess/problem.toml",
            "name = \"Guess\"\nprofile = \"boj\"\ntime_limit_ms = 1000\ninteractor = \"interactor.rs\"\nsolution = \"bisect.py\"\n",
        ),
        ("problems/guess/interactor.rs", INTERACTOR),
        ("problems/guess/bisect.py", &solution),
        ("problems/guess/always_one.py", &wrong),
        ("problems/guess/tests/1.in", "37\n"),
        ("problems/guess/tests/1.out", "37\n"),
        ("problems/guess/tests/2.in", "100\n"),
        ("problems/guess/tests/2.out", "100\n"),
    ]);
    judge_in(repo.path())
        .args(["run", "guess"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2/2 accepted"));
    judge_in(repo.path())
        .args(["run", "guess", "--solution", "problems/guess/always_one.py"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("0/2 accepted (WA 2)"))
        .stdout(predicate::str::contains("7 guesses, none correct"));
    // With a checker beside it, the checker then judges what the interactor wrote (`tout`),
    // as Polygon judges: here one that rejects whatever it reads.
    fs::write(
        repo.path().join("problems/guess/picky.py"),
        "import sys\nsys.stderr.write('the checker read ' + sys.argv[2])\nsys.exit(1)\n",
    )
    .unwrap();
    fs::write(
        repo.path().join("problems/guess/problem.toml"),
        "interactor = \"interactor.rs\"\nchecker = \"picky.py\"\nsolution = \"bisect.py\"\n",
    )
    .unwrap();
    judge_in(repo.path())
        .args(["run", "guess"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("0/2 accepted (WA 2)"))
        .stdout(predicate::str::contains("the checker read /"));
    // That checker is a testlib one: another protocol is an error naming the line.
    fs::write(
        repo.path().join("problems/guess/problem.toml"),
        "interactor = \"interactor.rs\"\nchecker = \"picky.py\"\nchecker_protocol = \"kattis\"\n",
    )
    .unwrap();
    judge_in(repo.path())
        .args(["run", "guess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problem.toml: line 1: `interactor` talks in the testlib protocol",
        ));
}

#[test]
fn a_hint_inside_a_package_names_it_as_typed_there() {
    // Judged from inside, the package is the root: its hint says `.`, which works there
    // (an empty path, `''`, does not).
    let (_dir, package) = package("interactive_2025");
    let output = judge_in(&package)
        .args([
            "run",
            ".",
            "--solution",
            "submissions/wrong_answer/always_one.py",
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains(
            "judge run . --solution submissions/wrong_answer/always_one.py --case secret/1"
        ),
        "{report}"
    );
}
