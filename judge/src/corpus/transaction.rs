//! A corpus command's changes to a problem folder as one transaction that survives any
//! interruption.
//!
//! Every new file is first staged beside its target (`.judge-*.tmp`, synced). Writing the
//! journal (`.judge-journal.toml`: each step's staged file, target, and content hash before
//! and after) is the commit point; the steps follow, `provenance.toml` last, and the journal
//! is removed. A command killed before the commit point leaves only temporary files, which
//! the next command sweeps; after it, a journal, which the next command on the problem
//! completes first. Each step is idempotent, and one that finds a file neither as planned
//! nor as done leaves it alone: nobody's edit is lost.
//!
//! A `Session` holds the folder's lock and defers SIGINT, SIGTERM and SIGHUP, so a Ctrl-C
//! never leaves half a case.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::atomic_write::{self, is_temp_name, Replace};
use crate::error::{if_exists, CorpusFault, Error, Result};
use crate::problem::layout::{JOURNAL_FILE, PROVENANCE_FILE};
use crate::problem::provenance::{content_hash, Provenance};
use crate::problem::{line_at, parse_toml};
use crate::runner::interrupt::{self, Deferred};

const JOURNAL_HEADER: &str = "# An interrupted `judge` command's unfinished change to this problem: the next\n\
                              # `judge gen`, `add`, `bless --write` or `stress` completes it. Do not edit.\n\n";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Journal {
    #[serde(default, rename = "step")]
    steps: Vec<Step>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    /// The file, relative to the problem folder.
    path: Spanned<String>,
    /// Its new contents, staged in the same folder; none: the file is removed.
    staged: Option<Spanned<String>>,
    /// The hash of the file the change was planned against; none: there was none.
    before: Option<String>,
    /// The hash of the file once changed; none: removed.
    after: Option<String>,
}

/// The right to change one problem folder: its lock, with interrupting signals deferred.
/// Beginning one first completes what an interrupted command left, then sweeps stray
/// temporary files; but a folder whose `provenance.toml` is broken or hostile is refused
/// before anything in it is touched.
pub struct Session {
    dir: PathBuf,
    _lock: File,
    // Dropped last: a signal noted meanwhile is raised once everything above is done.
    _signals: Deferred,
}

impl Session {
    pub fn begin(dir: &Path) -> Result<Session> {
        Provenance::load(dir)?;
        let signals = Deferred::new();
        let lock = File::open(dir).map_err(|error| Error::io(dir, error))?;
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            return Err(Error::corpus(dir, CorpusFault::Locked));
        }
        let session = Session {
            dir: dir.to_path_buf(),
            _lock: lock,
            _signals: signals,
        };
        session.recover()?;
        sweep(dir)?;
        Ok(session)
    }

    /// Completes the journal an interrupted command left, if any.
    fn recover(&self) -> Result<()> {
        let path = self.dir.join(JOURNAL_FILE);
        let Some(text) = if_exists(&path, std::fs::read_to_string)? else {
            return Ok(());
        };
        let journal: Journal = parse_toml(&path, &text)?;
        for step in &journal.steps {
            check_step(&self.dir, step, &path, &text)?;
        }
        let left = apply(&self.dir, &journal.steps)?;
        atomic_write::remove(&path)?;
        crate::report::print_note(&format_args!(
            "{}: completed the change an interrupted command had begun ({} files)",
            self.dir.display(),
            journal.steps.len()
        ));
        for file in left {
            crate::report::print_note(&format_args!(
                "{}: changed since that command began: left as it is",
                file.display()
            ));
        }
        Ok(())
    }
}

/// A journal's paths are read back from disk: they must stay inside the problem folder, and
/// a staged file must be the judge's temporary beside its target.
fn check_step(dir: &Path, step: &Step, journal: &Path, text: &str) -> Result<()> {
    let error = |at: &Spanned<String>, reason: String| {
        let line = line_at(text, at.span().start);
        Error::parse(journal, Some(line), reason)
    };
    let target = crate::problem::confine::inside(dir, step.path.get_ref())
        .map_err(|reason| error(&step.path, format!("`path` {reason}")))?;
    if let Some(staged) = &step.staged {
        let staged_path = Path::new(staged.get_ref());
        let beside = staged_path.parent() == Path::new(step.path.get_ref()).parent()
            && staged_path
                .file_name()
                .and_then(|name| name.to_str())
                .is_some_and(is_temp_name);
        if !beside || target.file_name().is_none() {
            return Err(error(
                staged,
                format!(
                    "`staged` `{}` is not a temporary file of the judge beside `{}`",
                    staged.get_ref(),
                    step.path.get_ref()
                ),
            ));
        }
    }
    Ok(())
}

/// Changes being prepared inside a session; nothing is visible until `commit`.
pub struct Transaction<'a> {
    session: &'a Session,
    steps: Vec<Step>,
    /// Deleted if the transaction is dropped before its commit point.
    staged: Vec<tempfile::TempPath>,
}

