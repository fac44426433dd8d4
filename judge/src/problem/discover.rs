//! Finding things on disk: the repository root, the problem folders, and each problem's test
//! cases (every `NAME.in` with its `NAME.out` or `NAME.ans`), sorted naturally.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::problem::kattis;
use crate::problem::{Problem, TestCase, METADATA_FILE};

pub const PROBLEMS_DIR: &str = "problems";
pub const SOLUTIONS_DIR: &str = "solutions";
/// Folders inside a problem that hold cases: ours, then the Kattis package layout.
const CASE_DIRS: [&str; 2] = ["tests", "data"];

/// The repository the judge works in.
#[derive(Debug, Clone)]
pub struct Repository {
    pub root: PathBuf,
    /// No `problems/` folder was found: the judge works on packages named by path (a Kattis
    /// package anywhere on disk), and keeps its builds in the user's cache folder.
    pub standalone: bool,
}

impl Repository {
    /// The nearest folder at or above `start` that holds a `problems/` folder.
    pub fn find(start: &Path) -> Result<Repository> {
        // Canonical, so that folders named by other paths (`..`, symlinks) are found inside.
        let start = std::fs::canonicalize(start).map_err(|error| Error::io(start, error))?;
        start
            .ancestors()
            .find(|dir| dir.join(PROBLEMS_DIR).is_dir())
            .map(|root| Repository {
                root: root.to_path_buf(),
                standalone: false,
            })
            .ok_or(Error::NoRoot { start })
    }

    /// The repository above `start`, or, when there is none, `start` itself standing alone,
    /// for the commands that judge a package named by its path.
    pub fn find_or_standalone(start: &Path) -> Repository {
        Repository::find(start).unwrap_or_else(|_| Repository {
            root: start.to_path_buf(),
            standalone: true,
        })
    }

