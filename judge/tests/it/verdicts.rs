//! One solution per verdict, judged in one parallel run against the fixture problem, checked
//! against one table of expected verdicts. Also checks that nothing a solution started is
//! still alive afterwards.

use std::path::{Path, PathBuf};

use judge::problem::Repository;
use judge::report::Collector;
use judge::runner::{judge_all, Settings, Task};

use crate::common::library_compiler;

/// Fixture solution (file stem), the verdict of each of the two cases (one entry for CE), and
/// a fragment the first failure's message must hold.
pub(crate) const EXPECTED: &[(&str, &[&str], &str)] = &[
    ("accepted", &["AC", "AC"], ""),
    (
        "wrong_answer",
        &["WA", "WA"],
        "line 1: expected `3`, got `4`",
    ),
    ("empty_output", &["WA", "WA"], "line 1: empty output"),
    ("invalid_utf8", &["WA", "WA"], "got `\u{fffd}\u{fffd}3`"),
    ("busy_loop", &["TLE", "TLE"], "CPU time"),
    ("sleeps_forever", &["TLE", "TLE"], "wall-clock backstop"),
    ("memory_hog", &["MLE", "MLE"], "over the 64.0 MiB limit"),
    (
        "endless_output",
        &["OLE", "OLE"],
        "more than 1.0 MiB of output",
    ),
    ("floods_stderr", &["AC", "AC"], ""),
    (
        "panics",
        &["RE (exit 101)", "RE (exit 101)"],
        "exited with code 101",
    ),
    (
        "exit_code",
        &["RE (exit 3)", "RE (exit 3)"],
        "exited with code 3",
    ),
    (
        "segfault",
        &["RE (SIGSEGV)", "RE (SIGSEGV)"],
        "killed by SIGSEGV",
    ),
    (
        "aborts",
        &["RE (SIGABRT)", "RE (SIGABRT)"],
        "killed by SIGABRT",
    ),
    (
        "stack_overflow",
        &["RE (SIGABRT)", "RE (SIGABRT)"],
        "killed by SIGABRT",
    ),
    ("deep_recursion", &["AC", "AC"], ""),
    ("compile_error", &["CE"], ""),
    ("leaves_a_child", &["AC", "AC"], ""),
    ("fork_bomb", &["TLE", "TLE"], ""),
    ("never_reads_input", &["AC", "WA"], "expected `42`, got `3`"),
    ("reads_past_the_end", &["AC", "AC"], ""),
    ("writes_files", &["AC", "AC"], ""),
];

/// What `leaves_a_child` starts; it must not survive the run.
const ORPHAN_COMMAND: &[u8] = b"sleep\x00987654";

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/verdicts")
}

/// Processes still alive that a fixture started: the fixtures' own programs (`programs`),
/// and the child `leaves_a_child` starts. Not anything else in the shared build cache: the
/// other tests, running meanwhile, start their programs from there too.
fn processes_left(programs: &[PathBuf]) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let dir = entry.ok()?.path();
            let exe = std::fs::read_link(dir.join("exe")).unwrap_or_default();
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            (programs.contains(&exe) || cmdline.starts_with(ORPHAN_COMMAND))
                .then(|| dir.display().to_string())
        })
        .collect()
}

/// The run folders of this process's supervisors (`judge-run-OWNER-PID`, in the temporary
/// folder): the judges the other tests start make theirs there too, under their own pid.
fn run_folders_left() -> Vec<PathBuf> {
    let ours = format!("judge-run-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&ours)
        })
        .collect()
}

/// Every file below `dir`, to show that a run wrote nothing into the repository.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .collect();
    files.sort();
    files
}

#[test]
fn every_fixture_gets_its_verdict_in_one_parallel_run() {
    // Not a private TMPDIR: set for this process, it would reach the judges and temporary
    // folders of the tests running beside this one. Those that use the library (the
    // toolchain tests) make run folders under this process's pid too, and may be running
    // now: theirs are not this run's.
    let earlier = run_folders_left();
    let dir = fixture_dir();
    let repository = Repository {
        root: dir.clone(),
        standalone: false,
    };
    let problem = repository
        .load_problem(&dir)
        .expect("fixture problem loads");
    assert_eq!(problem.cases.len(), 2);
    let before = files_below(&dir);

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
            EXPECTED.iter().any(|(name, _, _)| name == stem),
            "fixture solutions/{stem}.rs has no row in EXPECTED"
        );
    }

    let tasks = EXPECTED
        .iter()
        .map(|(name, _, _)| {
            Ok(Task {
                problem: problem.clone(),
                solution: dir.join("solutions").join(format!("{name}.rs")),
                one_at_a_time: false,
            })
        })
        .collect();
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("judge-cache");
    let compiler = library_compiler(&cache);
    let mut collected = Collector::default();
    let summary = judge_all(
        tasks,
        &compiler,
        &Settings {
            jobs: 2,
            fail_fast: false,
            result_cache: false,
        },
        &mut collected,
    );
    let solutions: Vec<_> = collected
        .judged
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("every solution is judged");
    let programs: Vec<PathBuf> = EXPECTED
        .iter()
        .filter_map(|(name, ..)| {
            let source = dir.join("solutions").join(format!("{name}.rs"));
            match compiler.build(&source).unwrap() {
                judge::toolchain::Build::Ready(program) => {
                    Some(PathBuf::from(&program.command(&problem.limits)[0]))
                }
                judge::toolchain::Build::CompileError(_) => None,
            }
        })
        .collect();
    assert_eq!(programs.len(), EXPECTED.len() - 1);
    // As the judge does before it exits: the supervisors end and remove what they made.
    drop(compiler);

    let mut mismatches = Vec::new();
    for ((name, expected, message), got) in EXPECTED.iter().zip(&solutions) {
        assert!(got.solution.ends_with(format!("{name}.rs")));
        let texts: Vec<String> = if got.compile_error {
            vec!["CE".into()]
        } else {
            got.verdicts.iter().map(ToString::to_string).collect()
        };
        let first_message = got.first_failure.clone().unwrap_or_default();
        if texts != *expected || !first_message.contains(message) {
            mismatches.push(format!(
                "{name}: expected {expected:?} with {message:?}, got {texts:?} with {first_message:?}"
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_eq!(summary.compile_errors, 1);
    assert_eq!(summary.tally.cases, 2 * (EXPECTED.len() - 1));
    assert_eq!(
        processes_left(&programs),
        Vec::<String>::new(),
        "processes outlived the run"
    );
    // The supervisors remove their run folders as they exit, a moment after shutdown (longer
    // on a machine loaded by other tests: the starvation test keeps every core busy).
    let left = || -> Vec<PathBuf> {
        let mut left = run_folders_left();
        left.retain(|folder| !earlier.contains(folder));
        left
    };
    let started = std::time::Instant::now();
    while !left().is_empty() && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(left().is_empty(), "temporary folders left: {:?}", left());
    assert_eq!(files_below(&dir), before, "a run wrote into the repository");
}
