//! The programs of a Kattis package's folders of programs (`input_validators/`, legacy
//! `output_validators/`, `submissions/<verdict>/`): each a file whose extension names a
//! language, or a folder; the headers, READMEs and notes beside them are no programs, and a
//! single file's build still finds the header it includes. Every expected verdict below was
//! decided by hand from the package format and from what problemtools makes of the package.

use crate::common::*;

use std::fs;
use std::path::{Path, PathBuf};

/// A copy of `fixtures/kattis/<name>` in a fresh temporary folder.
fn package(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(name);
    copy_tree(Path::new(&fixture(&format!("kattis/{name}"))), &copy);
    (dir, copy)
}

/// `judge verify` of the package folder `name` in `dir`: its exit code and its report.
fn verify_in(dir: &Path, name: &str) -> (i32, String) {
    let output = judge_in(dir).args(["verify", name]).output().unwrap();
    let report = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), report)
}

/// The `got` and `result` columns of `submission`'s row in a verify table.
fn got<'a>(report: &'a str, submission: &str) -> Vec<&'a str> {
    let line = report
        .lines()
        .find(|line| line.starts_with(&format!("{submission} ")))
        .unwrap_or_else(|| panic!("no row for {submission} in:\n{report}"));
    let columns: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    columns[2..].to_vec()
}

/// The report exits 0 and shows each row's verdict, kept.
fn kept(code: i32, report: &str, rows: &[(&str, &str)]) {
    assert_eq!(code, 0, "{report}");
    for (submission, verdict) in rows {
        assert_eq!(got(report, submission), [*verdict, "ok"], "{report}");
    }
    assert!(report.contains(", 0 mismatches"), "{report}");
}

/// The near-sum package's rows: only its custom validator takes the answer off by one.
const NEAR_SUM: [(&str, &str); 3] = [
    ("accepted/exact.py", "AC 2"),
    ("accepted/off_by_one.py", "AC 2"),
    ("wrong_answer/off_by_five.py", "WA 1"),
];

#[test]
fn an_output_validator_beside_its_header_and_readme_judges_the_package() {
    let (dir, copy) = package("validator_headers_legacy");
    let (code, report) = verify_in(dir.path(), "validator_headers_legacy");
    kept(code, &report, &NEAR_SUM);
    // The sample's example output, off by one, is taken by validator.cpp: it was built, with
    // the header it includes.
    assert!(
        report.contains("data: 2 cases checked by 0 validators: 0 errors"),
        "{report}"
    );

    // The same folder as a 2025-09 package's `output_validator/`, a program of its own.
    fs::rename(
        copy.join("output_validators"),
        copy.join("output_validator"),
    )
    .unwrap();
    fs::write(
        copy.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Near sum in C++\nlimits:\n  time_limit: 2\n",
    )
    .unwrap();
    let (code, report) = verify_in(dir.path(), "validator_headers_legacy");
    kept(code, &report, &NEAR_SUM);
}

#[test]
fn an_interactor_beside_its_header_judges_the_package() {
    let (dir, _copy) = package("interactor_header_legacy");
    let (code, report) = verify_in(dir.path(), "interactor_header_legacy");
    kept(
        code,
        &report,
        &[
            ("accepted/bisect.py", "AC 2"),
            ("wrong_answer/always_one.py", "WA 1"),
        ],
    );
}

#[test]
fn a_readme_beside_an_input_validator_is_not_run_and_bad_input_is_still_caught() {
    let (dir, copy) = package("input_validator_readme_legacy");
    let name = "input_validator_readme_legacy";
    let (code, report) = verify_in(dir.path(), name);
    kept(code, &report, &[("accepted/double.py", "AC 2")]);
    assert!(
        report.contains("data: 2 cases checked by 1 validator: 0 errors"),
        "{report}"
    );
    assert!(!report.contains("README"), "{report}");

    // An input over the bound, in either name of the folder: the validator still refuses it.
    let secret = copy.join("data/secret");
    fs::write(secret.join("2.in"), "1001\n").unwrap();
    fs::write(secret.join("2.ans"), "2002\n").unwrap();
    for folder in ["input_format_validators", "input_validators"] {
        if folder == "input_validators" {
            fs::rename(copy.join("input_format_validators"), copy.join(folder)).unwrap();
        }
        let (code, report) = verify_in(dir.path(), name);
        assert_eq!(code, 2, "{report}");
        let refused = format!("error: data/secret/2.in: refused by {folder}/validate.py (exit 43");
        assert!(report.contains(&refused), "{folder}:\n{report}");
        assert!(
            report.contains("data: 3 cases checked by 1 validator: 1 error"),
            "{folder}:\n{report}"
        );
    }
}

