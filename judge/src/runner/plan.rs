//! What a run judges: the tasks of the problems named (or of an earlier run's failures), the
//! cases that match, each unit of work's place in the run, and a partition's shard of them:
//! a run cut into shards for machines judging in parallel (a CI matrix, a Kubernetes Indexed
//! Job, a Slurm array).
//!
//! `hash` shards keep a case where a fixed hash of its identity says (FNV-1a, then
//! SplitMix64's finaliser: both specified, so every machine and version agrees), so that
//! adding or removing cases moves no other; `count` shards deal cases in order.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Task;
use crate::error::{CorpusFault, Error, Result};
use crate::judging::verdict::VerdictKind;
use crate::problem::{CasePatterns, Problem, Repository};
// Defined with the report's records, which write and read it: the report cannot import
// the runner.
pub use crate::report::json::Dealing;
use crate::report::json::{CaseListRecord, ProblemReport, ProblemStatus, RunDocument};
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
    // Problems that could not be loaded are told as such, not as cases that do not match.
    if patterns.is_empty() || tasks.iter().all(Result::is_err) {
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
            identities.push(identity(&dir, &solution, ""));
        }
        identities.extend(
            cases
                .iter()
                .map(|case| identity(&dir, &solution, &case.name)),
        );
    }
    let list = CaseListRecord {
        fingerprint: fingerprint(identities.iter().map(String::as_str)),
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
            let identity = identity(&problem.dir, &problem.solution, &case.name);
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
    let shard_of = balance(&costs, partition.shards);
    let keep = shard_of
        .iter()
        .map(|&shard| shard + 1 == partition.shard)
        .collect();
    let described: Vec<String> = costs.iter().map(|cost| format!("{cost:.3}")).collect();
    (
        keep,
        Some(fingerprint(described.iter().map(String::as_str))),
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
pub fn solutions_of(repository: &Repository, problem: &Problem) -> Vec<PathBuf> {
    let found = repository.solution_files(&problem.id);
    if found.contains(&problem.solution) {
        found
    } else {
        vec![problem.solution.clone()]
    }
}

/// One shard of N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub dealing: Dealing,
    /// 1-based.
    pub shard: usize,
    pub shards: usize,
}

/// `hash:2/3`.
impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}/{}", self.dealing.name(), self.shard, self.shards)
    }
}

impl Partition {
    /// `K/N`, `count:K/N` or `hash:K/N`, with 1 <= K <= N.
    pub fn parse(text: &str) -> Option<Partition> {
        let (dealing, slice) = match text.split_once(':') {
            Some(("count", slice)) => (Dealing::Count, slice),
            Some(("hash", slice)) => (Dealing::Hash, slice),
            Some(_) => return None,
            None => (Dealing::Count, text),
        };
        let (shard, shards) = slice.split_once('/')?;
        let (shard, shards) = (shard.parse().ok()?, shards.parse().ok()?);
        (1 <= shard && shard <= shards).then_some(Partition {
            dealing,
            shard,
            shards,
        })
    }

