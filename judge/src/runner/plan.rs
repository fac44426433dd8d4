//! What a run judges: the tasks of the problems named (or of an earlier run's failures), the
//! cases that match, each unit of work's place in the run, and a partition's shard of them.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::shard::{self, Partition};
use super::Task;
use crate::error::{CorpusFault, Error, Result};
use crate::judging::verdict::VerdictKind;
use crate::problem::{CasePatterns, Problem, Repository};
use crate::report::record::{CaseListRecord, ProblemReport, ProblemStatus, RunDocument};
use crate::report::CaseOrder;

/// The tasks of a run, cut to its shard, with what its report says of the whole run.
#[derive(Debug)]
pub struct Plan {
    /// Problems that failed to load in their place.
    pub tasks: Vec<Result<Task>>,
    /// Every solution's and case's place in the whole run (every shard of it).
    pub order: CaseOrder,
    pub case_list: CaseListRecord,
    /// The fingerprint of the case times a balanced shard was cut by.
    pub balanced_by: Option<String>,
}

/// Keeps `partition`'s shard (all without one), balanced by `costs` (an earlier report's
/// times) when given.
pub fn plan(
    repository: &Repository,
    mut tasks: Vec<Result<Task>>,
    partition: Option<Partition>,
    costs: Option<&RunDocument>,
) -> Plan {
    let (order, case_list, identities) = place_cases(repository, &tasks);
    let mut balanced_by = None;
    if let Some(partition) = partition {
        let keep;
        (keep, balanced_by) = shard_units(partition, &identities, costs);
        cut(&mut tasks, &keep);
    }
    Plan {
        tasks,
        order,
        case_list,
        balanced_by,
    }
}

/// With patterns, drops the tasks left with no case, and errs when none keeps a case.
pub fn keep_matching(tasks: &mut Vec<Result<Task>>, patterns: &CasePatterns) -> Result<()> {
    for task in tasks.iter_mut().flatten() {
        task.problem
            .cases
            .retain(|case| patterns.matches(&case.name));
    }
    if patterns.is_empty() {
        return Ok(());
    }
    if !tasks
        .iter()
        .flatten()
        .any(|task| !task.problem.cases.is_empty())
    {
        return Err(Error::usage(format!(
            "no case matches {}",
            patterns.describe()
        )));
    }
    tasks.retain(|task| {
        task.as_ref()
            .map_or(true, |task| !task.problem.cases.is_empty())
    });
    Ok(())
}

/// Also the identity of each unit of work (a case of a solution; a solution with no case is
/// one).
fn place_cases(
    repository: &Repository,
    tasks: &[Result<Task>],
) -> (CaseOrder, CaseListRecord, Vec<String>) {
    let mut order = CaseOrder::default();
    let mut identities = Vec::new();
    let mut solutions = 0;
    for (index, task) in tasks.iter().enumerate() {
        let Ok(task) = task else { continue };
        solutions += 1;
        let cases = &task.problem.cases;
        order.add(
            &task.problem.dir,
            &task.solution,
            index,
            cases
                .iter()
                .enumerate()
                .map(|(at, case)| (case.name.clone(), at)),
        );
        let (dir, solution) = shown_identity(repository, task);
        if cases.is_empty() {
            identities.push(shard::identity(&dir, &solution, ""));
        }
        identities.extend(
            cases
                .iter()
                .map(|case| shard::identity(&dir, &solution, &case.name)),
        );
    }
    let list = CaseListRecord {
        fingerprint: shard::fingerprint(identities.iter().map(String::as_str)),
        solutions,
        cases: tasks
            .iter()
            .flatten()
            .map(|task| task.problem.cases.len())
            .sum(),
    };
    (order, list, identities)
}

/// As the report writes them.
fn shown_identity(repository: &Repository, task: &Task) -> (String, String) {
    let shown = |path: &Path| repository.relative(path).display().to_string();
    (shown(&task.problem.dir), shown(&task.solution))
}

/// Which units of work (in the run's order) the shard judges: by hash, dealt in order, or
/// balanced by `costs` (an earlier report's times); and the fingerprint of the costs used,
/// which every shard must share.
fn shard_units(
    partition: Partition,
    identities: &[String],
    costs: Option<&RunDocument>,
) -> (Vec<bool>, Option<String>) {
    let Some(report) = costs else {
        let keep = identities
            .iter()
            .enumerate()
            .map(|(ordinal, identity)| partition.keeps(ordinal, identity))
            .collect();
        return (keep, None);
    };
    let mut known = HashMap::new();
    for problem in &report.problems {
        for case in &problem.cases {
            let identity = shard::identity(&problem.dir, &problem.solution, &case.name);
            known.insert(identity, case.wall_time_ms);
        }
    }
    // A case the report lacks is expected to cost the median.
    let mut times: Vec<f64> = identities
        .iter()
        .filter_map(|id| known.get(id).copied())
        .collect();
    times.sort_by(f64::total_cmp);
    let typical = times.get(times.len() / 2).copied().unwrap_or(1.0);
    let costs: Vec<f64> = identities
        .iter()
        .map(|id| known.get(id).copied().unwrap_or(typical))
        .collect();
    let shard_of = shard::balance(&costs, partition.shards);
    let keep = shard_of
        .iter()
        .map(|&shard| shard + 1 == partition.shard)
        .collect();
    let described: Vec<String> = costs.iter().map(|cost| format!("{cost:.3}")).collect();
    (
        keep,
        Some(shard::fingerprint(described.iter().map(String::as_str))),
    )
}