    /// Where built programs are kept: `$JUDGE_CACHE_DIR`, else the repository's
    /// `target/judge/`, else (standalone) `$XDG_CACHE_HOME/judge` or `~/.cache/judge`, so that
    /// judging a package never writes into it.
    pub fn cache_dir(&self) -> PathBuf {
        let dir = std::env::var_os("JUDGE_CACHE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                if self.standalone {
                    user_cache_dir().join("judge")
                } else {
                    self.root.join("target").join("judge")
                }
            });
        // Programs run from their own temporary folders: their paths must not be relative.
        std::path::absolute(&dir).unwrap_or(dir)
    }

    /// `path` as shown to the user: relative to the root when inside it.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }

    pub fn problems_dir(&self) -> PathBuf {
        self.root.join(PROBLEMS_DIR)
    }

    /// Where a problem's solution is when its `problem.toml` does not say: `solutions/<id>.*`
    /// in any language of the table (Rust first), else the Rust path, for the message.
    pub fn default_solution(&self, id: &str) -> PathBuf {
        self.solution_files(id)
            .into_iter()
            .next()
            .unwrap_or_else(|| self.root.join(SOLUTIONS_DIR).join(format!("{id}.rs")))
    }

    /// Every `solutions/<id>.<ext>` that exists, one per language, in the table's order: a
    /// problem may keep a file per judge it is submitted to.
    pub fn solution_files(&self, id: &str) -> Vec<PathBuf> {
        let dir = self.root.join(SOLUTIONS_DIR);
        crate::toolchain::language::LANGUAGES
            .iter()
            .flat_map(|language| language.extensions)
            .map(|extension| dir.join(format!("{id}.{extension}")))
            .filter(|path| path.is_file())
            .collect()
    }

    /// Every problem folder under `problems/`, in natural order. A folder whose name is not
    /// UTF-8 is an error of its own, so that it does not hide the others.
    pub fn problem_dirs(&self) -> Result<Vec<Result<PathBuf>>> {
        if self.standalone {
            // Outside a repository the one problem is the package the judge was started in.
            if kattis::is_package(&self.root) {
                return Ok(vec![Ok(self.root.clone())]);
            }
            return Err(Error::NoRoot {
                start: self.root.clone(),
            });
        }
        let dir = self.problems_dir();
        let entries = std::fs::read_dir(&dir).map_err(|error| Error::io(&dir, error))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|error| Error::io(&dir, error))?;
            let path = entry.path();
            let name = entry.file_name();
            if !path.is_dir() {
                continue;
            }
            match name.to_str() {
                Some(name) if name.starts_with('.') => {}
                Some(_) => found.push(Ok(path)),
                None => found.push(Err(Error::not_utf8(&path, "problem folder name"))),
            }
        }
        found.sort_by(|a, b| match (a, b) {
            (Ok(a), Ok(b)) => natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            (Err(_), Err(_)) => Ordering::Equal,
        });
        if found.is_empty() {
            return Err(Error::corpus(&dir, "no problem folders"));
        }
        Ok(found)
    }

    /// The folder of a problem named on the command line: an id under `problems/`, or a path
    /// to a problem folder (relative to `current`, like `.` or `../boj_7682`).
    pub fn resolve(&self, argument: &Path, current: &Path) -> Result<PathBuf> {
        let mut components = argument.components();
        if let (Some(Component::Normal(id)), None) = (components.next(), components.next()) {
            let by_id = self.problems_dir().join(id);
            if by_id.is_dir() {
                return Ok(by_id);
            }
        }
        let path = current.join(argument);
        if path.is_dir() {
            let dir = std::fs::canonicalize(&path).map_err(|error| Error::io(&path, error))?;
            if is_problem_dir(&dir) {
                return Ok(dir);
            }
            return Err(Error::NotAProblem {
                path: self.relative(&dir).to_path_buf(),
            });
        }
        if self.standalone {
            return Err(Error::NotAProblem { path });
        }
        let known: Vec<String> = self
            .problem_dirs()
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .filter_map(|dir| Some(dir.file_name()?.to_str()?.to_owned()))
            .collect();
        let name = argument.to_string_lossy().into_owned();
        Err(Error::UnknownProblem {
            suggestion: closest(&name, &known),
            name,
            problems_dir: self.problems_dir(),
        })
    }

    /// The command that judges `problem` (or one case of it) again with `solution`, as a person
    /// types it from the repository's root (where an id works from anywhere inside).
    pub fn rerun_command(&self, problem: &Problem, solution: &Path, case: Option<&str>) -> String {
        let by_id = self.problems_dir().join(&problem.id) == problem.dir;
        let target = if by_id {
            problem.id.clone()
        } else {
            self.relative(&problem.dir).display().to_string()
        };
        let mut words = vec!["judge".to_owned(), "run".to_owned(), shell_word(&target)];
        if solution != problem.solution {
            words.push("--solution".into());
            words.push(shell_word(&self.relative(solution).display().to_string()));
        }
        if let Some(case) = case {
            words.push("--case".into());
            words.push(shell_word(case));
        }
        words.join(" ")
    }

    /// Loads a problem folder: metadata and cases.
    pub fn load_problem(&self, dir: &Path) -> Result<Problem> {
        let mut problem = self.load_metadata(dir)?;
        problem.cases = match &problem.package {
            Some(_) => kattis::find_cases(&problem)?,
            None => find_cases(dir)?,
        };
        problem.scoring = match &problem.package {
            Some(_) => kattis::scoring_plan(&problem)?,
            None => problem.resolve_subtasks()?,
        };
        Ok(problem)
    }

    /// Loads a problem's metadata only, for commands that work on a problem with no cases yet.
    /// A Kattis package is read from its `problem.yaml`.
    pub fn load_metadata(&self, dir: &Path) -> Result<Problem> {
        // `judge verify .` names the package by its folder, as any other path would.
        let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let id = absolute
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if kattis::is_package(dir) {
            return kattis::load_package(dir, id.to_owned());
        }
        Problem::load(dir, self.default_solution(id))
    }
}

