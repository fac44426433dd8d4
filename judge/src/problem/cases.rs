//! A problem's cases: every `NAME.in` with its `NAME.out` or `NAME.ans` below `tests/` (or a
//! package's `data/`). A file without its pair is an error naming it, never a silent skip.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::layout::{CASE_DIRS, JOURNAL_FILE, SAMPLE_GROUPS};
use super::natural_order::natural_cmp;
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
            (Some(input), [answer]) => cases.push(TestCase {
                name,
                input,
                expected: answer.clone(),
                validator_args: Vec::new(),
                compare: None,
            }),
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
}