/// `keep` is in the order `place_cases` numbers units. Tasks left with nothing to judge are
/// dropped; problems that failed to load stay in every shard, to be reported.
fn cut(tasks: &mut Vec<Result<Task>>, keep: &[bool]) {
    let mut ordinal = 0;
    let mut next = || {
        ordinal += 1;
        keep[ordinal - 1]
    };
    tasks.retain_mut(|task| {
        let Ok(task) = task else { return true };
        if task.problem.cases.is_empty() {
            return next();
        }
        task.problem.cases.retain(|_| next());
        !task.problem.cases.is_empty()
    });
}

/// Each problem the tasks judge, once, with every case some task of it judges.
pub fn problems_of(tasks: &[Result<Task>]) -> Vec<Problem> {
    // The names held so far in a set: a corpus of thousands of cases is not searched per case.
    let mut problems: Vec<(Problem, HashSet<String>)> = Vec::new();
    for task in tasks.iter().flatten() {
        let at = match problems.iter().position(|(p, _)| p.dir == task.problem.dir) {
            Some(at) => at,
            None => {
                let mut problem = task.problem.clone();
                problem.cases.clear();
                problems.push((problem, Default::default()));
                problems.len() - 1
            }
        };
        let (problem, names) = &mut problems[at];
        for case in &task.problem.cases {
            if names.insert(case.name.clone()) {
                problem.cases.push(case.clone());
            }
        }
    }
    problems.into_iter().map(|(problem, _)| problem).collect()
}

/// Tasks re-judging what `document` holds not accepted or not finished: each such case with
/// its solution, a solution that did not compile with all its cases; problems loaded by
/// `load`. Empty when there is nothing to re-run.
pub fn failed_tasks(
    repository: &Repository,
    document: &RunDocument,
    mut load: impl FnMut(&Path) -> Result<Problem>,
) -> Vec<Result<Task>> {
    let mut reports: Vec<&ProblemReport> = document.problems.iter().collect();
    reports.sort_by_key(|report| report.task);
    let mut tasks = Vec::new();
    for report in reports {
        let failed: Vec<&str> = report
            .cases
            .iter()
            .filter(|case| case.verdict != VerdictKind::Accepted)
            .map(|case| case.name.as_str())
            // What a stop left unjudged is not accepted either.
            .chain(report.not_finished.iter().map(String::as_str))
            .collect();
        let compile_error = report.status == ProblemStatus::CompileError;
        if failed.is_empty() && !compile_error {
            continue;
        }
        let root = &repository.root;
        let task = load(&root.join(&report.dir)).map(|mut problem| {
            if !compile_error {
                problem
                    .cases
                    .retain(|case| failed.contains(&case.name.as_str()));
            }
            Task {
                problem,
                solution: root.join(&report.solution),
                one_at_a_time: false,
            }
        });
        tasks.push(task);
    }
    tasks
}

/// A task per solution file of each problem (`solution` instead, when given); a problem that
/// failed to load, or whose file is missing, is an error in its place.
pub fn tasks_for(
    repository: &Repository,
    problems: Vec<Result<Problem>>,
    solution: Option<&Path>,
) -> Vec<Result<Task>> {
    problems
        .into_iter()
        .flat_map(|problem| {
            let problem = match problem {
                Ok(problem) => problem,
                Err(error) => return vec![Err(error)],
            };
            let solutions = match solution {
                Some(file) => vec![file.to_path_buf()],
                None => solutions_of(repository, &problem),
            };
            if let Some(missing) = solutions.iter().find(|solution| !solution.exists()) {
                return vec![Err(Error::corpus(
                    missing,
                    CorpusFault::NoSolution {
                        problem: problem.id.clone(),
                    },
                ))];
            }
            solutions
                .into_iter()
                .map(|solution| {
                    Ok(Task {
                        problem: problem.clone(),
                        solution,
                        one_at_a_time: false,
                    })
                })
                .collect()
        })
        .collect()
}

/// Every `solutions/<id>.<ext>` (one per language, for judges that take no Rust) when the one
/// `problem.toml` names is among them, else that one.
fn solutions_of(repository: &Repository, problem: &Problem) -> Vec<PathBuf> {
    let found = repository.solution_files(&problem.id);
    if found.contains(&problem.solution) {
        found
    } else {
        vec![problem.solution.clone()]
    }
}
