//! The real binary, as a user runs it: options and arguments, exit codes, messages naming
//! the file, and the repository's own problems all accepted. Report shapes are snapshots
//! (`reports.rs`).

use crate::common::*;

use predicates::prelude::*;

#[test]
fn the_repository_problems_are_all_accepted() {
    // However many problems and cases the repository has: all of them accepted, and every
    // input one its problem's validator takes.
    judge()
        .current_dir(repository_root())
        .args(["--quiet", "--color", "never", "run", "--validate"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("Summary: "))
        .stdout(predicate::str::contains(" WA ").not())
        .stderr(predicate::str::contains("not a legal input").not());
}

#[test]
fn global_options_work_before_and_after_the_command() {
    let repository = sum_repository();
    let root = repository.path();
    let elsewhere = tempfile::tempdir().unwrap();
    for args in [
        &["--color", "never", "list"][..],
        &["list", "--color", "never"],
        &["-j", "1", "run", "sum", "--case", "sample/*"],
        &["run", "sum", "-j", "1", "--case", "sample/*"],
        &["--format", "json", "run", "sum", "--case", "sample/*"],
        &["-q", "run", "sum", "--case", "sample/*"],
    ] {
        judge_in(root).args(args).assert().code(0);
    }
    judge_in(elsewhere.path())
        .arg("--root")
        .arg(root)
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum"));
    judge_in(elsewhere.path())
        .args(["list", "--root"])
        .arg(root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum"));
}

#[test]
fn json_is_refused_by_commands_that_have_no_json_report() {
    let repository = sum_repository();
    judge_in(repository.path())
        .args(["bless", "sum", "--format", "json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--format json is for run, merge, list, gen, add, new, stress and check only",
        ));
}

/// Every file a run judges is listed: this repository's SW Expert Academy problem has two.
#[test]
fn list_names_every_solution_a_run_judges() {
    judge()
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "solutions/swea_11545.rs, solutions/swea_11545.java",
        ));
}

#[test]
fn list_speaks_json() {
    let repository = repository_with(&[
        (
            "problems/p/problem.toml",
            "time_limit_ms = 1500\nmemory_limit_mib = 64\ncompare = \"tokens\"\n",
        ),
        ("problems/p/tests/1.in", "1\n"),
        ("problems/p/tests/1.out", "1\n"),
        ("problems/p/tests/2.in", "2\n"),
        ("problems/p/tests/2.out", "2\n"),
    ]);
    let output = stdout_of(
        judge_in(repository.path()).args(["list", "--format", "json"]),
        0,
    );
    let document: serde_json::Value = serde_json::from_str(&output).unwrap();
    let problem = &document["problems"][0];
    assert_eq!(problem["id"], "p", "{output}");
    assert_eq!(problem["cases"], 2, "{output}");
    assert_eq!(problem["time_limit_ms"], 1500, "{output}");
    assert_eq!(problem["memory_limit_bytes"], 64 << 20, "{output}");
    assert_eq!(problem["compare"], "tokens", "{output}");
    assert_eq!(problem["solution_exists"], false, "{output}");
    assert_eq!(document["outcome"], "accepted", "{output}");
}

#[test]
fn a_mistyped_command_gets_a_suggestion() {
    judge()
        .arg("lsit")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'list'"));
}

