//! One solution per verdict, judged in one parallel run against the fixture problem, checked
//! against one table of expected verdicts. Also checks that nothing a solution started is
//! still alive afterwards.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use judge::compile::{Compiler, Program};
use judge::discover::Repository;
use judge::error::Error;
use judge::problem::Problem;
use judge::report::Reporter;
use judge::schedule::{judge_all, CaseResult, RunSummary, Settings, Tally, Task};

/// Fixture solution (file stem) and the verdict every case must get.
const EXPECTED: &[(&str, &str)] = &[
    ("accepted", "AC"),
    ("wrong_answer", "WA"),
    ("empty_output", "WA"),
    ("busy_loop", "TLE"),
    ("sleeps_forever", "TLE"),
    ("memory_hog", "MLE"),
    ("endless_output", "OLE"),
    ("panics", "RE (exit 101)"),
    ("exit_code", "RE (exit 3)"),
    ("segfault", "RE (SIGSEGV)"),
    ("aborts", "RE (SIGABRT)"),
    ("compile_error", "CE"),
    ("leaves_a_child", "AC"),
];

/// What `leaves_a_child` starts; it must not survive the run.
const ORPHAN_COMMAND: &[u8] = b"sleep\x00987654";

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/verdicts")
}

/// Records the verdicts of each solution, keyed by the solution's file stem.
#[derive(Default)]
struct Verdicts {
    current: String,
    by_solution: BTreeMap<String, Vec<String>>,
}

impl Reporter for Verdicts {
    fn problem_error(&mut self, error: &Error) {
        panic!("fixture problem failed to load: {error}");
    }
    fn problem_started(&mut self, _: &Problem, solution: &Path, _: Option<&Program>) {
        self.current = solution.file_stem().unwrap().to_string_lossy().into_owned();
        self.by_solution.entry(self.current.clone()).or_default();
    }
    fn compile_error(&mut self, _: &Problem, _: &str) {
        self.by_solution
            .get_mut(&self.current)
            .unwrap()
            .push("CE".into());
    }
    fn case_finished(&mut self, _: &Problem, result: &CaseResult) {
        let verdict = result.verdict.to_string();
        self.by_solution
            .get_mut(&self.current)
            .unwrap()
            .push(verdict);
    }
    fn problem_finished(&mut self, _: &Problem, _: &Tally) {}
    fn run_finished(&mut self, _: &RunSummary) {}
}

fn orphans_alive() -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| cmdline.starts_with(ORPHAN_COMMAND))
        .count()
}

#[test]
fn every_fixture_gets_its_verdict_in_one_parallel_run() {
    let dir = fixture_dir();
    let repository = Repository { root: dir.clone() };
    let problem = repository
        .load_problem(&dir)
        .expect("fixture problem loads");
    assert_eq!(problem.cases.len(), 2);

    let on_disk: Vec<String> = std::fs::read_dir(dir.join("solutions"))
        .unwrap()
        .map(|entry| {
            entry
                .unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for stem in &on_disk {
        assert!(
            EXPECTED.iter().any(|(name, _)| name == stem),
            "fixture solutions/{stem}.rs has no row in EXPECTED"
        );
    }

    let tasks = EXPECTED
        .iter()
        .map(|(name, _)| {
            Ok(Task {
                problem: problem.clone(),
                solution: dir.join("solutions").join(format!("{name}.rs")),
            })
        })
        .collect();
    let compiler = Compiler::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache"));
    let mut verdicts = Verdicts::default();
    let summary = judge_all(tasks, &compiler, &Settings { jobs: 2 }, &mut verdicts);

    let mut mismatches = Vec::new();
    for (name, expected) in EXPECTED {
        let got = &verdicts.by_solution[*name];
        let all_as_expected = if *expected == "CE" {
            got == &["CE"]
        } else {
            got.len() == 2 && got.iter().all(|verdict| verdict == expected)
        };
        if !all_as_expected {
            mismatches.push(format!("{name}: expected {expected}, got {got:?}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_eq!(summary.compile_errors, 1);
    assert_eq!(summary.tally.cases, 2 * (EXPECTED.len() - 1));
    assert_eq!(
        orphans_alive(),
        0,
        "a process started by a solution outlived the run"
    );
}
