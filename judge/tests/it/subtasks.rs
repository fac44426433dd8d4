//! Baekjoon-style subtasks in `problem.toml`: a subtask's points are won when all its cases
//! are accepted; the report shows each subtask and the total.

use crate::common::*;

use predicates::prelude::*;

const SUBTASKS: &str = "name = \"Sum\"\n\n[[subtasks]]\nname = \"small\"\npoints = 30\ncases = [\"sample/*\", \"small/*\"]\n\n[[subtasks]]\nname = \"large\"\npoints = 70\ncases = [\"large/*\"]\n";

/// A repository with `sum`, whose `problem.toml` is `toml`, and two Python solutions: one
/// right, one wrong on the sum 42 (large/1).
fn repository(toml: &str) -> tempfile::TempDir {
    repository_with(&[
        ("problems/sum/problem.toml", toml),
        ("problems/sum/tests/sample/1.in", "1 2\n"),
        ("problems/sum/tests/sample/1.out", "3\n"),
        ("problems/sum/tests/small/1.in", "2 2\n"),
        ("problems/sum/tests/small/1.out", "4\n"),
        ("problems/sum/tests/large/1.in", "40 2\n"),
        ("problems/sum/tests/large/1.out", "42\n"),
        ("problems/sum/tests/large/2.in", "100 200\n"),
        ("problems/sum/tests/large/2.out", "300\n"),
        (
            "solutions/right.py",
            "print(sum(map(int, open(0).read().split())))\n",
        ),
        (
            "solutions/wrong.py",
            "n = sum(map(int, open(0).read().split()))\nprint(43 if n == 42 else n)\n",
        ),
    ])
}

#[test]
fn a_subtask_scores_its_points_only_when_all_its_cases_are_accepted() {
    let dir = repository(SUBTASKS);
    let human = stdout_of(
        judge_in(dir.path()).args(["run", "sum", "--solution", "solutions/wrong.py"]),
        1,
    );
    assert!(
        human.contains("sum: score 30 / 100 (small 30/30, large 0/70)"),
        "{human}"
    );
    let right = stdout_of(
        judge_in(dir.path()).args(["run", "sum", "--solution", "solutions/right.py"]),
        0,
    );
    assert!(
        right.contains("sum: score 100 / 100 (small 30/30, large 70/70)"),
        "{right}"
    );
    let json = stdout_of(
        judge_in(dir.path()).args([
            "--format",
            "json",
            "run",
            "sum",
            "--solution",
            "solutions/wrong.py",
        ]),
        1,
    );
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    crate::reports::assert_valid(&report);
    let score = &report["problems"][0]["score"];
    assert_eq!(score["score"], 30.0, "{score}");
    assert_eq!(score["max_score"], 100.0, "{score}");
    assert_eq!(
        score["parts"],
        serde_json::json!([
            {"name": "small", "score": 30.0, "max_score": 30.0},
            {"name": "large", "score": 0.0, "max_score": 70.0},
        ])
    );
}

#[test]
fn bad_subtasks_are_errors_naming_file_and_line() {
    for (from, to, message) in [
        (
            "\"large/*\"",
            "\"medium/*\"",
            "problem.toml: line 11: subtask `large`: case pattern `medium/*` matches no case",
        ),
        (
            "points = 70",
            "points = \"ten\"",
            "problem.toml: line 10: invalid type: string \"ten\"",
        ),
        (
            "points = 70",
            "points = -5",
            "problem.toml: line 10: `points` = -5: expected a number of points, 0 or more",
        ),
        (
            "cases = [\"large/*\"]",
            "case = [\"large/*\"]",
            "problem.toml: line 11: unknown field `case`",
        ),
    ] {
        let dir = repository(&SUBTASKS.replace(from, to));
        judge_in(dir.path())
            .args(["run", "sum", "--solution", "solutions/right.py"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}
