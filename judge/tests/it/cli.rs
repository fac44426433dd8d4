//! The real binary, as a user runs it: exit codes, messages naming the file, the report's
//! shape (with times and memory redacted), and the repository's own problems all accepted.

use crate::common::*;

use predicates::prelude::*;

/// Times and memory figures vary from run to run; the shape of the report does not. Each
/// line's words joined by single spaces, with every figure before a unit replaced by `N`.
fn redacted(output: &[u8]) -> String {
    let is_unit = |word: &str| {
        matches!(
            word.trim_end_matches(','),
            "ms" | "s" | "KiB" | "MiB" | "GiB"
        )
    };
    let is_figure =
        |word: &str| word.chars().all(|c| c.is_ascii_digit() || c == '.') && !word.is_empty();
    String::from_utf8_lossy(output)
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let redacted: Vec<&str> = words
                .iter()
                .enumerate()
                .map(|(i, word)| match words.get(i + 1) {
                    Some(next) if is_figure(word) && is_unit(next) => "N",
                    // The size unit depends on the figure too.
                    _ if is_unit(word)
                        && i > 0
                        && is_figure(words[i - 1])
                        && word.ends_with("iB") =>
                    {
                        if word.ends_with(',') {
                            "B,"
                        } else {
                            "B"
                        }
                    }
                    _ => word,
                })
                .collect();
            redacted.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_wrong_answer_points_at_the_line_with_a_diff() {
    let output = judge()
        .current_dir(repository_root())
        .args(["run", &fixture("verdicts"), "--solution"])
        .arg(fixture("verdicts/solutions/wrong_answer.rs"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report = redacted(&output);
    let expected = "\
WA 1 N ms N B
line 1: expected `3`, got `4`
diff: - expected, + actual
- 1 │ 3
+ 1 │ 4
WA 2 N ms N B
line 1: expected `42`, got `43`
diff: - expected, + actual
- 1 │ 42
+ 1 │ 43
verdicts: 0/2 accepted (WA 2) · max N ms, N B
";
    assert!(
        report.contains(expected),
        "expected\n{expected}\nin\n{report}"
    );
    assert!(
        report.contains("Summary: 1 problems, 2 cases: WA 2"),
        "{report}"
    );
}

#[test]
fn the_repository_problems_are_all_accepted() {
    judge()
        .current_dir(repository_root())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Summary: 4 problems"))
        .stdout(predicate::str::contains(" WA ").not());
}

#[test]
fn a_second_run_compiles_nothing() {
    let repository = repository_with(&[
        ("problems/sum/tests/1.in", "1 2\n"),
        ("problems/sum/tests/1.out", "3\n"),
        ("solutions/sum.rs", SUM_SOLUTION),
    ]);
    let cache = repository.path().join("cache");
    let run = || {
        let output = judge()
            .current_dir(repository.path())
            .env("JUDGE_CACHE_DIR", &cache)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(output).unwrap()
    };
    assert!(run().contains("compiled 1, cached 0"));
    let second = run();
    assert!(second.contains("compiled 0, cached 1"), "{second}");
    assert!(second.contains("solutions/sum.rs (cached)"), "{second}");
}

#[test]
fn a_broken_problem_does_not_stop_the_others() {
    let repository = repository_with(&[
        (
            "problems/a_broken/problem.toml",
            "name = \"x\"\ntime_limt_ms = 5\n",
        ),
        ("problems/a_broken/tests/1.in", "1\n"),
        ("problems/a_broken/tests/1.out", "1\n"),
        ("problems/b_unpaired/tests/1.in", "1\n"),
        ("problems/c_fine/tests/1.in", "1 2\n"),
        ("problems/c_fine/tests/1.out", "3\n"),
        ("solutions/c_fine.rs", SUM_SOLUTION),
        ("solutions/a_broken.rs", SUM_SOLUTION),
    ]);
    judge()
        .current_dir(repository.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/a_broken/problem.toml: line 2: unknown field `time_limt_ms`",
        ))
        .stderr(predicate::str::contains(
            "problems/b_unpaired/tests/1.in: input has no expected output",
        ))
        .stdout(predicate::str::contains("c_fine: 1/1 accepted"));
}

#[test]
fn a_compile_error_shows_the_compiler_message_and_others_still_run() {
    let repository = repository_with(&[
        ("problems/bad/tests/1.in", "1 2\n"),
        ("problems/bad/tests/1.out", "3\n"),
        ("solutions/bad.rs", "fn main() { let x: u32 = \"no\"; }\n"),
        ("problems/good/tests/1.in", "1 2\n"),
        ("problems/good/tests/1.out", "3\n"),
        ("solutions/good.rs", SUM_SOLUTION),
    ]);
    judge()
        .current_dir(repository.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "CE  the solution does not compile",
        ))
        .stdout(predicate::str::contains("error[E0308]: mismatched types"))
        .stdout(predicate::str::contains("good: 1/1 accepted"))
        .stdout(predicate::str::contains("1 CE"));
}

#[test]
fn unknown_problem_suggests_the_closest() {
    judge()
        .current_dir(repository_root())
        .args(["run", "boj_7862"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no problem named `boj_7862`"))
        .stderr(predicate::str::contains("did you mean `boj_7682`?"));
}

#[test]
fn usage_errors_exit_2() {
    judge()
        .current_dir(repository_root())
        .args(["run", "boj_7682", "boj_2615", "--solution", "x.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--solution needs exactly one PROBLEM",
        ));
    judge().arg("--jobs").arg("0").assert().code(2);
    judge()
        .current_dir(repository_root())
        .args(["run", "boj_7682", "--solution", "no/such/file.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no/such/file.rs: solution of `boj_7682` not found",
        ));
}

#[test]
fn list_works_from_any_folder_inside_the_repository() {
    judge()
        .current_dir(repository_root().join("problems/boj_7682/tests"))
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("boj_7682"))
        .stdout(predicate::str::contains("1000 ms"))
        .stdout(predicate::str::contains("128.0 MiB"))
        .stdout(predicate::str::contains("solutions/boj_7682.rs"));
}

#[test]
fn outside_a_repository_the_error_says_so() {
    let empty = tempfile::tempdir().unwrap();
    judge()
        .current_dir(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no `problems/` folder"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let run = |color: &str| {
        judge()
            .current_dir(repository_root())
            .args(["run", "boj_7682", "--color", color])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone()
    };
    assert!(run("always").contains(&0x1b));
    assert!(
        !run("auto").contains(&0x1b),
        "output to a pipe is not coloured"
    );
}