#[test]
fn a_package_with_no_submissions_has_its_data_checked() {
    // As problemtools does: the data and its validators are checked, and nothing is judged.
    let (dir, copy) = package("input_validator_readme_legacy");
    fs::remove_dir_all(copy.join("submissions")).unwrap();
    let (code, report) = verify_in(dir.path(), "input_validator_readme_legacy");
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("no submissions/ folder: its data is checked alone")
            && report.contains("data: 2 cases checked by 1 validator: 0 errors"),
        "{report}"
    );
}

#[test]
fn a_validator_that_crashes_is_named_with_its_last_words() {
    // A refusal (43) says why on its first line; a crash's reason is the traceback's last.
    let (dir, copy) = package("input_validator_readme_legacy");
    let validator = copy.join("input_format_validators/validate.py");
    let text = fs::read_to_string(&validator).unwrap();
    fs::write(&validator, format!("import json\njson.loads('[')\n{text}")).unwrap();
    let (code, report) = verify_in(dir.path(), "input_validator_readme_legacy");
    assert_eq!(code, 2, "{report}");
    assert!(
        report.contains(
            "refused by input_format_validators/validate.py (exit 1: json.decoder.JSONDecodeError"
        ),
        "{report}"
    );
}

#[test]
fn an_input_validator_has_no_stack_limit_as_in_problemtools() {
    // problemtools runs every program with an unlimited stack; this validator recurses
    // through more than the 256 MiB the judge gave validators before.
    let (dir, copy) = package("input_validator_readme_legacy");
    let validators = copy.join("input_format_validators");
    fs::remove_file(validators.join("validate.py")).unwrap();
    fs::write(
        validators.join("deep.cpp"),
        "// Each level keeps its frame until the call below returns: about 360 MB of stack.\n\
         static int down(int n) {\n    volatile char frame[200];\n    frame[0] = 1;\n    \
         int below = n == 0 ? 0 : down(n - 1);\n    return below + frame[0];\n}\n\n\
         int main() { return down(1500000) == 1500001 ? 42 : 43; }\n",
    )
    .unwrap();
    let (code, report) = verify_in(dir.path(), "input_validator_readme_legacy");
    kept(code, &report, &[("accepted/double.py", "AC 2")]);
    assert!(
        report.contains("data: 2 cases checked by 1 validator: 0 errors"),
        "{report}"
    );
}

/// problemtools judges a legacy package whose `output_validators/` holds two programs with
/// the first by name and warns of the other; so does `verify`, naming the folder and both.
#[test]
fn of_several_legacy_output_validators_the_first_judges_as_in_problemtools() {
    let (dir, _copy) = package("several_output_validators_legacy");
    let (code, report) = verify_in(dir.path(), "several_output_validators_legacy");
    // strict.py would refuse the answer off by one: it is not run.
    kept(code, &report, &NEAR_SUM);
    assert!(
        report.contains(
            "warning: output_validators/ holds 2 programs (near.py, strict.py): only near.py is used"
        ),
        "{report}"
    );
}

#[test]
fn a_custom_grader_grades_each_group_as_problemtools_runs_it() {
    // Each group's score is what graders/grader.py makes of its items (sum of the accepted
    // ones' scores, doubled by its flag), decided by hand: sample [AC 1] -> 2; secret
    // [AC 1, WA 0, WA 0] -> 2; data [AC 2, AC 2] -> 8 for first_only.py, 16 at best.
    let (dir, _package) = package("scoring_grader_legacy");
    let (code, report) = verify_in(dir.path(), "scoring_grader_legacy");
    assert_eq!(code, 0, "{report}");
    assert_eq!(
        got(&report, "partially_accepted/first_only.py"),
        ["AC 2, WA 2 · score 8/16 · grader AC", "ok"]
    );
    assert_eq!(
        got(&report, "accepted/twice.py"),
        ["AC 4 · score 16/16 · grader AC", "ok"]
    );
    // A grader that answers out of its protocol is a judge error, named.
    let (dir, package) = package("scoring_grader_legacy");
    fs::write(package.join("graders/grader.py"), "print('fine')\n").unwrap();
    let (code, report) = verify_in(dir.path(), "scoring_grader_legacy");
    assert_eq!(code, 2, "{report}");
    assert!(
        report.contains("the custom grader, for sample: printed \"fine\\n\""),
        "{report}"
    );
    // `grading: custom` with no grader program (a README is none) is the package's fault.
    fs::remove_file(package.join("graders/grader.py")).unwrap();
    let (code, report) = verify_in(dir.path(), "scoring_grader_legacy");
    assert_ne!(code, 0, "{report}");
    assert!(
        report.contains("`grading: custom`, but graders/ holds no grader program"),
        "{report}"
    );
}