    /// From the engine's variables (`var`): GitLab's `CI_NODE_INDEX`/`CI_NODE_TOTAL`
    /// (1-based), Slurm's `SLURM_ARRAY_TASK_ID`/`_COUNT` (from `SLURM_ARRAY_TASK_MIN` when
    /// set, else 1-based), a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based) with
    /// `JUDGE_SHARDS`. Always `hash` shards: the engine may add or drop machines between runs.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Partition, String> {
        let var = &var as &dyn Fn(&str) -> Option<String>;
        let mut found: Vec<(&str, usize, usize)> = Vec::new();
        let mut pair = |engine, variables, from| {
            let shard = engine_shard(var, engine, variables, from)?;
            found.extend(shard.map(|(shard, shards)| (engine, shard, shards)));
            Ok::<_, String>(())
        };
        pair("GitLab", ("CI_NODE_INDEX", "CI_NODE_TOTAL"), None)?;
        let slurm_from = env_number(var, "SLURM_ARRAY_TASK_MIN")?;
        check_slurm_array(var, slurm_from)?;
        let slurm = ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT");
        pair("Slurm", slurm, slurm_from)?;
        pair(
            "Kubernetes",
            ("JOB_COMPLETION_INDEX", "JUDGE_SHARDS"),
            Some(0),
        )?;
        let Some(&(engine, shard, shards)) = found.first() else {
            return Err(
                "--partition env: no shard in the environment: set CI_NODE_INDEX and \
                        CI_NODE_TOTAL (GitLab), SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT \
                        (Slurm), or JOB_COMPLETION_INDEX and JUDGE_SHARDS (Kubernetes)"
                    .to_owned(),
            );
        };
        if let Some((other, other_shard, other_shards)) =
            found.iter().find(|(_, s, n)| (*s, *n) != (shard, shards))
        {
            return Err(format!(
                "--partition env: {engine} says shard {shard}/{shards} but {other} says \
                 {other_shard}/{other_shards}"
            ));
        }
        Ok(Partition {
            dealing: Dealing::Hash,
            shard,
            shards,
        })
    }

    pub fn keeps(&self, ordinal: usize, identity: &str) -> bool {
        let slot = match self.dealing {
            Dealing::Count => ordinal as u64,
            Dealing::Hash => stable_hash(identity.as_bytes()),
        };
        slot % self.shards as u64 == self.shard as u64 - 1
    }
}

/// The shard (0-based) of each unit of work by expected cost, evening the totals: costliest
/// first, each to the least loaded shard (ties to the first unit and lowest shard), so that
/// no shard exceeds the best cut by more than a third. The same costs give the same cut.
pub fn balance(costs: &[f64], shards: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    let mut load = vec![0.0_f64; shards];
    let mut shard_of = vec![0; costs.len()];
    for unit in order {
        let lightest = (0..shards)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .unwrap_or(0);
        load[lightest] += costs[unit];
        shard_of[unit] = lightest;
    }
    shard_of
}

/// A case's identity, each part as the report writes it (`case` empty for a solution with no
/// case).
pub fn identity(problem_dir: &str, solution: &str, case: &str) -> String {
    format!("{problem_dir}\n{solution}\n{case}")
}

/// Shards cut from the same case list agree on it.
pub fn fingerprint<'a>(identities: impl IntoIterator<Item = &'a str>) -> String {
    let mut hash = FNV_OFFSET;
    for identity in identities {
        hash = fnv(hash, identity.as_bytes());
        hash = fnv(hash, b"\0");
    }
    format!("{:016x}", mix(hash))
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// SplitMix64's finaliser: every input bit moves about half of the output's.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn stable_hash(bytes: &[u8]) -> u64 {
    mix(fnv(FNV_OFFSET, bytes))
}

fn env_number(var: &dyn Fn(&str) -> Option<String>, name: &str) -> Result<Option<usize>, String> {
    match var(name) {
        None => Ok(None),
        Some(text) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| format!("{name}={text:?} is not a whole number")),
    }
}

/// (shard from 1, shards) from `engine`'s variables, the index counted from `from` (1 when
/// `None`); `None` when neither is set.
fn engine_shard(
    var: &dyn Fn(&str) -> Option<String>,
    engine: &str,
    (index, total): (&str, &str),
    from: Option<usize>,
) -> Result<Option<(usize, usize)>, String> {
    match (env_number(var, index)?, env_number(var, total)?) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(format!("{engine}: {index} is set but not {total}")),
        (None, Some(_)) => Err(format!("{engine}: {total} is set but not {index}")),
        (Some(index_value), Some(total_value)) => {
            let first = from.unwrap_or(1);
            let shard = (index_value + 1)
                .checked_sub(first)
                .filter(|shard| (1..=total_value).contains(shard))
                .ok_or_else(|| {
                    format!(
                        "{engine}: {index}={index_value} is not one of the {total_value} \
                         shards (counted from {first})"
                    )
                })?;
            Ok(Some((shard, total_value)))
        }
    }
}

