//! Growing a corpus as a user does: `new`, `add`, `gen`, `bless`, `stress`, and the
//! committed corpora checked against their recipes and the facts they must reproduce.

use crate::common::*;

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

/// A repository with an empty `problems/` and a `solutions/Cargo.toml`.
fn empty_repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("problems")).unwrap();
    fs::create_dir_all(dir.path().join("solutions")).unwrap();
    fs::write(
        dir.path().join("solutions/Cargo.toml"),
        "[package]\nname = \"solutions\"\n",
    )
    .unwrap();
    dir
}

fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path).unwrap()
}

/// Every file below `dir` with its contents, to prove a command changed nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| (entry.path().to_path_buf(), fs::read(entry.path()).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn committed_corpora_match_their_recipes() {
    judge_in(&repository_root())
        .args(["gen", "--check"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("differ").not());
}

/// Lines of every `NAME.EXT` under a problem's tests folder group.
fn lines_of(problem: &str, group: &str, ext: &str) -> Vec<String> {
    let dir = repository_root()
        .join("problems")
        .join(problem)
        .join("tests")
        .join(group);
    let mut lines = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == ext) {
            lines.extend(read(&path).lines().map(str::to_owned));
        }
    }
    lines
}

#[test]
fn exhaustive_corpora_hold_every_board_and_the_known_counts() {
    // Programmers 160585: O moves first; 5,478 positions are reachable.
    let boards: std::collections::HashSet<String> =
        lines_of("programmers_160585", "exhaustive", "in")
            .into_iter()
            .collect();
    assert_eq!(boards.len(), 19_683);
    let answers = lines_of("programmers_160585", "exhaustive", "out");
    assert_eq!(answers.len(), 19_683);
    assert_eq!(answers.iter().filter(|a| *a == "1").count(), 5_478);

    // BOJ 7682: X moves first; 958 positions are final.
    let boards: std::collections::HashSet<String> = lines_of("boj_7682", "exhaustive", "in")
        .into_iter()
        .filter(|line| line != "end")
        .collect();
    assert_eq!(boards.len(), 19_683);
    let answers = lines_of("boj_7682", "exhaustive", "out");
    assert_eq!(answers.len(), 19_683);
    assert_eq!(answers.iter().filter(|a| *a == "valid").count(), 958);
}

#[test]
fn corpus_sizes_meet_their_floor() {
    let swea_boards: usize = lines_of("swea_11545", "random", "out").len();
    assert!(swea_boards >= 10_000, "{swea_boards}");
    let omok_cases = fs::read_dir(repository_root().join("problems/boj_2615/tests"))
        .unwrap()
        .map(|group| {
            let group = group.unwrap().path();
            fs::read_dir(group)
                .unwrap()
                .filter(|f| {
                    f.as_ref()
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|e| e == "in")
                })
                .count()
        })
        .sum::<usize>();
    assert!(omok_cases >= 300, "{omok_cases}");
}

