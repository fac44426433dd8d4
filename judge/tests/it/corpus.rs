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
fn corpus_commands_take_quiet_color_and_json_as_run_does() {
    let repository = empty_repository();
    let root = repository.path();
    // --quiet: what was done, without the hints of what to do next.
    let quiet = stdout_of(judge_in(root).args(["new", "sum", "--quiet"]), 0);
    assert!(
        quiet.contains("created problems/sum/reference.rs"),
        "{quiet}"
    );
    assert!(!quiet.contains("next:"), "{quiet}");
    // --format json: one document with every line and how the command ended.
    let output = stdout_of(
        judge_in(root)
            .args(["add", "sum", "--from-reference", "--format", "json"])
            .write_stdin("1 2 3\n"),
        0,
    );
    let document: serde_json::Value = serde_json::from_str(&output).expect("one JSON document");
    assert_eq!(document["command"], "add");
    assert_eq!(document["outcome"], "accepted");
    assert_eq!(document["lines"][0]["kind"], "result");
    assert!(document["lines"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("added problems/sum/tests/manual/1.in"));
    // --color always: a case gen leaves alone is coloured; never: plain text.
    fs::write(
        root.join("problems/sum/generators.toml"),
        "[[generate]]\ngroup = \"random\"\nname = \"r\"\nargs = \"1\"\n",
    )
    .unwrap();
    judge_in(root).args(["gen", "sum"]).assert().code(0);
    fs::write(root.join("problems/sum/tests/random/r.out"), "edited\n").unwrap();
    for (color, escapes) in [("always", true), ("never", false)] {
        let text = stdout_of(
            judge_in(root).args(["gen", "sum", "--check", "--color", color]),
            1,
        );
        assert!(text.contains("random/r"), "{text}");
        assert_eq!(text.contains("\x1b["), escapes, "--color {color}: {text:?}");
    }
}

#[test]
fn every_profiles_templates_agree_with_its_solutions_in_gen_run_and_stress() {
    // SW Expert Academy and Codeforces read a count of cases: a reference or generator of
    // the plain one-answer task would disagree with their solution templates.
    for profile in ["boj", "swea", "programmers", "codeforces", "kattis"] {
        let repository = empty_repository();
        let root = repository.path();
        judge_in(root)
            .args(["new", "p", "--profile", profile])
            .assert()
            .code(0);
        // Its validator takes what the generator makes (gen and stress ask it) and refuses
        // what the placeholder's input format rules out.
        std::fs::write(root.join("illegal.in"), "1 2 x\n").unwrap();
        judge_in(root)
            .args(["add", "p", "--from-reference", "--input", "illegal.in"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("line 1: "));
        new_recipe_on(root, "p");
        judge_in(root).args(["gen", "p"]).assert().code(0);
        let report = stdout_of(judge_in(root).args(["run", "p"]), 0);
        assert!(report.contains("5/5 accepted"), "{profile}: {report}");
        judge_in(root)
            .args(["stress", "p", "--iterations", "3"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("agrees with the reference"));
    }
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
    let add_from_reference = |said: &str| {
        judge_in(root)
            .args(["add", "sum", "--from-reference"])
            .write_stdin("1 2 3\n")
            .assert()
            .code(0)
            .stdout(predicate::str::contains(said));
    };
    add_from_reference(
        "added problems/sum/tests/manual/1.in and .out (expected output from reference.rs)",
    );
    assert_eq!(read(root.join("problems/sum/tests/manual/1.out")), "6\n");
    // The same case again is found, not added a second time.
    add_from_reference(
        "problems/sum/tests/manual/1.in and .out already hold this input and expected output: nothing added",
    );
    assert!(!root.join("problems/sum/tests/manual/2.in").exists());
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
    // The scaffold's recipe waits to be switched on, so a problem with only its samples and
    // a solution keeps `gen --check` (and so `cargo test`) green.
    judge_in(root)
        .args(["gen", "--check"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("differ").not());
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
            "sum/tests/manual/1.in: already exists: refusing to overwrite it",
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
    // Without its validator, which would refuse the input before the reference sees it.
    fs::remove_file(root.join("problems/sum/validator.rs")).unwrap();
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
    new_with_recipe(root, "sum");
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

    // A hand edit makes the case the user's: --check names it (exit 1) and writes nothing;
    // gen reports it, leaves it, and regenerates everything else.
    fs::write(root.join("problems/sum/tests/random/r-2.out"), "mine\n").unwrap();
    let before = snapshot(root);
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "random/r-2: not as `judge gen` wrote it",
        ));
    assert_eq!(snapshot(root), before);
    let recipe = root.join("problems/sum/generators.toml");
    fs::write(&recipe, read(&recipe).replace("count=10", "count=11")).unwrap();
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("differs: random/r-1"))
        .stdout(predicate::str::contains("differs: random/r-2").not());
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("4 written, 0 unchanged"))
        .stdout(predicate::str::contains(
            "left as it is: random/r-2: not as `judge gen` wrote it",
        ));
    assert_eq!(
        read(root.join("problems/sum/tests/random/r-2.out")),
        "mine\n"
    );
    assert_eq!(
        read(root.join("problems/sum/tests/random/r-1.in"))
            .split_whitespace()
            .count(),
        11,
        "the other cases follow the new recipe"
    );
    fs::remove_file(root.join("problems/sum/tests/random/r-3.in")).unwrap();
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("missing: random/r-3"));
    judge_in(root).args(["gen", "sum"]).assert().code(1);

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
    new_with_recipe(root, "sum");
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

    reference_answers_one_more(root);
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

