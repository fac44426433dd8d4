//! The result cache: a case is not judged again while nothing that decides its result has
//! changed. The key hashes all of that: the program (its build key and interpreter), the
//! checkers or interactor, the problem's settings, the case's input, answer and `.files`, the
//! inherited environment, the containment level, the host class and the judge binary.
//!
//! Audited, not trusted: a result time or memory may have decided (within a quarter of a
//! limit, or over it) is always judged again, as is a seeded sample of the rest; a sample that
//! disagrees drops its problem's results. An unreadable file is ignored and written anew.
//!
//! One file per problem and solution in the build cache's `results/`, written whole at the
//! end of a run; the oldest go past `SIZE_BOUND`. A file keeps the newest `KEPT_PER_CASE`
//! results of each case, so that an edit undone, or another environment (a virtualenv's
//! `PATH`, another shell's), finds its own results again instead of judging everything.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::judging::verdict::Verdict;
use crate::judging::CaseResult;
use crate::problem::{Problem, TestCase};
use crate::report::json::{CacheRecord, CaseReport};
use crate::sandbox::{Containment, Sandbox};
use crate::toolchain::compiler::lock;
use crate::toolchain::Program;

/// On disk.
const SIZE_BOUND: u64 = 64 << 20;
/// The share of reusable results judged again all the same.
const SAMPLE_PERCENT: u64 = 5;
/// A result whose time or memory came within this share of its limit is judged again.
const NEAR_LIMIT: f64 = 0.75;
/// Results kept of one case, the newest: keys that differ in the environment alone
/// (`PATH`, `LANG`) or in an edit undone would otherwise push each other out at every run.
const KEPT_PER_CASE: usize = 4;
/// Of the files' layout and of what the key covers.
const VERSION: u32 = 2;

pub struct ResultCache {
    dir: PathBuf,
    seed: u64,
    sample_percent: u64,
    /// The host class and the judge binary, in every key.
    host: String,
    files: Mutex<HashMap<PathBuf, Kept>>,
    /// Hashed, by problem folder.
    settings: Mutex<HashMap<PathBuf, blake3::Hash>>,
    reused: AtomicUsize,
    sampled: AtomicUsize,
    dropped: Mutex<Vec<String>>,
}

struct Kept {
    /// Given up when its problem's cache is dropped.
    read: HashMap<String, Stored>,
    /// Judged in this run.
    fresh: HashMap<String, CaseReport>,
}

#[derive(Serialize, Deserialize)]
struct File {
    version: u32,
    results: HashMap<String, Stored>,
}

/// A kept result, and when it was judged (nanoseconds since the epoch), which decides the
/// newest of its case's.
#[derive(Serialize, Deserialize)]
struct Stored {
    judged_at: u64,
    #[serde(flatten)]
    report: CaseReport,
}