#[test]
fn new_add_and_run_work_without_editing_a_file() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root)
        .args(["new", "sum", "--profile", "kattis"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "created problems/sum/reference.rs",
        ))
        .stdout(predicate::str::contains(
            "added [[bin]] `sum` to solutions/Cargo.toml",
        ));
    assert!(read(root.join("problems/sum/problem.toml")).contains("profile = \"kattis\""));
    judge_in(root)
        .args(["add", "sum", "--from-reference"])
        .write_stdin("1 2 3\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "added problems/sum/tests/manual/1.in and .out (expected output from reference.rs)",
        ));
    assert_eq!(read(root.join("problems/sum/tests/manual/1.out")), "6\n");
    fs::write(root.join("answer"), "5\n").unwrap();
    fs::write(root.join("input"), "2 3\n").unwrap();
    judge_in(root)
        .args([
            "add",
            "sum",
            "--name",
            "sample/1",
            "--input",
            "input",
            "--expected",
            "answer",
        ])
        .assert()
        .code(0);
    judge_in(root)
        .args(["run", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum: 2/2 accepted"));
    judge_in(root)
        .args(["list", "--provenance"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("manual/1"))
        .stdout(predicate::str::contains(
            "input: given; output: reference.rs (",
        ))
        .stdout(predicate::str::is_match(r"\n +sample/1 +hand-written\n").unwrap());

    // Refusals leave every file as it was.
    let before = snapshot(root);
    judge_in(root)
        .args(["new", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    judge_in(root)
        .args(["add", "sum", "--name", "manual/1", "--from-reference"])
        .write_stdin("9\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "case `manual/1` already exists: refusing to overwrite it",
        ));
    judge_in(root)
        .args(["add", "sum"])
        .write_stdin("9\n")
        .assert()
        .code(2);
    judge_in(root)
        .args(["add", "sum", "--name", "../escape", "--from-reference"])
        .write_stdin("9\n")
        .assert()
        .code(2);
    assert_eq!(snapshot(root), before);
}

#[test]
fn add_refuses_an_empty_input_or_answer_unless_allowed() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    std::fs::write(root.join("empty"), "").unwrap();
    std::fs::write(root.join("three"), "3\n").unwrap();
    for (input, expected) in [("empty", "three"), ("three", "empty")] {
        judge_in(root)
            .args(["add", "sum", "--input", input, "--expected", expected])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is empty: refused"));
    }
    judge_in(root)
        .args(["add", "sum", "--from-reference"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the input is empty"));
    assert!(!root.join("problems/sum/tests/manual").exists());
    judge_in(root)
        .args(["add", "sum", "--input", "three", "--expected", "empty"])
        .arg("--allow-empty")
        .assert()
        .code(0);
}

#[test]
fn add_refuses_when_the_reference_fails() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    judge_in(root)
        .args(["add", "sum", "--from-reference"])
        .write_stdin("not a number\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/sum/reference.rs: RE (exit 101) on the new case `manual/1`",
        ))
        // The reference's own message, not Rust's hint about backtraces.
        .stderr(predicate::str::contains("panicked at"))
        .stderr(predicate::str::contains("RUST_BACKTRACE").not());
    assert!(!root.join("problems/sum/tests/manual").exists());
}

#[test]
fn gen_rebuilds_generated_cases_and_never_touches_hand_written_ones() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "sum: 5 cases from the recipe: 5 written, 0 unchanged, 0 removed",
        ));
    judge_in(root)
        .args(["run", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("5/5 accepted"));
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(0);
    let first = read(root.join("problems/sum/tests/random/r-1.in"));
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 written, 5 unchanged"));
    assert_eq!(
        read(root.join("problems/sum/tests/random/r-1.in")),
        first,
        "generation is deterministic"
    );

    // A hand edit makes the case the user's: gen refuses, --check reports it, nothing moves.
    fs::write(root.join("problems/sum/tests/random/r-2.out"), "mine\n").unwrap();
    let before = snapshot(root);
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(2);
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "case `random/r-2` exists and was not written by `judge gen`",
        ));
    assert_eq!(snapshot(root), before);

    // Cases dropped from the recipe are removed only when the judge wrote them.
    fs::remove_file(root.join("problems/sum/tests/random/r-2.out")).unwrap();
    fs::remove_file(root.join("problems/sum/tests/random/r-2.in")).unwrap();
    let recipe =
        read(root.join("problems/sum/generators.toml")).replace("seeds = [1, 5]", "seeds = [1, 3]");
    fs::write(root.join("problems/sum/generators.toml"), recipe).unwrap();
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "no longer in the recipe: random/r-4",
        ));
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2 removed"));
    assert!(!root.join("problems/sum/tests/random/r-4.in").exists());
    assert!(root.join("problems/sum/tests/random/r-3.in").exists());
}