/// Every file below `dir`, by path relative to it, with its contents.
fn relative_snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    snapshot(dir)
        .into_iter()
        .map(|(path, bytes)| (path.strip_prefix(dir).unwrap().to_path_buf(), bytes))
        .collect()
}

/// A repository where `judge new sum` has run and its recipe is on (five cases `random/r-1..5`).
fn repository_with_sum() -> tempfile::TempDir {
    let repository = empty_repository();
    new_with_recipe(repository.path(), "sum");
    repository
}

/// Runs the judge with `args`, stopped by `signal` right after its `k`-th rename or removal
/// (the test-only hook), and checks that it did die by that signal there.
fn interrupted(root: &Path, args: &[&str], k: usize, signal: &str) {
    interrupted_with_input(root, args, "", k, signal)
}

/// `interrupted`, with `stdin` as the judge's standard input.
fn interrupted_with_input(root: &Path, args: &[&str], stdin: &str, k: usize, signal: &str) {
    use std::os::unix::process::ExitStatusExt;
    // `judge_std_in` gives the judge SIGINT's default action, as a terminal does.
    let output = assert_cmd::Command::from_std(judge_std_in(root))
        .args(args)
        .write_stdin(stdin)
        .env("JUDGE_TEST_STOP_AFTER_RENAMES", k.to_string())
        .env("JUDGE_TEST_STOP_SIGNAL", signal)
        .output()
        .unwrap();
    let expected = if signal == "SIGKILL" { 9 } else { 2 };
    assert_eq!(
        output.status.signal(),
        Some(expected),
        "`judge {}` with a {signal} after rename {k}: {:?}\n{}",
        args.join(" "),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// No case is half there: every input has its answer and every answer its input.
fn assert_whole_cases(problem: &Path) {
    for (path, _) in snapshot(problem) {
        let name = path.to_string_lossy().into_owned();
        let partner = match path.extension().and_then(|e| e.to_str()) {
            Some("in") => path.with_extension("out"),
            Some("out") => path.with_extension("in"),
            _ => continue,
        };
        assert!(partner.exists(), "half a case: {name} without its partner");
    }
}

/// Makes the template reference of `sum` answer one more than before.
fn reference_answers_one_more(root: &Path) {
    let path = root.join("problems/sum/reference.rs");
    let text = read(&path).replace("numbers.sum::<i128>()", "numbers.sum::<i128>() + 1");
    assert!(
        text.contains("() + 1"),
        "the template changed: update this test"
    );
    fs::write(path, text).unwrap();
}

/// Runs `args` again after an interruption and checks the problem is then exactly as
/// `expected` (an uninterrupted run's), with nothing of the judge's called hand-written.
fn completed_as(root: &Path, args: &[&str], expected: &[(PathBuf, Vec<u8>)], what: &str) {
    judge_in(root)
        .args(args)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("hand").not());
    assert_eq!(
        relative_snapshot(&root.join("problems/sum")),
        expected,
        "{what}"
    );
    judge_in(root)
        .args(["gen", "sum", "--check"])
        .assert()
        .code(0);
}

fn temporary_files(dir: &Path) -> Vec<PathBuf> {
    snapshot(dir)
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with(".judge-")
        })
        .collect()
}

