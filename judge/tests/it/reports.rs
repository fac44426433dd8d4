//! The reports' shapes: the human report in its three levels of detail, the JSON document
//! (against its published schema too) and the JUnit file, as insta snapshots of a throwaway
//! repository with times, memory and temporary paths filtered out; `judge list`'s table; and
//! partitions that together hold every case exactly once.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;

/// `judge run sum --solution solutions/wrong.rs` plus `extra`, in a fresh `sum` repository.
fn wrong_run(extra: &[&str]) -> String {
    let repository = sum_repository();
    stdout_of(
        judge_in(repository.path())
            .args([
                "run",
                "sum",
                "--solution",
                "solutions/wrong.rs",
                "--color",
                "never",
            ])
            .args(extra),
        1,
    )
}

#[test]
fn human_report_shows_failures_in_full_and_how_to_judge_them_again() {
    let report = wrong_run(&[]);
    stable_report().bind(|| insta::assert_snapshot!("human_default", report));
}

#[test]
fn human_report_verbose_adds_a_row_per_accepted_case() {
    let report = wrong_run(&["--verbose"]);
    // Long case names do not push the figures out of line: every row's time ends together.
    let ends: BTreeSet<usize> = report
        .lines()
        .filter(|line| line.contains(" ms "))
        .map(|line| line.find(" ms").unwrap())
        .collect();
    assert_eq!(ends.len(), 1, "{report}");
    stable_report().bind(|| insta::assert_snapshot!("human_verbose", report));
}

#[test]
fn human_report_quiet_keeps_one_line_per_failure() {
    let report = wrong_run(&["--quiet"]);
    stable_report().bind(|| insta::assert_snapshot!("human_quiet", report));
}

#[test]
fn an_accepted_problem_is_one_line() {
    let repository = sum_repository();
    let report = stdout_of(judge_in(repository.path()).args(["--color", "never"]), 0);
    stable_report().bind(|| insta::assert_snapshot!("human_accepted", report));
}

