//! `judge watch`: judges once, then again whenever anything in the problem's folder or the
//! solution files changes, one screen per round. Last round's failures go first, then the
//! samples, so the verdict that matters shows soonest.
//!
//! An editor's save is often several events (write, rename, chmod): a round starts once they
//! have been quiet for `QUIET`. Ctrl-C stops the round through the runner's interruption,
//! then the loop.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher};

use crate::app::Context;
use crate::error::{Error, Result};
use crate::judging::verdict::Verdict;
use crate::judging::CaseResult;
use crate::problem::layout::SOLUTIONS_DIR;
use crate::problem::{CasePatterns, Repository};
use crate::problem::{Problem, TestCase};
use crate::report::{Detail, HtmlReporter, HumanReporter, Notices, Reporter, Reporters};
use crate::runner::{self, Settings};

const QUIET: Duration = Duration::from_millis(100);
/// How often the wait looks at the interrupt flag.
const TICK: Duration = Duration::from_millis(50);

pub struct WatchSettings {
    pub problems: Vec<PathBuf>,
    pub solution: Option<PathBuf>,
    pub cases: CasePatterns,
    /// Rewritten after each round (`--html`).
    pub html: Option<PathBuf>,
}

/// Until interrupted.
pub fn run(context: &Context, watch: &WatchSettings) -> Result<()> {
    let repository = &context.repository;
    let (sender, events) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        // The loop may have ended.
        let _ = sender.send(event);
    })
    .map_err(|error| Error::usage(format!("cannot watch files: {error}")))?;
    let dirs = watched_dirs(context, watch)?;
    for (dir, mode) in &dirs {
        watcher.watch(dir, *mode).map_err(|error| {
            Error::io(dir, std::io::Error::other(format!("cannot watch: {error}")))
        })?;
    }
    let mut notices = context.notices("watch");
    let mut failed: HashSet<(String, String)> = HashSet::new();
    let mut changed: Option<PathBuf> = None;
    for round in 1.. {
        failed = judge_round(
            context,
            watch,
            round,
            changed.as_deref(),
            &failed,
            &mut notices,
        );
        if crate::runner::interrupt::pending() {
            return Ok(());
        }
        notices.info(format_args!(
            "\nwatching {} folder(s); save a file to judge again, Ctrl-C stops",
            dirs.len()
        ));
        match wait_for_change(&events, repository, watch) {
            Some(path) => changed = Some(path),
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The problem folders (recursively) and the solution files' folder (not the files: editors
/// save by renaming a new file over the old one).
fn watched_dirs(context: &Context, watch: &WatchSettings) -> Result<Vec<(PathBuf, RecursiveMode)>> {
    let repository = &context.repository;
    let mut dirs = Vec::new();
    let problem_dirs: Vec<PathBuf> = if watch.problems.is_empty() {
        repository.problem_dirs()?.into_iter().flatten().collect()
    } else {
        watch
            .problems
            .iter()
            .map(|name| context.problem_dir(name))
            .collect::<Result<_>>()?
    };
    for dir in problem_dirs {
        dirs.push((dir, RecursiveMode::Recursive));
    }
    let solutions = match &watch.solution {
        Some(file) => file.parent().map(Path::to_path_buf).unwrap_or_default(),
        None => repository.root.join(SOLUTIONS_DIR),
    };
    if solutions.is_dir() && !dirs.iter().any(|(dir, _)| solutions.starts_with(dir)) {
        dirs.push((solutions, RecursiveMode::NonRecursive));
    }
    Ok(dirs)
}

/// `None` when asked to stop.
fn wait_for_change(
    events: &mpsc::Receiver<notify::Result<notify::Event>>,
    repository: &Repository,
    watch: &WatchSettings,
) -> Option<PathBuf> {
    let mut first: Option<PathBuf> = None;
    let mut last_change = Instant::now();
    loop {
        if crate::runner::interrupt::pending() {
            return None;
        }
        match events.recv_timeout(TICK) {
            Ok(Ok(event)) => {
                if let Some(path) = relevant(&event, repository, watch) {
                    first.get_or_insert(path);
                    last_change = Instant::now();
                }
            }
            // A folder removed, an overflowed queue: judge again, to be safe.
            Ok(Err(_)) => {
                first.get_or_insert_with(PathBuf::new);
                last_change = Instant::now();
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return None,
        }
        if first.is_some() && last_change.elapsed() >= QUIET {
            return first;
        }
    }
}

/// The changed path that should start a round: not a read, not the judge's own temporary
/// file, and in the solutions folder only a solution being judged.
fn relevant(
    event: &notify::Event,
    repository: &Repository,
    watch: &WatchSettings,
) -> Option<PathBuf> {
    if matches!(event.kind, EventKind::Access(_) | EventKind::Other) {
        return None;
    }
    let solutions = repository.root.join(SOLUTIONS_DIR);
    event
        .paths
        .iter()
        .find(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if name.is_empty() || crate::atomic_write::is_temp_name(name) || name.starts_with('.') {
                return false;
            }
            match &watch.solution {
                Some(file) if path.parent() == file.parent() => *path == file,
                _ if path.parent() == Some(solutions.as_path()) => {
                    // Any language's file of a watched problem (any, when none named).
                    let stem = path
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or_default();
                    watch.problems.is_empty()
                        || watch.problems.iter().any(|problem| problem == stem)
                }
                _ => true,
            }
        })
        .cloned()
}

/// The cases that failed in it.
fn judge_round(
    context: &Context,
    watch: &WatchSettings,
    round: usize,
    changed: Option<&Path>,
    failed_before: &HashSet<(String, String)>,
    notices: &mut Notices,
) -> HashSet<(String, String)> {
    let repository = &context.repository;
    if std::io::stdout().is_terminal() {
        print!("\x1b[2J\x1b[H");
    }
    let because = changed
        .filter(|path| !path.as_os_str().is_empty())
        .map(|path| format!(" · {} changed", repository.relative(path).display()))
        .unwrap_or_default();
    notices.info(format_args!("judge watch · round {round}{because}\n"));
    let problems = match context.problems(&watch.problems) {
        Ok(problems) => problems,
        Err(error) => {
            notices.problem(format_args!("error: {error}"));
            return HashSet::new();
        }
    };
    let problems = problems
        .into_iter()
        .map(|problem| {
            problem.map(|mut problem| {
                order_cases(&mut problem, &watch.cases, failed_before);
                problem
            })
        })
        .collect();
    let tasks = runner::plan::tasks_for(repository, problems, watch.solution.as_deref());
    let compiler = context.compiler();
    // Every case has its row, unless asked otherwise.
    let detail = match context.detail {
        Detail::Default => Detail::Verbose,
        chosen => chosen,
    };
    let mut human = HumanReporter::new(context.color, repository.clone(), detail);
    let mut failures = Failures::default();
    let mut html = watch
        .html
        .as_ref()
        .map(|file| HtmlReporter::new(file.clone(), repository.root.clone()));
    let mut reporters: Vec<&mut dyn Reporter> = vec![&mut human, &mut failures];
    if let Some(html) = html.as_mut() {
        reporters.push(html);
    }
    runner::judge_all(
        tasks,
        &compiler,
        &Settings {
            jobs: context.jobs,
            fail_fast: false,
            result_cache: true,
        },
        &mut Reporters(reporters),
    );
    if let Some(error) = html.and_then(|html| html.write_error) {
        crate::report::print_error(&error);
    }
    failures.failed
}

/// Last round's failures first, then the samples, the rest in their natural order.
fn order_cases(problem: &mut Problem, patterns: &CasePatterns, failed: &HashSet<(String, String)>) {
    problem.cases.retain(|case| patterns.matches(&case.name));
    let id = problem.id.clone();
    let rank = |case: &TestCase| {
        let failed_last = failed.contains(&(id.clone(), case.name.clone()));
        (!failed_last, !case.name.starts_with("sample"))
    };
    problem.cases.sort_by_key(rank);
}

/// Records the cases that failed, so that the next round judges them first.
#[derive(Default)]
struct Failures {
    failed: HashSet<(String, String)>,
}

impl Reporter for Failures {
    fn case_finished(&mut self, problem: &Problem, result: &CaseResult) {
        if result.verdict != Verdict::Accepted {
            self.failed
                .insert((problem.id.clone(), result.name.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_first_then_samples() {
        let case = |name: &str| TestCase::new(name.into(), PathBuf::new(), PathBuf::new());
        let mut problem = Problem::parse("p".into(), Path::new("p"), "", PathBuf::from("s.rs"))
            .expect("an empty problem.toml is valid");
        problem.cases = ["random/1", "random/2", "sample/1", "sample/2", "big/1"]
            .map(case)
            .to_vec();
        let failed = HashSet::from([("p".to_owned(), "random/2".to_owned())]);
        let all = CasePatterns::new(&[]).unwrap();
        order_cases(&mut problem, &all, &failed);
        let names: Vec<&str> = problem.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["random/2", "sample/1", "sample/2", "random/1", "big/1"]
        );
        let samples = CasePatterns::new(&["sample/*".to_owned()]).unwrap();
        order_cases(&mut problem, &samples, &HashSet::new());
        assert_eq!(problem.cases.len(), 2);
    }
}