#[test]
fn an_interrupted_gen_is_completed_byte_for_byte_by_the_next_one() {
    let uninterrupted = repository_with_sum();
    judge_in(uninterrupted.path())
        .args(["gen", "sum"])
        .assert()
        .code(0);
    let expected = relative_snapshot(&uninterrupted.path().join("problems/sum"));
    // Renames of a gen of five new cases: 1 the journal, 2-11 the case files (2 and 3 are
    // the two files of `random/r-1`), 12 provenance.toml, 13 the journal's removal.
    for signal in ["SIGINT", "SIGKILL"] {
        for k in [1, 2, 3, 8, 12, 13] {
            let repository = repository_with_sum();
            let root = repository.path();
            let problem = root.join("problems/sum");
            interrupted(root, &["gen", "sum"], k, signal);
            if signal == "SIGINT" {
                // A Ctrl-C lets the change under way finish: nothing half done, nothing left.
                assert_whole_cases(&problem);
                assert_eq!(temporary_files(&problem), Vec::<PathBuf>::new());
                judge_in(root).args(["run", "sum"]).assert().code(0);
            } else if k < 13 {
                // Killed outright: a run refuses until a corpus command completes the change,
                // and --check (which writes nothing) says so.
                judge_in(root).args(["run", "sum"]).assert().code(2).stderr(
                    predicate::str::contains("a corpus command was killed before it finished"),
                );
                judge_in(root)
                    .args(["gen", "sum", "--check"])
                    .assert()
                    .code(1)
                    .stdout(predicate::str::contains("killed before it finished"));
            }
            let what = format!("after a {signal} at rename {k} and a second gen");
            completed_as(root, &["gen", "sum"], &expected, &what);
        }
    }
}

#[test]
fn an_interrupted_bless_write_is_completed_and_never_calls_the_judges_files_hand_written() {
    let prepared = || {
        let repository = repository_with_sum();
        judge_in(repository.path())
            .args(["gen", "sum"])
            .assert()
            .code(0);
        reference_answers_one_more(repository.path());
        repository
    };
    let uninterrupted = prepared();
    judge_in(uninterrupted.path())
        .args(["bless", "sum", "--write"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("5 rewritten"));
    let expected = relative_snapshot(&uninterrupted.path().join("problems/sum"));
    // 1 the journal, 2-6 the five outputs, 7 provenance.toml, 8 the journal's removal.
    for signal in ["SIGINT", "SIGKILL"] {
        for k in [1, 3, 7, 8] {
            let repository = prepared();
            let root = repository.path();
            interrupted(root, &["bless", "sum", "--write"], k, signal);
            let what = format!("after a {signal} at rename {k} and a second bless --write");
            completed_as(root, &["bless", "sum", "--write"], &expected, &what);
        }
    }
}

#[test]
fn interrupted_add_and_new_are_completed_by_running_them_again() {
    let uninterrupted = repository_with_sum();
    judge_in(uninterrupted.path())
        .args(["add", "sum", "--from-reference"])
        .write_stdin("1 2 3\n")
        .assert()
        .code(0);
    let expected = relative_snapshot(uninterrupted.path());
    for signal in ["SIGINT", "SIGKILL"] {
        // 1 the journal, 2 and 3 the case's files, 4 provenance.toml, 5 the journal's removal.
        for k in [1, 2, 4, 5] {
            let repository = repository_with_sum();
            let root = repository.path();
            let add = || {
                let mut command = judge_in(root);
                command
                    .args(["add", "sum", "--from-reference"])
                    .write_stdin("1 2 3\n");
                command
            };
            interrupted_with_input(
                root,
                &["add", "sum", "--from-reference"],
                "1 2 3\n",
                k,
                signal,
            );
            add()
                .assert()
                .code(0)
                .stdout(predicate::str::contains("manual/1.in"));
            assert_eq!(relative_snapshot(root), expected, "{signal} at rename {k}");
        }
    }

    let uninterrupted = empty_repository();
    judge_in(uninterrupted.path())
        .args(["new", "sum"])
        .assert()
        .code(0);
    let expected = relative_snapshot(uninterrupted.path());
    // 1-6 the problem's files, 7 the solution, 8 Cargo.toml, 9 the problem folder.
    for signal in ["SIGINT", "SIGKILL"] {
        for k in [1, 6, 7, 8, 9] {
            let repository = empty_repository();
            let root = repository.path();
            interrupted(root, &["new", "sum"], k, signal);
            let again = judge_in(root).args(["new", "sum"]).assert();
            if signal == "SIGINT" || k == 9 {
                // Complete already (a Ctrl-C lets `new` finish): the second run refuses, as
                // on any existing problem.
                again
                    .code(2)
                    .stderr(predicate::str::contains("already exists"));
            } else {
                again.code(0);
            }
            assert_eq!(relative_snapshot(root), expected, "{signal} at rename {k}");
        }
    }
}

#[test]
fn leftover_temporary_files_are_swept_by_the_next_command() {
    let repository = repository_with_sum();
    let root = repository.path();
    let problem = root.join("problems/sum");
    fs::create_dir_all(problem.join("tests/random")).unwrap();
    fs::write(problem.join("tests/random/.judge-abc123.tmp"), "half\n").unwrap();
    fs::write(problem.join(".judge-x.tmp"), "half\n").unwrap();
    fs::write(problem.join("tests/random/.notes"), "mine\n").unwrap();
    judge_in(root).args(["gen", "sum"]).assert().code(0);
    assert_eq!(temporary_files(&problem), Vec::<PathBuf>::new());
    assert_eq!(read(problem.join("tests/random/.notes")), "mine\n");
}

#[test]
fn files_get_the_mode_the_umask_gives_and_rewrites_keep_theirs() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let repository = empty_repository();
    let root = repository.path();
    // What this process's umask gives a new file: the judge, its child, must do the same.
    fs::write(root.join("probe"), "").unwrap();
    let umask_mode = mode(&root.join("probe"));
    let manifest = root.join("solutions/Cargo.toml");
    fs::set_permissions(&manifest, fs::Permissions::from_mode(0o640)).unwrap();
    new_with_recipe(root, "sum");
    judge_in(root).args(["gen", "sum"]).assert().code(0);
    for file in [
        "problems/sum/problem.toml",
        "problems/sum/reference.rs",
        "problems/sum/provenance.toml",
        "problems/sum/tests/random/r-1.in",
        "problems/sum/tests/random/r-1.out",
        "solutions/sum.rs",
    ] {
        assert_eq!(mode(&root.join(file)), umask_mode, "{file}");
    }
    assert_eq!(mode(&manifest), 0o640, "a rewritten file keeps its mode");

    let output = root.join("problems/sum/tests/random/r-1.out");
    fs::set_permissions(&output, fs::Permissions::from_mode(0o664)).unwrap();
    reference_answers_one_more(root);
    judge_in(root)
        .args(["bless", "sum", "--write"])
        .assert()
        .code(0);
    assert_eq!(mode(&output), 0o664, "a rewritten file keeps its mode");
    assert_eq!(mode(&root.join("problems/sum/provenance.toml")), umask_mode);

    judge_in(root)
        .args(["run", "sum", "--junit", "report.xml"])
        .assert()
        .code(1);
    assert_eq!(mode(&root.join("report.xml")), umask_mode);
}