impl ResultCache {
    /// The sample is drawn with `JUDGE_CACHE_SEED` where set, and sized by
    /// `JUDGE_CACHE_SAMPLE_PERCENT`.
    pub fn new(build_cache: &Path) -> ResultCache {
        let number = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
        let seed = number("JUDGE_CACHE_SEED").unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(0, |since| since.as_nanos() as u64 % 1_000_000)
        });
        ResultCache {
            dir: build_cache.join("results"),
            seed,
            sample_percent: number("JUDGE_CACHE_SAMPLE_PERCENT").unwrap_or(SAMPLE_PERCENT),
            host: host_class(),
            files: Mutex::default(),
            settings: Mutex::default(),
            reused: AtomicUsize::new(0),
            sampled: AtomicUsize::new(0),
            dropped: Mutex::default(),
        }
    }

    /// Kept, or judged by `judge` (and kept for the next run).
    pub fn judge(
        &self,
        (problem, solution): (&Problem, &Path),
        (program, (checker, tout_checker)): (&Program, (Option<&Program>, Option<&Program>)),
        case: &TestCase,
        sandbox: &Sandbox,
        judge: impl FnOnce() -> CaseResult,
    ) -> CaseResult {
        let key = |held: Option<(Containment, _)>| {
            self.key(problem, (program, (checker, tout_checker)), case, held?.0)
        };
        let file = self.file_of(problem, solution);
        // Containment is known once a slot ran a program: where something is kept, a probe
        // learns it first; else the case is keyed after it ran.
        let held = match self.holds_any(&file) {
            true => sandbox.containment_probed(),
            false => sandbox.containment(),
        };
        let Some(key) = key(held) else {
            let fresh = judge();
            if let Some(key) = key(sandbox.containment()) {
                self.keep_unless_near(&file, key, &fresh, problem, program);
            }
            return fresh;
        };
        let reusable = (self.kept(&file, &key))
            .and_then(|report| report.result())
            .filter(|result| !near_a_limit(result, problem, program));
        let Some(mut reused) = reusable else {
            let fresh = judge();
            self.keep_unless_near(&file, key, &fresh, problem, program);
            return fresh;
        };
        if self.sample_percent > 0
            && hash_number(&format!("{}:{key}", self.seed)) % 100 < self.sample_percent
        {
            self.sampled.fetch_add(1, Ordering::Relaxed);
            let fresh = judge();
            if fresh.verdict.kind() != reused.verdict.kind() {
                self.drop_problem(problem, &case.name, &reused.verdict, &fresh.verdict);
            } else {
                self.keep_unless_near(&file, key, &fresh, problem, program);
            }
            return fresh;
        }
        self.reused.fetch_add(1, Ordering::Relaxed);
        reused.name = case.name.clone();
        reused.cached = true;
        reused
    }

    pub fn record(&self) -> CacheRecord {
        CacheRecord {
            reused: self.reused.load(Ordering::Relaxed),
            sampled: self.sampled.load(Ordering::Relaxed),
            seed: self.seed,
            dropped: lock(&self.dropped).clone(),
        }
    }

    /// Writes every file this run changed, then bounds the folder. A failed write only costs
    /// the next run its results.
    pub fn save(&self) {
        let files = std::mem::take(&mut *lock(&self.files));
        let mut wrote = false;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        for (path, kept) in files {
            if kept.fresh.is_empty() {
                continue;
            }
            let mut results = kept.read;
            let judged = kept.fresh.into_iter().map(|(key, report)| {
                let stored = Stored {
                    judged_at: now,
                    report,
                };
                (key, stored)
            });
            results.extend(judged);
            newest_per_case(&mut results);
            let file = File {
                version: VERSION,
                results,
            };
            if std::fs::create_dir_all(&self.dir).is_ok() {
                let _ = write_whole(&path, &file);
                wrote = true;
            }
        }
        if wrote {
            bound(&self.dir, SIZE_BOUND);
        }
    }

    /// `None` where a file it covers cannot be read (the case is then judged, not kept).
    fn key(
        &self,
        problem: &Problem,
        (program, (checker, tout_checker)): (&Program, (Option<&Program>, Option<&Program>)),
        case: &TestCase,
        containment: Containment,
    ) -> Option<String> {
        let mut hasher = blake3::Hasher::new();
        hasher.update(format!("{VERSION}\0{}\0{containment:?}\0", self.host).as_bytes());
        hasher.update(self.settings_of(problem).as_bytes());
        for part in [Some(program), checker, tout_checker] {
            hasher.update(part.map(Program::identity).unwrap_or_default().as_bytes());
            hasher.update(b"\0");
        }
        hasher.update(
            format!(
                "{:?}\0{:?}\0{:?}\0",
                case.validator_args, case.compare, case.args
            )
            .as_bytes(),
        );
        for path in [&case.input, &case.expected] {
            hash_file(&mut hasher, path)?;
        }
        if let Some(folder) = &case.files {
            hash_case_files(&mut hasher, folder)?;
        }
        Some(hasher.finalize().to_hex().to_string())
    }

    /// Everything of the problem but its cases (each in its own key), and the inherited
    /// environment; once per problem.
    fn settings_of(&self, problem: &Problem) -> blake3::Hash {
        let mut settings = lock(&self.settings);
        *settings.entry(problem.dir.clone()).or_insert_with(|| {
            let bare = Problem {
                cases: Vec::new(),
                ..problem.clone()
            };
            let inherited: Vec<_> = crate::sandbox::inherited_env().collect();
            blake3::hash(format!("{bare:?}\0{inherited:?}").as_bytes())
        })
    }

    /// Named by both, so that `drop_problem` finds every solution's by the problem's part.
    fn file_of(&self, problem: &Problem, solution: &Path) -> PathBuf {
        let solution = &hash_text(&solution.to_string_lossy())[..16];
        (self.dir).join(format!("{}{solution}.json", problem_prefix(problem)))
    }

    fn kept(&self, file: &Path, key: &str) -> Option<CaseReport> {
        self.with_file(file, |kept| {
            kept.read.get(key).map(|stored| stored.report.clone())
        })
    }

    fn holds_any(&self, file: &Path) -> bool {
        self.with_file(file, |kept| !kept.read.is_empty())
    }

    /// Reads the file the first time.
    fn with_file<T>(&self, file: &Path, what: impl FnOnce(&mut Kept) -> T) -> T {
        let mut files = lock(&self.files);
        let kept = (files.entry(file.to_path_buf())).or_insert_with_key(|file| Kept {
            read: read(file),
            fresh: HashMap::new(),
        });
        what(kept)
    }

    /// Unless time or memory may have decided it (judged again anyway) or it is the judge's
    /// own error.
    fn keep_unless_near(
        &self,
        file: &Path,
        key: String,
        result: &CaseResult,
        problem: &Problem,
        program: &Program,
    ) {
        if result.verdict == Verdict::JudgeError || near_a_limit(result, problem, program) {
            return;
        }
        self.with_file(file, |kept| {
            kept.fresh.insert(key, CaseReport::of(result, 0))
        });
    }

    /// With any solution: one of them disagreed with a new judging.
    fn drop_problem(&self, problem: &Problem, case: &str, kept: &Verdict, now: &Verdict) {
        let prefix = problem_prefix(problem);
        let mut files = lock(&self.files);
        for (path, kept) in files.iter_mut() {
            if path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with(&prefix))
            {
                kept.read.clear();
            }
        }
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        lock(&self.dropped).push(format!(
            "{} {case}: kept {kept}, judged again {now}: the problem's kept results were dropped",
            problem.id
        ));
    }
}