#[test]
fn unknown_problem_suggests_the_closest() {
    let repository = sum_repository();
    judge_in(repository.path())
        .args(["run", "sun"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no problem named `sun`"))
        .stderr(predicate::str::contains("did you mean `sum`?"));
}

#[test]
fn problems_are_named_by_paths_from_anywhere_inside_the_repository() {
    let repository = sum_repository();
    let problem = repository.path().join("problems/sum");
    let runs = [
        (problem.clone(), "."),
        (problem.clone(), "./"),
        (problem.join("tests/sample"), "../.."),
        (problem.join("tests"), ".."),
        (repository.path().join("solutions"), "../problems/sum"),
        (repository.path().to_path_buf(), "problems/sum/"),
    ];
    for (dir, argument) in runs {
        judge_in(&dir)
            .args(["run", argument, "--case", "sample/1"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("AC  sum: 1/1 accepted"));
    }
    judge_in(repository.path())
        .arg("run")
        .arg(&problem)
        .args(["--case", "sample/1"])
        .assert()
        .code(0);
    judge_in(repository.path())
        .args(["run", "solutions"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("solutions: not a problem folder"));
}

#[test]
fn verify_and_check_say_what_is_wrong_with_their_argument() {
    let repository = sum_repository();
    judge_in(repository.path())
        .args(["verify", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "problems/sum: not a Kattis package: no problem.yaml",
        ));
    judge_in(repository.path())
        .args(["check", "solutions"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a folder, not a source file"));
}

#[test]
fn case_patterns_choose_the_cases_judged() {
    let repository = sum_repository();
    let report = stdout_of(
        judge_in(repository.path()).args([
            "run",
            "sum",
            "-v",
            "--case",
            "sample/*",
            "--case",
            "random/sm?ll",
        ]),
        0,
    );
    assert!(report.contains("sample/1") && report.contains("random/small"));
    assert!(!report.contains("forty-two"), "{report}");
    assert!(report.contains("Summary: 1 problem, 2 cases"), "{report}");
    judge_in(repository.path())
        .args(["run", "--case", "nothing/*"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case matches `nothing/*`"));
}

#[test]
fn the_command_printed_for_a_failure_judges_just_that_case() {
    let repository = sum_repository();
    let report = stdout_of(
        judge_in(repository.path()).args(["run", "sum", "--solution", "solutions/wrong.rs"]),
        1,
    );
    let command = report
        .lines()
        .find_map(|line| line.split_once("judge run ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("no command in:\n{report}"));
    assert_eq!(
        command,
        "sum --solution solutions/wrong.rs --case random/forty-two"
    );
    let again = stdout_of(
        judge_in(repository.path())
            .arg("run")
            .args(command.split(' '))
            .arg("-v"),
        1,
    );
    assert!(
        again.contains("Summary: 1 problem, 1 case: WA 1"),
        "{again}"
    );
}

/// From outside the repository the command carries the `--root` it needs, and a name that
/// is no problem there is said to be none, whatever `--case` asks.
#[test]
fn the_command_printed_outside_the_repository_names_its_root() {
    let repository = sum_repository();
    let elsewhere = tempfile::tempdir().unwrap();
    let root = repository.path().canonicalize().unwrap();
    let wrong = root.join("solutions/wrong.rs");
    let report = stdout_of(
        judge_in(elsewhere.path())
            .arg("--root")
            .arg(&root)
            .args(["run", "sum", "--solution"])
            .arg(&wrong),
        1,
    );
    let command = report
        .lines()
        .find_map(|line| line.split_once("judge --root ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("no command with --root in:\n{report}"));
    let again = stdout_of(
        judge_in(elsewhere.path())
            .arg("--root")
            .args(command.split(' ')),
        1,
    );
    assert!(
        again.contains("Summary: 1 problem, 1 case: WA 1"),
        "{again}"
    );
    judge_in(elsewhere.path())
        .args(["run", "sum", "--case", "random/forty-two"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no problem `sum`: no such folder in",
        ))
        .stderr(predicate::str::contains("no case matches").not());
}

#[test]
fn samples_are_judged_first() {
    let repository = repository_with(&[
        ("problems/p/tests/a/1.in", "1\n"),
        ("problems/p/tests/a/1.out", "2\n"),
        ("problems/p/tests/sample/1.in", "1\n"),
        ("problems/p/tests/sample/1.out", "3\n"),
        ("solutions/p.rs", SUM_SOLUTION),
    ]);
    let report = stdout_of(
        judge_in(repository.path()).args(["run", "--fail-fast", "--color", "never"]),
        1,
    );
    let failed = |line: &str| line.trim_start().starts_with("WA") && line.contains("sample/1");
    assert!(report.lines().any(failed), "{report}");
    assert!(!report.contains(" a/1 "), "{report}");
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
        stdout_of(
            judge_in(repository.path()).env("JUDGE_CACHE_DIR", &cache),
            0,
        )
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
    judge_in(repository.path())
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
    judge_in(repository.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "CE  the solution does not compile",
        ))
        .stdout(predicate::str::contains("error[E0308]: mismatched types"))
        .stdout(predicate::str::contains("good: 1/1 accepted"))
        .stdout(predicate::str::contains("1 CE"));
    // Quiet, one line still says which file and why.
    judge_in(repository.path())
        .arg("-q")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
        "CE  bad: the solution solutions/bad.rs does not compile: error[E0308]: mismatched types",
    ));
}

#[test]
fn usage_errors_exit_2() {
    let repository = sum_repository();
    let judge = || judge_in(repository.path());
    judge()
        .args(["run", "sum", "sum", "--solution", "x.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--solution needs exactly one PROBLEM",
        ));
    judge().arg("--jobs").arg("0").assert().code(2);
    judge()
        .args(["run", "sum", "--solution", "no/such/file.rs"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no/such/file.rs: solution of `sum` not found",
        ));
}

#[test]
fn outside_a_repository_the_error_says_so() {
    let empty = tempfile::tempdir().unwrap();
    judge_in(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no `problems/` folder"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let repository = sum_repository();
    let run = |color: &str| {
        stdout_of(
            judge_in(repository.path())
                .args(["run", "sum", "--case", "sample/*", "--color", color]),
            0,
        )
    };
    assert!(run("always").contains('\x1b'));
    assert!(
        !run("auto").contains('\x1b'),
        "output to a pipe is not coloured"
    );
}

#[test]
fn a_panic_points_at_the_solution_file_itself() {
    // Two repositories, one build: the cached program still names each one's own file.
    let cache = tempfile::tempdir().unwrap();
    for built in ["compiled", "cached"] {
        let repository = repository_with(&[
            ("problems/p/tests/1.in", "1\n"),
            ("problems/p/tests/1.out", "1\n"),
            ("solutions/p.rs", "fn main() {\n    panic!(\"boom\");\n}\n"),
        ]);
        let report = stdout_of(
            judge_in(repository.path())
                .env("JUDGE_CACHE_DIR", cache.path())
                .arg("run"),
            1,
        );
        assert!(
            report.contains(&format!("solutions/p.rs ({built})")),
            "{report}"
        );
        let solution = repository.path().join("solutions/p.rs");
        assert!(
            report.contains(&format!("{}:2:5", solution.display())),
            "{report}"
        );
        assert!(!report.contains(".building-"), "{report}");
        assert!(!report.contains("judge-source-folder"), "{report}");
    }
}

#[test]
fn a_wrong_answer_shows_its_sub_case_of_a_multi_case_input() {
    // SW Expert Academy's convention: T on the first line, answers labelled `#k`.
    let solution = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    \
        std::io::stdin().read_to_string(&mut s).unwrap();\n    \
        let v: Vec<i64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();\n    \
        for k in 0..v[0] as usize {\n        let sum = v[1 + 2 * k] + v[2 + 2 * k];\n        \
        println!(\"#{} {}\", k + 1, if sum == 7 { 8 } else { sum });\n    }\n}\n";
    let repository = repository_with(&[
        ("problems/pairs/problem.toml", "profile = \"swea\"\n"),
        ("problems/pairs/tests/1.in", "3\n1 2\n\n3 4\n\n5 6\n"),
        ("problems/pairs/tests/1.out", "#1 3\n#2 7\n#3 11\n"),
        ("solutions/pairs.rs", solution),
    ]);
    let report = stdout_of(judge_in(repository.path()).args(["--color", "never"]), 1);
    assert!(
        report.contains("input: problems/pairs/tests/1.in\n      case 2 of the input, from its line 4:\n      │ 3 4\n"),
        "{report}"
    );
}