#[test]
fn new_edits_the_manifest_as_toml_and_keeps_its_formatting() {
    let repository = empty_repository();
    let root = repository.path();
    // An inline array of bins: a `[[bin]]` appended as text would make this invalid TOML.
    let manifest = "bin = [\n    { name = \"a\", path = \"a.rs\" },\n]\n\n[package]\nname = \"solutions\"   # kept\n";
    fs::write(root.join("solutions/Cargo.toml"), manifest).unwrap();
    judge_in(root).args(["new", "sum"]).assert().code(0);
    let text = read(root.join("solutions/Cargo.toml"));
    assert!(
        text.starts_with("bin = [\n    { name = \"a\", path = \"a.rs\" },"),
        "{text}"
    );
    assert!(
        text.ends_with("\n[package]\nname = \"solutions\"   # kept\n"),
        "{text}"
    );
    let parsed: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let bins: Vec<(&str, &str)> = parsed["bin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bin| (bin["name"].as_str().unwrap(), bin["path"].as_str().unwrap()))
        .collect();
    assert_eq!(bins, [("a", "a.rs"), ("sum", "sum.rs")]);

    // A [[bin]] of that name written without spaces is the user's: refused, nothing made.
    let repository = empty_repository();
    let root = repository.path();
    fs::write(
        root.join("solutions/Cargo.toml"),
        "[package]\nname=\"solutions\"\n\n[[bin]]\nname=\"sum\"\npath=\"mine.rs\"\n",
    )
    .unwrap();
    let before = snapshot(root);
    judge_in(root)
        .args(["new", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "already has a [[bin]] named `sum`",
        ));
    assert_eq!(snapshot(root), before);
}

/// A corpus command that needs `reference.rs` or `gen.rs` says which, and what it is for,
/// where the file is missing (a problem imported from a page has neither).
#[test]
fn a_missing_reference_or_generator_is_named_with_its_purpose() {
    let repository = tempfile::tempdir().unwrap();
    let root = repository.path();
    fs::create_dir(root.join("problems")).unwrap();
    new_with_recipe(root, "sum");
    fs::remove_file(root.join("problems/sum/reference.rs")).unwrap();
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "sum/reference.rs: does not exist: this command needs the problem's independent brute force",
        ));
    fs::remove_file(root.join("problems/sum/gen.rs")).unwrap();
    judge_in(root)
        .args(["stress", "sum", "--time", "1s"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "sum/gen.rs: does not exist: this command needs the problem's generator",
        ));
}