#[test]
fn list_columns_line_up() {
    let repository = sum_repository();
    std::fs::create_dir_all(
        repository
            .path()
            .join("problems/a_problem_with_a_long_id/tests"),
    )
    .unwrap();
    for (file, text) in [("1.in", "1\n"), ("1.out", "1\n")] {
        let path = repository
            .path()
            .join("problems/a_problem_with_a_long_id/tests")
            .join(file);
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(
        repository
            .path()
            .join("problems/a_problem_with_a_long_id/problem.toml"),
        "profile = \"programmers\"\n",
    )
    .unwrap();
    let table = stdout_of(judge_in(repository.path()).arg("list"), 0);
    // Limits are not measurements: the table is snapshot as it is.
    insta::with_settings!({ prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("list", table);
    });
}

fn json_of(dir: &Path, args: &[&str], code: i32) -> serde_json::Value {
    let output = stdout_of(judge_in(dir).args(args).args(["--format", "json"]), code);
    serde_json::from_str(&output).expect("stdout is one JSON document")
}

/// What is wrong with `document` by the report's schema (`judge/report.schema.json`), if
/// anything, as Python's `jsonschema` reads the schema; `None` where that package is missing
/// (off CI only: `.ci/run` installs it).
fn schema_errors(document: &serde_json::Value) -> Option<Option<String>> {
    const CHECK: &str = "import json, sys\n\
try:\n    import jsonschema\nexcept ImportError:\n    sys.exit(3)\n\
schema = json.load(open(sys.argv[1]))\n\
jsonschema.Draft202012Validator.check_schema(schema)\n\
errors = jsonschema.Draft202012Validator(schema).iter_errors(json.load(sys.stdin))\n\
for error in errors:\n    print('/'.join(map(str, error.absolute_path)) + ': ' + error.message)\n";
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("report.schema.json");
    let mut child = std::process::Command::new("python3")
        .args(["-c", CHECK])
        .arg(&schema)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    serde_json::to_writer(child.stdin.take().unwrap(), document).unwrap();
    let output = child.wait_with_output().unwrap();
    if output.status.code() == Some(3) {
        skip_off_ci("no jsonschema for python3: the JSON report is not checked by its schema");
        return None;
    }
    assert!(output.status.success(), "the schema check failed");
    let errors = String::from_utf8(output.stdout).unwrap();
    Some((!errors.is_empty()).then_some(errors))
}

pub(crate) fn assert_valid(document: &serde_json::Value) {
    if let Some(Some(errors)) = schema_errors(document) {
        panic!("{errors}");
    }
}

#[test]
fn json_report_validates_against_the_schema_and_keeps_its_shape() {
    let repository = sum_repository();
    let accepted = json_of(repository.path(), &["run", "sum"], 0);
    assert_valid(&accepted);
    assert_eq!(accepted["summary"]["outcome"], "accepted");

    let wrong = json_of(
        repository.path(),
        &["run", "sum", "--solution", "solutions/wrong.rs"],
        1,
    );
    assert_valid(&wrong);
    assert!(wrong["containment"]["level"].is_string(), "{wrong}");
    // What held the run is the machine's: validated above, not kept in the snapshot.
    let mut wrong = wrong;
    wrong["containment"] = "[what this machine allows]".into();
    wrong["run"]["host"] = "[this machine]".into();
    let text = serde_json::to_string_pretty(&wrong).unwrap();
    let mut settings = stable_report();
    settings.add_filter(
        r#""(cpu_time_ms|wall_time_ms|peak_memory_bytes|max_cpu_time_ms|max_peak_memory_bytes|wall_time_s)": [-+\d.eE]+"#,
        r#""$1": "[figure]""#,
    );
    settings.add_filter(r#""(compiled|cached)": \d+"#, r#""$1": "[n]""#);
    settings.add_filter(
        r#""build": "(compiled|cached)""#,
        r#""build": "[compiled or cached]""#,
    );
    settings.bind(|| insta::assert_snapshot!("json_wrong", text));

    let compile_error = repository_with(&[
        ("problems/p/tests/1.in", "1\n"),
        ("problems/p/tests/1.out", "1\n"),
        ("solutions/p.rs", "fn main() { nope }\n"),
    ]);
    let document = json_of(compile_error.path(), &["run"], 1);
    assert_valid(&document);
    assert_eq!(document["problems"][0]["status"], "compile_error");
}

#[test]
fn the_schema_rejects_what_it_should() {
    let repository = sum_repository();
    let mut document = json_of(repository.path(), &["run", "sum"], 0);
    document["problems"][0]["cases"][0]["verdict"] = "OK".into();
    assert!(
        schema_errors(&document).is_none_or(|errors| errors.is_some()),
        "an unknown verdict must not validate"
    );
}

#[test]
fn junit_file_is_read_by_a_junit_parser_and_keeps_its_shape() {
    let repository = sum_repository();
    let file = repository.path().join("report.xml");
    judge_in(repository.path())
        .args(["run", "sum", "--solution", "solutions/wrong.rs", "--junit"])
        .arg(&file)
        .assert()
        .code(1);
    let xml = std::fs::read_to_string(&file).unwrap();
    let suites = junit_parser::from_reader(xml.as_bytes()).expect("valid JUnit XML");
    let suite = &suites.suites[0];
    assert_eq!((suite.tests, suite.failures), (4, 1));
    let mut settings = stable_report();
    settings.add_filter(r#"(time|timestamp)="[^"]*""#, r#"$1="[time]""#);
    settings.add_filter(
        r#"name="containment" value="[^"]*""#,
        r#"name="containment" value="[level]""#,
    );
    settings.bind(|| insta::assert_snapshot!("junit_wrong", xml));
}

#[test]
fn partitions_hold_every_case_exactly_once() {
    let repository = sum_repository();
    let dir = repository.path();
    let all: Vec<(String, String)> = cases_of(&json_of(dir, &["run"], 0));
    let mut union = Vec::new();
    for slice in 1..=3 {
        let part = cases_of(&json_of(
            dir,
            &["run", "--partition", &format!("{slice}/3")],
            0,
        ));
        assert!(!part.is_empty());
        union.extend(part);
    }
    assert_eq!(union.len(), all.len(), "no case is judged twice");
    let union: BTreeSet<_> = union.into_iter().collect();
    let all: BTreeSet<_> = all.into_iter().collect();
    assert_eq!(union, all);
    judge_in(dir)
        .args(["run", "--partition", "4/3"])
        .assert()
        .code(2);
    judge_in(dir)
        .args(["run", "--partition", "0/3"])
        .assert()
        .code(2);
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

/// The headless browser CI renders pages with; `None` (the test says so) off CI when there
/// is none. `.ci/run` installs Chromium where it is missing.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|browser| on_path(browser));
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI renders the HTML report: install chromium"
        );
        eprintln!("no chromium on PATH: the HTML report is not rendered here");
    }
    found
}

#[test]
fn the_html_report_renders_every_case_and_the_failing_board_in_a_real_browser() {
    let out = tempfile::tempdir().unwrap();
    let wrong = out.path().join("no_winner.py");
    std::fs::write(&wrong, "import sys\nsys.stdin.read()\nprint(0)\n").unwrap();
    let page = out.path().join("report.html");
    let wrong_arg = wrong.display().to_string();
    let page_arg = page.display().to_string();
    let judged = json_of(
        &repository_root(),
        &[
            "run",
            "boj_2615",
            "--solution",
            &wrong_arg,
            "--case",
            "sample/*",
            "--case",
            "capped/down-*",
            "--html",
            &page_arg,
        ],
        1,
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("Content-Security-Policy\" content=\"default-src 'none'"),
        "nothing may be fetched"
    );
    let Some(browser) = chromium() else { return };
    let rendered = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&rendered.stdout);
    let log = String::from_utf8_lossy(&rendered.stderr);
    // No console message: no script error, and no request the page's policy had to block.
    let console: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("CONSOLE"))
        .collect();
    assert!(console.is_empty(), "{console:#?}");
    // Every case judged is a row, with its verdict.
    let cases = judged["problems"][0]["cases"].as_array().unwrap();
    assert!(cases.len() >= 3);
    for case in cases {
        let row = format!(
            "data-verdict=\"{}\"><td><span class=\"verdict {0}\">{}</span></td><td>{}</td>",
            case["verdict"].as_str().unwrap(),
            case["verdict_text"].as_str().unwrap(),
            case["name"].as_str().unwrap()
        );
        assert!(dom.contains(&row), "{row} is not on the page");
    }
    // The failing sample's board is drawn: 19 x 19 cells, a disc for each of its stones.
    let sample =
        std::fs::read_to_string(repository_root().join("problems/boj_2615/tests/sample/1.in"))
            .unwrap();
    let stones = sample
        .split_whitespace()
        .filter(|cell| *cell != "0")
        .count();
    let board = &dom[dom
        .find("aria-label=\"19 by 19 board\"")
        .expect("the board is drawn")..];
    let board = &board[..board.find("</svg>").unwrap()];
    assert_eq!(board.matches("class=\"mark\"").count(), stones);
    // problem.toml's [picture] answer_cell: the cell the expected answer names is ringed.
    let answer =
        std::fs::read_to_string(repository_root().join("problems/boj_2615/tests/sample/1.out"))
            .unwrap();
    let cell: Vec<usize> = answer
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let ring = format!(
        "class=\"expected-cell\" x=\"{}\" y=\"{}\"",
        (cell[1] - 1) * 22 + 1,
        (cell[0] - 1) * 22 + 1
    );
    assert!(board.contains(&ring), "{ring} is not on the board");
}

#[test]
fn verify_writes_a_page_of_its_submissions_and_their_cases() {
    let out = tempfile::tempdir().unwrap();
    let page = out.path().join("verify.html");
    let said = stdout_of(
        judge_in(out.path())
            .args(["verify", &fixture("kattis/data_dirs"), "--html"])
            .arg(&page),
        0,
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    let summary = said
        .lines()
        .find(|line| line.contains("submissions"))
        .unwrap();
    assert!(
        html.contains(&format!("<p id=\"summary\">{summary}</p>")),
        "{summary}"
    );
    for (submission, folder) in [
        ("accepted/echo.py", "accepted"),
        ("wrong_answer/not_nine.py", "wrong_answer"),
    ] {
        let row =
            format!("data-outcome=\"kept\"><td><code>{submission}</code></td><td>{folder}</td>");
        assert!(html.contains(&row), "{row} missing from {html}");
    }
    // A cell per case the accepted submission was judged on.
    let cells = html.matches("class=\"cell AC\"").count();
    assert!(cells >= 3, "{cells} cells");
}