#[test]
fn bless_shows_changes_and_writes_only_what_the_judge_made_and_only_when_asked() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    judge_in(root).args(["gen", "sum"]).assert().code(0);
    fs::write(root.join("in"), "1 1\n").unwrap();
    fs::write(root.join("out"), "2\n").unwrap();
    judge_in(root)
        .args([
            "add",
            "sum",
            "--name",
            "sample/1",
            "--input",
            "in",
            "--expected",
            "out",
        ])
        .assert()
        .code(0);
    judge_in(root)
        .args(["bless", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 expected outputs differ"));

    // The reference now answers one more than before.
    let reference = read(root.join("problems/sum/reference.rs"))
        .replace("println!(\"{sum}\")", "println!(\"{}\", sum + 1)");
    fs::write(root.join("problems/sum/reference.rs"), reference).unwrap();
    let before = snapshot(root);
    judge_in(root)
        .args(["bless", "sum"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("problems/sum/tests/random/r-1.out: would change"))
        .stdout(predicate::str::contains("diff: - current, + reference"))
        .stdout(predicate::str::contains("problems/sum/tests/sample/1.out: hand-written, differs from the reference (left as it is)"))
        .stdout(predicate::str::contains("6 expected outputs differ from the reference, 0 rewritten; run with --write"));
    assert_eq!(
        snapshot(root),
        before,
        "bless without --write writes nothing"
    );

    judge_in(root)
        .env("CI", "true")
        .args(["bless", "sum", "--write"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not run on CI"));
    assert_eq!(snapshot(root), before);

    judge_in(root)
        .args(["bless", "sum", "--write"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "6 expected outputs differ from the reference, 5 rewritten",
        ));
    let r1_in = read(root.join("problems/sum/tests/random/r-1.in"));
    let sum: i64 = r1_in
        .split_whitespace()
        .map(|t| t.parse::<i64>().unwrap())
        .sum();
    assert_eq!(
        read(root.join("problems/sum/tests/random/r-1.out")),
        format!("{}\n", sum + 1)
    );
    assert_eq!(
        read(root.join("problems/sum/tests/sample/1.out")),
        "2\n",
        "hand-written output untouched"
    );
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(0);
}

#[test]
fn the_reference_may_not_be_the_solution() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    fs::write(
        root.join("problems/sum/problem.toml"),
        "solution = \"reference.rs\"\n",
    )
    .unwrap();
    judge_in(root)
        .args(["add", "sum", "--from-reference"])
        .write_stdin("1\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is the solution under test"));
}

#[test]
fn stress_finds_and_saves_a_minimal_counterexample() {
    let repository = empty_repository();
    let root = repository.path();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    // Wrong only when the sum is negative.
    let broken = read(root.join("solutions/sum.rs")).replace(
        "writeln!(out, \"{sum}\")",
        "writeln!(out, \"{}\", sum.abs())",
    );
    fs::write(root.join("broken.rs"), broken).unwrap();
    let output = judge_in(root)
        .args([
            "stress",
            "sum",
            "--solution",
            "broken.rs",
            "--seed",
            "1",
            "--iterations",
            "200",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "saved the minimised counterexample as tests/stress/",
        ))
        .stdout(predicate::str::contains(
            "reproduce: judge run sum --solution broken.rs",
        ))
        .get_output()
        .stdout
        .clone();
    let output = String::from_utf8(output).unwrap();
    let case = output
        .split("tests/")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let input = read(root.join(format!("problems/sum/tests/{case}.in")));
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(
        numbers.len(),
        1,
        "cut down to the smallest failing size: {input:?}"
    );
    assert!(numbers[0] < 0);
    assert_eq!(
        read(root.join(format!("problems/sum/tests/{case}.out"))),
        format!("{}\n", numbers[0])
    );
    judge_in(root)
        .args(["run", "sum", "--solution", "broken.rs"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA"));

    judge_in(root)
        .args(["stress", "sum", "--seed", "1", "--iterations", "30"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "30 runs: the solution agrees with the reference",
        ));
}

#[test]
fn stress_cuts_a_multi_case_input_down_to_the_failing_case() {
    let root = repository_root();
    let scratch = tempfile::tempdir().unwrap();
    // A private copy of the problem, so that the saved case does not land in the repository.
    let copy = scratch.path().join("problems/boj_7682");
    fs::create_dir_all(scratch.path().join("problems")).unwrap();
    for file in ["problem.toml", "reference.rs", "gen.rs", "generators.toml"] {
        fs::create_dir_all(&copy).unwrap();
        fs::copy(root.join("problems/boj_7682").join(file), copy.join(file)).unwrap();
    }
    // Wrong on every invalid board, whatever the real solution looks like.
    let always_valid = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    \
        std::io::stdin().read_to_string(&mut s).unwrap();\n    \
        for _ in s.lines().take_while(|l| l.trim() != \"end\") {\n        println!(\"valid\");\n    }\n}\n";
    fs::write(scratch.path().join("broken.rs"), always_valid).unwrap();
    judge_in(scratch.path())
        .args([
            "stress",
            "boj_7682",
            "--solution",
            "broken.rs",
            "--seed",
            "1",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "saved the minimised counterexample as tests/stress/1",
        ))
        .stdout(predicate::str::contains(
            "reproduce: judge run boj_7682 --solution broken.rs --case stress/1",
        ));
    let input = read(copy.join("tests/stress/1.in"));
    assert_eq!(input.lines().count(), 2, "one board and `end`: {input:?}");
    assert_eq!(read(copy.join("tests/stress/1.out")), "invalid\n");
    assert!(read(copy.join("provenance.toml")).contains("derived_from = \"case "));
}