/// `$XDG_CACHE_HOME` when set to an absolute path (as the XDG specification asks), else
/// `~/.cache`, else the system's temporary folder.
fn user_cache_dir() -> PathBuf {
    let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from);
    if let Some(dir) = xdg.filter(|dir| dir.is_absolute()) {
        return dir;
    }
    match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => PathBuf::from(home).join(".cache"),
        _ => std::env::temp_dir(),
    }
}

/// Every case below the problem's `tests/` (or `data/`) folder: the samples first, then in
/// natural order.
pub fn find_cases(problem_dir: &Path) -> Result<Vec<TestCase>> {
    let journal = problem_dir.join(crate::corpus::transaction::JOURNAL_FILE);
    if journal.exists() {
        // Killed mid-change (kill -9, power cut): a case may be half written until then.
        return Err(Error::corpus(
            journal,
            "a corpus command was killed before it finished: run `judge gen` (or `add`, \
             `bless --write`, `stress`) on this problem to complete its change",
        ));
    }
    let Some(cases_dir) = CASE_DIRS
        .iter()
        .map(|dir| problem_dir.join(dir))
        .find(|dir| dir.is_dir())
    else {
        return Err(Error::corpus(
            problem_dir,
            "no test cases: expected a `tests/` folder holding NAME.in and NAME.out files",
        ));
    };
    // Case name -> (input, expected outputs found).
    let mut files: BTreeMap<String, (Option<PathBuf>, Vec<PathBuf>)> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&cases_dir).follow_links(true) {
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        let extension = path.extension().and_then(|e| e.to_str());
        if !matches!(extension, Some("in" | "out" | "ans")) {
            continue;
        }
        let relative = path
            .strip_prefix(&cases_dir)
            .unwrap_or(path)
            .with_extension("");
        let name = relative
            .to_str()
            .ok_or_else(|| Error::not_utf8(path, "file name"))?
            .to_owned();
        let slot = files.entry(name).or_default();
        match extension {
            Some("in") => slot.0 = Some(path.to_path_buf()),
            _ => slot.1.push(path.to_path_buf()),
        }
    }
    let mut cases = Vec::with_capacity(files.len());
    for (name, (input, mut expected)) in files {
        expected.sort();
        match (input, expected.as_slice()) {
            (Some(input), [answer]) => cases.push(TestCase {
                name,
                input,
                expected: answer.clone(),
                validator_args: Vec::new(),
                compare: None,
            }),
            (Some(input), []) => {
                return Err(Error::corpus(
                    input,
                    "input has no expected output (add a .out file beside it)",
                ))
            }
            (Some(_), [first, ..]) => {
                return Err(Error::corpus(
                    first,
                    "both a .out and an .ans file: keep one of them",
                ))
            }
            (None, answers) => {
                return Err(Error::corpus(
                    &answers[0],
                    "expected output has no input (add a .in file beside it)",
                ))
            }
        }
    }
    if cases.is_empty() {
        return Err(Error::corpus(
            &cases_dir,
            "no test cases: expected NAME.in and NAME.out files",
        ));
    }
    cases.sort_by(|a, b| {
        let group = |name: &str| !is_sample(name);
        group(&a.name)
            .cmp(&group(&b.name))
            .then_with(|| natural_cmp(&a.name, &b.name))
    });
    Ok(cases)
}

/// Orders strings as people do: digit runs by their value, so `2` comes before `10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (x_digits, x_rest) = split_digits(a);
                let (y_digits, y_rest) = split_digits(b);
                let x_value = trim_zeros(x_digits);
                let y_value = trim_zeros(y_digits);
                let order = x_value
                    .len()
                    .cmp(&y_value.len())
                    .then_with(|| x_value.cmp(y_value))
                    .then_with(|| x_digits.len().cmp(&y_digits.len()));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (x_rest, y_rest);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

fn split_digits(text: &[u8]) -> (&[u8], &[u8]) {
    let count = text.iter().take_while(|b| b.is_ascii_digit()).count();
    text.split_at(count)
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&b| b == b'0').count();
    &digits[zeros..]
}

