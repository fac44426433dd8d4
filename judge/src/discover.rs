//! Finding things on disk: the repository root, the problem folders, and each problem's test
//! cases (every `NAME.in` with its `NAME.out` or `NAME.ans`), sorted naturally.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::kattis;
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
        start
            .ancestors()
            .find(|dir| dir.join(PROBLEMS_DIR).is_dir())
            .map(|root| Repository {
                root: root.to_path_buf(),
                standalone: false,
            })
            .ok_or_else(|| Error::NoRoot {
                start: start.to_path_buf(),
            })
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
        let dir = self.root.join(SOLUTIONS_DIR);
        crate::language::LANGUAGES
            .iter()
            .flat_map(|language| language.extensions)
            .map(|extension| dir.join(format!("{id}.{extension}")))
            .find(|path| path.is_file())
            .unwrap_or_else(|| dir.join(format!("{id}.rs")))
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
                None => found.push(Err(Error::invalid(
                    &path,
                    "problem folder name is not valid UTF-8",
                ))),
            }
        }
        found.sort_by(|a, b| match (a, b) {
            (Ok(a), Ok(b)) => natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()),
            (Ok(_), Err(_)) => Ordering::Less,
            (Err(_), Ok(_)) => Ordering::Greater,
            (Err(_), Err(_)) => Ordering::Equal,
        });
        if found.is_empty() {
            return Err(Error::invalid(&dir, "no problem folders"));
        }
        Ok(found)
    }

    /// The folder of a problem named on the command line: an id under `problems/`, or a path
    /// to a problem folder anywhere.
    pub fn resolve(&self, name: &str) -> Result<PathBuf> {
        let by_id = self.problems_dir().join(name);
        if !name.contains('/') && by_id.is_dir() {
            return Ok(by_id);
        }
        let as_path = Path::new(name);
        if as_path.join(METADATA_FILE).is_file()
            || as_path.join(kattis::PACKAGE_FILE).is_file()
            || CASE_DIRS.iter().any(|d| as_path.join(d).is_dir())
        {
            return Ok(as_path.to_path_buf());
        }
        if self.standalone {
            return Err(Error::invalid(
                as_path,
                "not a problem folder or Kattis package (no problem.toml, problem.yaml or data/ in it), and no `problems/` folder above the current one",
            ));
        }
        let known: Vec<String> = self
            .problem_dirs()
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .filter_map(|dir| Some(dir.file_name()?.to_str()?.to_owned()))
            .collect();
        Err(Error::UnknownProblem {
            name: name.to_owned(),
            problems_dir: self.problems_dir(),
            suggestion: closest(name, &known),
        })
    }

    /// Loads a problem folder: metadata and cases.
    pub fn load_problem(&self, dir: &Path) -> Result<Problem> {
        let mut problem = self.load_metadata(dir)?;
        problem.cases = match &problem.package {
            Some(_) => kattis::find_cases(&problem)?,
            None => find_cases(dir)?,
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

/// Every case below the problem's `tests/` (or `data/`) folder, in natural order.
pub fn find_cases(problem_dir: &Path) -> Result<Vec<TestCase>> {
    let journal = problem_dir.join(crate::corpus::transaction::JOURNAL_FILE);
    if journal.exists() {
        // Killed mid-change (kill -9, power cut): a case may be half written until then.
        return Err(Error::invalid(
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
        return Err(Error::invalid(
            problem_dir,
            "no test cases: expected a `tests/` folder holding NAME.in and NAME.out files",
        ));
    };
    // Case name -> (input, expected outputs found).
    let mut files: BTreeMap<String, (Option<PathBuf>, Vec<PathBuf>)> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&cases_dir).follow_links(true) {
        let entry = entry.map_err(|error| {
            let path = error.path().unwrap_or(&cases_dir).to_path_buf();
            Error::invalid(path, error.to_string())
        })?;
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
            .ok_or_else(|| Error::invalid(path, "file name is not valid UTF-8"))?
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
                return Err(Error::invalid(
                    input,
                    "input has no expected output (add a .out file beside it)",
                ))
            }
            (Some(_), [first, ..]) => {
                return Err(Error::invalid(
                    first,
                    "both a .out and an .ans file: keep one of them",
                ))
            }
            (None, answers) => {
                return Err(Error::invalid(
                    &answers[0],
                    "expected output has no input (add a .in file beside it)",
                ))
            }
        }
    }
    if cases.is_empty() {
        return Err(Error::invalid(
            &cases_dir,
            "no test cases: expected NAME.in and NAME.out files",
        ));
    }
    cases.sort_by(|a, b| natural_cmp(&a.name, &b.name));
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

/// The known name closest to `name` by edit distance, if it is close enough to be a typo.
fn closest(name: &str, known: &[String]) -> Option<String> {
    known
        .iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= candidate.len().max(name.len()) / 3 + 1)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.clone())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
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
    fn cases_pair_in_with_out_or_ans_in_nested_folders() {
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
        assert_eq!(names(&cases), ["random/a", "sample/2", "sample/10"]);
        assert!(cases[0].expected.ends_with("random/a.ans"));
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
    fn root_is_found_from_any_folder_below_it() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "problems/p/tests/1.in");
        let repository = Repository::find(&dir.path().join("problems/p/tests")).unwrap();
        assert_eq!(repository.root, dir.path());
        assert!(Repository::find(Path::new("/")).is_err());
    }
}