/// A Slurm array from `min` must have one task per index, as shards are its task ids.
fn check_slurm_array(
    var: &dyn Fn(&str) -> Option<String>,
    min: Option<usize>,
) -> Result<(), String> {
    if let (Some(min), Some(max), Some(count)) = (
        min,
        env_number(var, "SLURM_ARRAY_TASK_MAX")?,
        env_number(var, "SLURM_ARRAY_TASK_COUNT")?,
    ) {
        if max + 1 < min || max + 1 - min != count {
            return Err(format!(
                "Slurm: the array {min}-{max} has {count} tasks, not one per index: \
                 use --array={min}-{} (step 1)",
                min + count - 1
            ));
        }
    }
    Ok(())
}

/// Long enough to rise above the clock's resolution, short enough to cost a run nothing.
const CALIBRATION_ROUNDS: u64 = 1_000_000;

/// The speed of this host for a shard's report, so that a merged report can say when its
/// shards' hosts differ: the fastest of three fixed loops, in CPU time (so that the run it
/// overlaps does not change it), on a thread of its own.
pub fn calibrate() -> std::thread::JoinHandle<f64> {
    std::thread::spawn(|| {
        let fastest = (0..3).map(|_| calibration_loop()).min().unwrap_or_default();
        (fastest.as_secs_f64() * 1e6).round() / 1e3
    })
}

/// The thread's CPU time for integer work the compiler must keep.
fn calibration_loop() -> Duration {
    let started = thread_cpu_time();
    let mut state = std::hint::black_box(0x9e37_79b9_7f4a_7c15_u64);
    for _ in 0..std::hint::black_box(CALIBRATION_ROUNDS) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
    }
    std::hint::black_box(state);
    thread_cpu_time().saturating_sub(started)
}

fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn hash(shard: usize, shards: usize) -> Partition {
        Partition {
            dealing: Dealing::Hash,
            shard,
            shards,
        }
    }

    #[test]
    fn partitions_parse_with_their_dealing() {
        let count = |shard, shards| Partition {
            dealing: Dealing::Count,
            shard,
            shards,
        };
        assert_eq!(Partition::parse("2/4"), Some(count(2, 4)));
        assert_eq!(Partition::parse("count:1/1"), Some(count(1, 1)));
        assert_eq!(Partition::parse("hash:3/7"), Some(hash(3, 7)));
        for bad in [
            "0/3", "4/3", "hash:", "hash:1", "rand:1/2", "1/0", "a/b", "",
        ] {
            assert_eq!(Partition::parse(bad), None, "{bad}");
        }
        assert_eq!(hash(3, 7).to_string(), "hash:3/7");
    }

    #[test]
    fn each_engine_names_the_same_shard() {
        let gitlab = env(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "3")]);
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        let slurm_from_zero = env(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "2"),
        ]);
        let kubernetes = env(&[("JOB_COMPLETION_INDEX", "1"), ("JUDGE_SHARDS", "3")]);
        for var in [
            &gitlab as &dyn Fn(&str) -> Option<String>,
            &slurm,
            &slurm_from_zero,
            &kubernetes,
        ] {
            assert_eq!(Partition::from_env(var), Ok(hash(2, 3)));
        }
    }

    #[test]
    fn a_missing_or_inconsistent_variable_is_refused() {
        let refused = |pairs: &[(&str, &str)], says: &str| {
            let error = Partition::from_env(env(pairs)).unwrap_err();
            assert!(error.contains(says), "{error}");
        };
        refused(&[], "no shard in the environment");
        refused(
            &[("CI_NODE_INDEX", "1")],
            "CI_NODE_INDEX is set but not CI_NODE_TOTAL",
        );
        refused(
            &[("JUDGE_SHARDS", "3")],
            "JUDGE_SHARDS is set but not JOB_COMPLETION_INDEX",
        );
        refused(
            &[("CI_NODE_INDEX", "4"), ("CI_NODE_TOTAL", "3")],
            "not one of the 3 shards",
        );
        refused(
            &[("JOB_COMPLETION_INDEX", "3"), ("JUDGE_SHARDS", "3")],
            "not one of the 3",
        );
        refused(
            &[("CI_NODE_INDEX", "x"), ("CI_NODE_TOTAL", "3")],
            "not a whole number",
        );
        refused(
            &[
                ("CI_NODE_INDEX", "1"),
                ("CI_NODE_TOTAL", "3"),
                ("JOB_COMPLETION_INDEX", "1"),
                ("JUDGE_SHARDS", "3"),
            ],
            "GitLab says shard 1/3 but Kubernetes says 2/3",
        );
        refused(
            &[
                ("SLURM_ARRAY_TASK_ID", "4"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_MAX", "8"),
            ],
            "not one per index",
        );
    }

    #[test]
    fn hash_shards_cover_every_case_once_and_keep_their_cases_as_the_list_grows() {
        let names: Vec<String> = (0..2000)
            .map(|i| identity("p", "s.rs", &format!("c{i}")))
            .collect();
        let shard_of = |name: &str| (1..=7).find(|&k| hash(k, 7).keeps(0, name)).unwrap();
        let before: Vec<usize> = names.iter().map(|name| shard_of(name)).collect();
        for (name, &shard) in names.iter().zip(&before) {
            let keeping = (1..=7).filter(|&k| hash(k, 7).keeps(0, name)).count();
            assert_eq!(keeping, 1, "{name} is in shard {shard} and others");
        }
        // Balanced as a fair die would be: each shard within 20% of its share.
        for k in 1..=7 {
            let held = before.iter().filter(|&&shard| shard == k).count();
            assert!(
                (229..=343).contains(&held),
                "shard {k} holds {held} of 2000"
            );
        }
        // The ordinal plays no part: a case keeps its shard whatever comes before it.
        assert!(names
            .iter()
            .all(|name| hash(shard_of(name), 7).keeps(12345, name)));
    }

    #[test]
    fn balanced_shards_even_out_costs_that_dealing_in_order_does_not() {
        // Every third case is slow: dealt in order, they all land in one shard of three.
        let costs: Vec<f64> = (0..30)
            .map(|i| if i % 3 == 0 { 100.0 } else { 1.0 })
            .collect();
        let totals = |shard_of: &[usize]| {
            let mut totals = [0.0; 3];
            for (unit, &shard) in shard_of.iter().enumerate() {
                totals[shard] += costs[unit];
            }
            totals
        };
        let dealt: Vec<usize> = (0..30).map(|i| i % 3).collect();
        assert_eq!(totals(&dealt), [1000.0, 10.0, 10.0]);
        let balanced = balance(&costs, 3);
        let spread = totals(&balanced);
        let (low, high) = (
            spread.iter().copied().fold(f64::MAX, f64::min),
            spread.iter().copied().fold(0.0, f64::max),
        );
        assert!(high - low <= 100.0, "{spread:?}");
        assert_eq!(balance(&costs, 3), balanced, "the same costs, the same cut");
        assert!(balanced.iter().all(|&shard| shard < 3));
    }

    #[test]
    fn the_hash_and_fingerprint_are_fixed_forever() {
        // Shards cut by different builds of the judge must agree: these figures never change.
        assert_eq!(stable_hash(b""), mix(FNV_OFFSET));
        assert_eq!(fnv(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fingerprint(["a", "b"]), fingerprint(["a", "b"]));
        assert_ne!(fingerprint(["a", "b"]), fingerprint(["b", "a"]));
        assert_ne!(fingerprint(["ab"]), fingerprint(["a", "b"]));
    }
}