/// The known name closest to `name`, if it is close enough to be a typo.
fn closest(name: &str, known: &[String]) -> Option<String> {
    known
        .iter()
        .map(|candidate| (strsim::levenshtein(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= candidate.len().max(name.len()) / 3 + 1)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.clone())
}

/// A folder the judge can read as a problem: ours, or a Kattis package.
fn is_problem_dir(dir: &Path) -> bool {
    dir.join(METADATA_FILE).is_file()
        || dir.join(kattis::PACKAGE_FILE).is_file()
        || CASE_DIRS.iter().any(|case_dir| dir.join(case_dir).is_dir())
}

/// `text` as one shell word: quoted only when it has to be.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=+@%,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The official examples: judged and shown first, as they are the cases a person reads.
fn is_sample(name: &str) -> bool {
    let group = name.split('/').next().unwrap_or_default();
    group == "sample" || group == "samples"
}

/// The `--case` patterns: globs over case names where `*` is any text (`/` included) and
/// `?` one character. A pattern also selects every case below a folder it names (`sample`).
#[derive(Debug, Default)]
pub struct CasePatterns(Vec<String>);

impl CasePatterns {
    pub fn new(patterns: &[String]) -> Result<CasePatterns> {
        if patterns.iter().any(|pattern| pattern.is_empty()) {
            return Err(Error::usage("--case needs a pattern, like `sample/*`"));
        }
        Ok(CasePatterns(patterns.to_vec()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// No pattern selects every case.
    pub fn matches(&self, name: &str) -> bool {
        let folders = name.match_indices('/').map(|(end, _)| &name[..end]);
        let mut candidates = std::iter::once(name).chain(folders);
        self.0.is_empty()
            || candidates.any(|candidate| {
                self.0
                    .iter()
                    .any(|pattern| glob(pattern.as_bytes(), candidate.as_bytes()))
            })
    }

    /// The patterns for a message: `` `a` or `b` ``.
    pub fn describe(&self) -> String {
        let quoted: Vec<String> = self.0.iter().map(|p| format!("`{p}`")).collect();
        quoted.join(" or ")
    }
}

/// Whether `text` matches `pattern` (`*` any run of bytes, `?` one byte). On a mismatch after
/// a `*`, the star takes one more byte: linear enough for case names.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((star_p, star_t)) => {
                    star = Some((star_p, star_t + 1));
                    p = star_p + 1;
                    t = star_t + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn touch(dir: &Path, relative: &str) {
        let path = dir.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "x\n").unwrap();
    }

    fn names(cases: &[TestCase]) -> Vec<&str> {
        cases.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn natural_order_puts_2_before_10() {
        let mut names = vec!["10", "2", "a10", "a2", "b", "a02", "1"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["1", "2", "10", "a2", "a02", "a10", "b"]);
    }

    #[test]
    fn cases_pair_in_with_out_or_ans_in_nested_folders_samples_first() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "tests/sample/10.in",
            "tests/sample/10.out",
            "tests/sample/2.in",
            "tests/sample/2.out",
        ] {
            touch(dir.path(), file);
        }
        for file in ["tests/random/a.in", "tests/random/a.ans", "tests/README.md"] {
            touch(dir.path(), file);
        }
        let cases = find_cases(dir.path()).unwrap();
        assert_eq!(names(&cases), ["sample/2", "sample/10", "random/a"]);
        assert!(cases[2].expected.ends_with("random/a.ans"));
    }

    #[test]
    fn unpaired_files_are_errors_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "tests/1.in");
        touch(dir.path(), "tests/1.out");
        touch(dir.path(), "tests/2.in");
        let message = find_cases(dir.path()).unwrap_err().to_string();
        assert!(
            message
                .ends_with("tests/2.in: input has no expected output (add a .out file beside it)"),
            "{message}"
        );

        fs::remove_file(dir.path().join("tests/2.in")).unwrap();
        touch(dir.path(), "tests/3.ans");
        let message = find_cases(dir.path()).unwrap_err().to_string();
        assert!(
            message
                .ends_with("tests/3.ans: expected output has no input (add a .in file beside it)"),
            "{message}"
        );

        touch(dir.path(), "tests/3.in");
        touch(dir.path(), "tests/3.out");
        let message = find_cases(dir.path()).unwrap_err().to_string();
        assert!(
            message.contains("both a .out and an .ans file"),
            "{message}"
        );
    }

    #[test]
    fn a_folder_that_cannot_be_walked_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "tests/1.in");
        touch(dir.path(), "tests/1.out");
        std::os::unix::fs::symlink("nowhere", dir.path().join("tests/dangling")).unwrap();
        let message = find_cases(dir.path()).unwrap_err().to_string();
        assert_eq!(message.matches("tests/dangling").count(), 1, "{message}");
    }

    #[test]
    fn a_problem_without_cases_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(find_cases(dir.path())
            .unwrap_err()
            .to_string()
            .contains("no test cases"));
        fs::create_dir(dir.path().join("tests")).unwrap();
        assert!(find_cases(dir.path())
            .unwrap_err()
            .to_string()
            .contains("no test cases"));
    }

    #[test]
    fn typos_get_a_suggestion() {
        let known = vec![
            "boj_7682".to_owned(),
            "boj_2615".to_owned(),
            "swea_11545".to_owned(),
        ];
        assert_eq!(closest("boj_7862", &known).as_deref(), Some("boj_7682"));
        assert_eq!(closest("swea11545", &known).as_deref(), Some("swea_11545"));
        assert_eq!(closest("kattis_hello", &known), None);
    }

    #[test]
    fn case_patterns_are_globs_over_names_and_their_folders() {
        let patterns = CasePatterns::new(&["sample/*".into(), "random/mixed-?".into()]).unwrap();
        assert!(patterns.matches("sample/1"));
        assert!(patterns.matches("random/mixed-2"));
        assert!(!patterns.matches("random/mixed-10"));
        assert!(!patterns.matches("exhaustive/sample"));
        let folder = CasePatterns::new(&["random".into()]).unwrap();
        assert!(folder.matches("random/a/b") && !folder.matches("randomly/1"));
        let star = CasePatterns::new(&["*-2*".into()]).unwrap();
        assert!(star.matches("random/mixed-2") && star.matches("a-2-b") && !star.matches("a-3"));
        assert!(CasePatterns::new(&[]).unwrap().matches("anything"));
        assert!(CasePatterns::new(&["".into()]).is_err());
    }

    #[test]
    fn problems_are_named_by_id_or_by_any_path_to_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "problems/p/tests/1.in");
        touch(dir.path(), "problems/p/tests/1.out");
        touch(dir.path(), "solutions/p.rs");
        let repository = Repository::find(dir.path()).unwrap();
        let p = repository.problems_dir().join("p");
        let tests = p.join("tests");
        for (argument, current) in [
            ("p", dir.path().to_path_buf()),
            ("p", tests.clone()),
            (".", p.clone()),
            ("./", p.clone()),
            ("..", tests.clone()),
            ("../../p", tests.clone()),
            ("problems/p", repository.root.clone()),
        ] {
            let found = repository.resolve(Path::new(argument), &current);
            assert_eq!(found.unwrap(), p, "`{argument}` from {}", current.display());
        }
        let absolute = repository.resolve(&p, Path::new("/")).unwrap();
        assert_eq!(absolute, p);
        let not_a_problem = repository.resolve(Path::new("solutions"), &repository.root);
        assert!(not_a_problem
            .unwrap_err()
            .to_string()
            .starts_with("solutions: not a problem folder"));
    }

    #[test]
    fn root_is_found_from_any_folder_below_it() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "problems/p/tests/1.in");
        let repository = Repository::find(&dir.path().join("problems/p/tests")).unwrap();
        assert_eq!(repository.root, dir.path());
        assert!(Repository::find(Path::new("/")).is_err());
    }
}