impl<'a> Transaction<'a> {
    pub fn new(session: &'a Session) -> Transaction<'a> {
        Transaction {
            session,
            steps: Vec::new(),
            staged: Vec::new(),
        }
    }

    /// Stages `bytes` as the new contents of `path` (inside the problem folder), planned
    /// against the file whose hash is `before` (none: no file).
    pub fn write(&mut self, path: &Path, bytes: &[u8], before: Option<String>) -> Result<()> {
        if interrupt::pending() {
            return Err(Error::Interrupted);
        }
        let staged = atomic_write::stage(path, bytes)?.into_temp_path();
        self.steps.push(Step {
            path: Spanned::new(0..0, self.relative(path)?),
            staged: Some(Spanned::new(0..0, self.relative(&staged)?)),
            before,
            after: Some(content_hash(bytes)),
        });
        self.staged.push(staged);
        Ok(())
    }

    /// Stages the problem's `provenance.toml` unless it already holds exactly `provenance`:
    /// a file the judge owns outright.
    pub fn write_provenance(&mut self, problem_dir: &Path, provenance: &Provenance) -> Result<()> {
        let path = problem_dir.join(PROVENANCE_FILE);
        let text = provenance.to_text();
        let current = file_hash(&path)?;
        if current.as_deref() == Some(content_hash(text.as_bytes()).as_str()) {
            return Ok(());
        }
        self.write(&path, text.as_bytes(), current)
    }

    /// Plans removing `path`, whose hash is `before`.
    pub fn remove(&mut self, path: &Path, before: String) -> Result<()> {
        self.steps.push(Step {
            path: Spanned::new(0..0, self.relative(path)?),
            staged: None,
            before: Some(before),
            after: None,
        });
        Ok(())
    }

    fn relative(&self, path: &Path) -> Result<String> {
        path.strip_prefix(&self.session.dir)
            .ok()
            .and_then(|relative| relative.to_str())
            .map(str::to_owned)
            .ok_or_else(|| Error::corpus(path, CorpusFault::OutsideProblem))
    }

    /// Makes every change, or (interrupted before the journal is written) none. Returns the
    /// files left alone because they changed since the plan was made.
    pub fn commit(self) -> Result<Vec<PathBuf>> {
        if self.steps.is_empty() {
            return Ok(Vec::new());
        }
        if interrupt::pending() {
            return Err(Error::Interrupted);
        }
        let dir = &self.session.dir;
        let journal = Journal { steps: self.steps };
        let text = toml::to_string(&journal)
            .map_err(|error| Error::io(dir.join(JOURNAL_FILE), std::io::Error::other(error)))?;
        atomic_write::write_atomically(
            &dir.join(JOURNAL_FILE),
            format!("{JOURNAL_HEADER}{text}").as_bytes(),
        )?;
        // The commit point is passed: the staged files belong to the journal now.
        for staged in self.staged {
            let _ = staged.keep();
        }
        let left = apply(dir, &journal.steps)?;
        atomic_write::remove(&dir.join(JOURNAL_FILE))?;
        Ok(left)
    }
}

/// Carries out the steps in order; returns the files left alone.
fn apply(dir: &Path, steps: &[Step]) -> Result<Vec<PathBuf>> {
    let mut left = Vec::new();
    for step in steps {
        let path = dir.join(step.path.get_ref());
        let staged = step
            .staged
            .as_ref()
            .map(|staged| dir.join(staged.get_ref()));
        let current = file_hash(&path)?;
        let staged_exists = staged.as_ref().is_some_and(|staged| staged.exists());
        if current == step.after {
            discard(staged.as_deref())?;
            continue;
        }
        if current != step.before || (staged.is_some() && !staged_exists) {
            // Someone changed the file (or removed the staged one) since: theirs wins.
            discard(staged.as_deref())?;
            left.push(path);
            continue;
        }
        match &staged {
            Some(staged) => {
                let replace = if step.before.is_some() {
                    Replace::Yes
                } else {
                    Replace::No
                };
                atomic_write::place(staged, &path, replace)?;
            }
            None => atomic_write::remove(&path)?,
        }
    }
    Ok(left)
}

fn discard(staged: Option<&Path>) -> Result<()> {
    let Some(staged) = staged else {
        return Ok(());
    };
    if_exists(staged, std::fs::remove_file)?;
    Ok(())
}

/// The content hash of a file; none when there is no file.
pub fn file_hash(path: &Path) -> Result<Option<String>> {
    Ok(if_exists(path, std::fs::read)?.map(|bytes| content_hash(&bytes)))
}

/// Removes the temporary files an interrupted command left in the problem folder.
fn sweep(dir: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        // walkdir's error names its path.
        let entry = entry?;
        let ours =
            entry.file_type().is_file() && entry.file_name().to_str().is_some_and(is_temp_name);
        if ours {
            std::fs::remove_file(entry.path()).map_err(|error| Error::io(entry.path(), error))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    fn names_below(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| {
                let relative = entry.path().strip_prefix(dir).unwrap();
                relative.to_string_lossy().into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_commit_makes_every_change_and_leaves_nothing_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let tests = dir.path().join("tests");
        std::fs::create_dir(&tests).unwrap();
        std::fs::write(tests.join("a.in"), "old\n").unwrap();
        std::fs::write(tests.join("c.in"), "gone\n").unwrap();
        let session = Session::begin(dir.path()).unwrap();
        let mut transaction = Transaction::new(&session);
        let old = Some(content_hash(b"old\n"));
        transaction
            .write(&tests.join("a.in"), b"new\n", old)
            .unwrap();
        transaction
            .write(&tests.join("b/b.in"), b"b\n", None)
            .unwrap();
        transaction
            .remove(&tests.join("c.in"), content_hash(b"gone\n"))
            .unwrap();
        assert_eq!(
            read(&tests.join("a.in")),
            "old\n",
            "nothing before the commit"
        );
        assert_eq!(transaction.commit().unwrap(), Vec::<PathBuf>::new());
        assert_eq!(read(&tests.join("a.in")), "new\n");
        assert_eq!(read(&tests.join("b/b.in")), "b\n");
        assert_eq!(names_below(dir.path()), ["tests/a.in", "tests/b/b.in"]);
    }

    #[test]
    fn a_dropped_transaction_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let session = Session::begin(dir.path()).unwrap();
        let mut transaction = Transaction::new(&session);
        transaction
            .write(&dir.path().join("x.in"), b"x\n", None)
            .unwrap();
        drop(transaction);
        assert_eq!(names_below(dir.path()), Vec::<String>::new());
    }

    /// One step as written in a journal: path, staged file, contents before and after.
    type WrittenFile<'a> = (&'a str, Option<&'a str>, Option<&'a [u8]>, Option<&'a [u8]>);

    /// A journal as a killed command leaves it.
    fn killed_with(dir: &Path, steps: &[WrittenFile]) {
        let mut text = String::new();
        for (path, staged, before, after) in steps {
            text.push_str(&format!("[[step]]\npath = \"{path}\"\n"));
            if let Some(staged) = staged {
                text.push_str(&format!("staged = \"{staged}\"\n"));
            }
            if let Some(before) = before {
                text.push_str(&format!("before = \"{}\"\n", content_hash(before)));
            }
            if let Some(after) = after {
                text.push_str(&format!("after = \"{}\"\n", content_hash(after)));
            }
        }
        std::fs::write(dir.join(JOURNAL_FILE), text).unwrap();
    }

    #[test]
    fn the_next_session_completes_a_journal_and_keeps_an_edit_made_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let tests = dir.path().join("tests");
        std::fs::create_dir(&tests).unwrap();
        // x: not yet renamed; y: edited by hand since; z: already renamed; w: to remove.
        std::fs::write(tests.join("x.out"), "old\n").unwrap();
        std::fs::write(tests.join(".judge-1.tmp"), "new\n").unwrap();
        std::fs::write(tests.join("y.out"), "edited\n").unwrap();
        std::fs::write(tests.join(".judge-2.tmp"), "new\n").unwrap();
        std::fs::write(tests.join("z.out"), "new\n").unwrap();
        std::fs::write(tests.join("w.out"), "old\n").unwrap();
        std::fs::write(tests.join(".judge-stray.tmp"), "half\n").unwrap();
        let (old, new): (&[u8], &[u8]) = (b"old\n", b"new\n");
        killed_with(
            dir.path(),
            &[
                (
                    "tests/x.out",
                    Some("tests/.judge-1.tmp"),
                    Some(old),
                    Some(new),
                ),
                (
                    "tests/y.out",
                    Some("tests/.judge-2.tmp"),
                    Some(old),
                    Some(new),
                ),
                ("tests/z.out", Some("tests/.judge-3.tmp"), None, Some(new)),
                ("tests/w.out", None, Some(old), None),
            ],
        );
        let _session = Session::begin(dir.path()).unwrap();
        assert_eq!(read(&tests.join("x.out")), "new\n");
        assert_eq!(
            read(&tests.join("y.out")),
            "edited\n",
            "an edit is never lost"
        );
        assert_eq!(read(&tests.join("z.out")), "new\n");
        assert_eq!(
            names_below(dir.path()),
            ["tests/x.out", "tests/y.out", "tests/z.out"]
        );
    }

    #[test]
    fn a_journal_that_points_outside_is_refused() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("p");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(parent.path().join("victim"), "mine\n").unwrap();
        killed_with(&dir, &[("../victim", None, Some(b"mine\n"), None)]);
        let error = Session::begin(&dir).err().unwrap().to_string();
        assert!(
            error.contains(".judge-journal.toml: line 2: `path` `../victim` has `..`"),
            "{error}"
        );
        killed_with(&dir, &[("x", Some("../.judge-1.tmp"), None, Some(b"x"))]);
        let error = Session::begin(&dir).err().unwrap().to_string();
        assert!(
            error.contains("line 3: `staged` `../.judge-1.tmp` is not"),
            "{error}"
        );
        assert_eq!(read(&parent.path().join("victim")), "mine\n");
    }
}