/// Whichever solution judged it.
fn problem_prefix(problem: &Problem) -> String {
    format!("{}-", &hash_text(&problem.dir.to_string_lossy())[..16])
}

/// Within a quarter of a limit, over one, or confirmed near the time limit by a re-run.
fn near_a_limit(result: &CaseResult, problem: &Problem, program: &Program) -> bool {
    let limits = problem.limits_for(program.language);
    result.cpu_time.as_secs_f64() >= limits.cpu_time.as_secs_f64() * NEAR_LIMIT
        || result.peak_memory_bytes as f64 >= limits.memory_bytes as f64 * NEAR_LIMIT
        || matches!(
            result.verdict,
            Verdict::TimeLimitExceeded | Verdict::MemoryLimitExceeded
        )
        || result.confirmed
}

/// Keeps the newest `KEPT_PER_CASE` results of each case name.
fn newest_per_case(results: &mut HashMap<String, Stored>) {
    let mut ages: Vec<(&str, Reverse<u64>, &String)> = (results.iter())
        .map(|(key, stored)| (stored.report.name.as_str(), Reverse(stored.judged_at), key))
        .collect();
    ages.sort();
    let older: Vec<String> = (ages.chunk_by(|a, b| a.0 == b.0))
        .flat_map(|case| case.iter().skip(KEPT_PER_CASE))
        .map(|(.., key)| (*key).clone())
        .collect();
    for key in older {
        results.remove(&key);
    }
}

/// None where it is missing, damaged or of another version.
fn read(file: &Path) -> HashMap<String, Stored> {
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<File>(&bytes).ok())
        .filter(|file| file.version == VERSION)
        .map(|file| file.results)
        .unwrap_or_default()
}

/// Renamed into place: a reader sees all of it or none. Made in memory and written at once:
/// serde writes a value a piece at a time, a system call each on an unbuffered file.
fn write_whole(path: &Path, file: &File) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut staged = tempfile::NamedTempFile::new_in(dir)?;
    staged.write_all(&serde_json::to_vec(file)?)?;
    staged
        .persist(path)
        .map(|_| ())
        .map_err(|error| error.error)
}

/// Removes the oldest files until the rest take at most `limit` bytes.
fn bound(dir: &Path, limit: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            Some((metadata.modified().ok()?, metadata.len(), entry.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|(_, size, _)| size).sum();
    files.sort();
    for (_, size, path) in files {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= size;
        }
    }
}

/// The machine's class for timing (CPU model, kernel), and the judge binary (size and time:
/// a new build judges anew).
fn host_class() -> String {
    let model = crate::report::json::cpu_model().unwrap_or_default();
    let kernel = rustix::system::uname();
    let judge = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|metadata| format!("{} {:?}", metadata.len(), metadata.modified().ok()))
        .unwrap_or_default();
    format!(
        "{model}\0{}\0{}\0{judge}",
        kernel.release().to_string_lossy(),
        env!("CARGO_PKG_VERSION")
    )
}

/// By name and content (a link by its target), as the run folder gets them.
fn hash_case_files(hasher: &mut blake3::Hasher, folder: &Path) -> Option<()> {
    for entry in walkdir::WalkDir::new(folder)
        .min_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.ok()?;
        hasher.update(
            entry
                .path()
                .strip_prefix(folder)
                .ok()?
                .as_os_str()
                .as_encoded_bytes(),
        );
        let kind = entry.file_type();
        if kind.is_dir() {
            hasher.update(b"\0/");
        } else if kind.is_symlink() {
            hasher.update(b"\0@");
            let target = std::fs::read_link(entry.path()).ok()?;
            hasher.update(target.as_os_str().as_encoded_bytes());
            hasher.update(b"\0");
        } else {
            hasher.update(b"\0");
            hash_file(hasher, entry.path())?;
        }
    }
    Some(())
}

/// Its length, then its bytes.
fn hash_file(hasher: &mut blake3::Hasher, path: &Path) -> Option<()> {
    let bytes = std::fs::read(path).ok()?;
    hasher.update(&(bytes.len() as u64).to_le_bytes());
    hasher.update(&bytes);
    Some(())
}

fn hash_text(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

fn hash_number(text: &str) -> u64 {
    let hash = blake3::hash(text.as_bytes());
    u64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("eight bytes"))
}
