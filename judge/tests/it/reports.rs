//! Reports for machines: the JSON document against its published schema, the JUnit file
//! through a JUnit parser, and partitions that together hold every case exactly once.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;

fn json_of(args: &[&str], code: i32) -> serde_json::Value {
    let output = judge()
        .args(args)
        .arg("--format")
        .arg("json")
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&output).expect("stdout is one JSON document")
}

fn schema() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("report.schema.json"))
            .unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).expect("the schema is valid")
}

fn assert_valid(document: &serde_json::Value) {
    let errors: Vec<String> = schema()
        .iter_errors(document)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn json_report_validates_against_the_schema() {
    let accepted = json_of(&["run", "boj_7682", "swea_11545"], 0);
    assert_valid(&accepted);
    assert_eq!(accepted["summary"]["outcome"], "accepted");
    assert_eq!(accepted["problems"][0]["solution"], "solutions/boj_7682.rs");

    let wrong = json_of(
        &[
            "run",
            &fixture("verdicts"),
            "--solution",
            &fixture("verdicts/solutions/wrong_answer.rs"),
        ],
        1,
    );
    assert_valid(&wrong);
    let case = &wrong["problems"][0]["cases"][0];
    assert_eq!(case["verdict"], "WA");
    assert_eq!(case["message"], "line 1: expected `3`, got `4`");
    assert_eq!(case["diff"][0]["side"], "expected");

    let compile_error = json_of(
        &[
            "run",
            &fixture("verdicts"),
            "--solution",
            &fixture("verdicts/solutions/compile_error.rs"),
        ],
        1,
    );
    assert_valid(&compile_error);
    assert_eq!(compile_error["problems"][0]["status"], "compile_error");
}

#[test]
fn the_schema_rejects_what_it_should() {
    let mut document = json_of(&["run", "boj_7682"], 0);
    document["problems"][0]["cases"][0]["verdict"] = "OK".into();
    assert!(
        !schema().is_valid(&document),
        "an unknown verdict must not validate"
    );
}

#[test]
fn junit_file_is_read_by_a_junit_parser() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.xml");
    judge()
        .args([
            "run",
            &fixture("verdicts"),
            "--solution",
            &fixture("verdicts/solutions/never_reads_input.rs"),
            "--junit",
        ])
        .arg(&file)
        .assert()
        .code(1);
    let suites =
        junit_parser::from_reader(std::io::BufReader::new(std::fs::File::open(&file).unwrap()))
            .expect("valid JUnit XML");
    assert_eq!(suites.suites.len(), 1);
    let suite = &suites.suites[0];
    assert_eq!(suite.name, "verdicts");
    assert_eq!(suite.tests, 2);
    assert_eq!(suite.failures, 1);
    let failed = suite
        .cases
        .iter()
        .find(|case| case.original_name == "2")
        .unwrap();
    match &failed.status {
        junit_parser::TestStatus::Failure(failure) => {
            assert_eq!(failure.message, "WA: line 1: expected `42`, got `3`");
            assert!(failure.text.contains("-     1 | 42"), "{}", failure.text);
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    assert!(suite
        .cases
        .iter()
        .find(|case| case.original_name == "1")
        .unwrap()
        .status
        .is_success());
}

#[test]
fn partitions_hold_every_case_exactly_once() {
    let all: Vec<(String, String)> = cases_of(&json_of(&["run"], 0));
    assert!(all.len() > 400);
    let mut union = Vec::new();
    for slice in 1..=3 {
        let part = cases_of(&json_of(&["run", "--partition", &format!("{slice}/3")], 0));
        assert!(!part.is_empty());
        union.extend(part);
    }
    assert_eq!(union.len(), all.len(), "no case is judged twice");
    let union: BTreeSet<_> = union.into_iter().collect();
    let all: BTreeSet<_> = all.into_iter().collect();
    assert_eq!(union, all);
    judge().args(["run", "--partition", "4/3"]).assert().code(2);
    judge().args(["run", "--partition", "0/3"]).assert().code(2);
}

fn cases_of(document: &serde_json::Value) -> Vec<(String, String)> {
    let mut cases = Vec::new();
    for problem in document["problems"].as_array().unwrap() {
        for case in problem["cases"].as_array().unwrap() {
            cases.push((
                problem["id"].as_str().unwrap().to_owned(),
                case["name"].as_str().unwrap().to_owned(),
            ));
        }
    }
    cases
}
