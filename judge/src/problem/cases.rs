//! A problem's cases: every `NAME.in` with its `NAME.out` or `NAME.ans` below `tests/` (or a
//! package's `data/`). A file without its pair is an error naming it, never a silent skip.
//! Judged samples first, then in natural order; `--case` patterns choose among them.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::layout::{CASE_DIRS, JOURNAL_FILE, SAMPLE_GROUPS};
use super::TestCase;
use crate::error::{CorpusFault, Error, Result};

/// Samples first, then in natural order.
pub fn find_cases(problem_dir: &Path) -> Result<Vec<TestCase>> {
    let journal = problem_dir.join(JOURNAL_FILE);
    if journal.exists() {
        // A command was killed mid-change: a case may be half written.
        return Err(Error::corpus(journal, CorpusFault::Unfinished));
    }
    let Some(cases_dir) = CASE_DIRS
        .iter()
        .map(|dir| problem_dir.join(dir))
        .find(|dir| dir.is_dir())
    else {
        return Err(Error::corpus(problem_dir, CorpusFault::NoTestsFolder));
    };
    // Case name -> (input, expected outputs found).
    let mut files: BTreeMap<String, (Option<PathBuf>, Vec<PathBuf>)> = BTreeMap::new();
    let mut prefix = cases_dir.as_os_str().to_owned();
    prefix.push("/");
    for entry in walkdir::WalkDir::new(&cases_dir).follow_links(true) {
        let entry = entry?;
        let path = entry.path();
        let extension = path.extension().and_then(|e| e.to_str());
        if !matches!(extension, Some("in" | "out" | "ans")) {
            continue;
        }
        if entry.file_type().is_dir() {
            return Err(Error::corpus(path, CorpusFault::FolderNotFile));
        }
        if !entry.file_type().is_file() {
            continue;
        }
        // The bytes between the folder and the extension: walkdir's paths start with the
        // folder as given, so no path needs parsing.
        let bytes = path.as_os_str().as_bytes();
        let start = if bytes.starts_with(prefix.as_bytes()) {
            prefix.len()
        } else {
            0
        };
        let end = bytes.len() - extension.map_or(0, |e| e.len() + 1);
        let name = std::str::from_utf8(&bytes[start..end])
            .map_err(|_| Error::not_utf8(path, "file name"))?
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
            (Some(input), [answer]) => cases.push(TestCase::new(name, input, answer.clone())),
            (Some(input), []) => return Err(Error::corpus(input, CorpusFault::NoExpectedOutput)),
            (Some(_), [first, ..]) => return Err(Error::corpus(first, CorpusFault::TwoAnswers)),
            (None, answers) => return Err(Error::corpus(&answers[0], CorpusFault::NoInput)),
        }
    }
    if cases.is_empty() {
        return Err(Error::corpus(&cases_dir, CorpusFault::NoCases));
    }
    // Whether a case is a sample is found once per case, not at every comparison: thousands
    // of cases are sorted at every run.
    let mut keyed: Vec<(bool, TestCase)> = cases
        .into_iter()
        .map(|case| (!is_sample(&case.name), case))
        .collect();
    keyed.sort_by(|(a_group, a), (b_group, b)| {
        a_group
            .cmp(b_group)
            .then_with(|| natural_cmp(&a.name, &b.name))
    });
    Ok(keyed.into_iter().map(|(_, case)| case).collect())
}

/// Samples are judged and shown first: they are the cases a person reads.
fn is_sample(name: &str) -> bool {
    let group = name.split('/').next().unwrap_or_default();
    SAMPLE_GROUPS.contains(&group)
}

/// The `--case` patterns: globs over case names where `*` is any text (`/` included) and
/// `?` one character. A pattern also selects every case below a folder it names (`sample`).
#[derive(Debug, Default)]
pub struct CasePatterns(Vec<String>);

impl CasePatterns {
    /// An empty pattern is a usage error.
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

    /// For a message: `` `a` or `b` ``.
    pub fn describe(&self) -> String {
        let quoted: Vec<String> = self.0.iter().map(|p| format!("`{p}`")).collect();
        quoted.join(" or ")
    }
}

/// On a mismatch after a `*`, the star takes one more byte: linear enough for case names.
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

/// Names in the order people expect, `2` before `10`: digit runs compare by their value.
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

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    use crate::problem::test_files::touch;

    fn names(cases: &[TestCase]) -> Vec<&str> {
        cases.iter().map(|c| c.name.as_str()).collect()
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
    fn a_case_file_that_is_a_folder_is_named_as_one() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "tests/1.in");
        touch(dir.path(), "tests/1.out");
        touch(dir.path(), "tests/2.in/inside");
        let message = find_cases(dir.path()).unwrap_err().to_string();
        assert!(
            message.ends_with("tests/2.in: is a folder, not a file"),
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
    fn natural_order_puts_2_before_10() {
        let mut names = vec!["10", "2", "a10", "a2", "b", "a02", "1"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["1", "2", "10", "a2", "a02", "a10", "b"]);
    }
}
