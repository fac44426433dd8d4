//! A package's test cases: every `NAME.in` with its `NAME.ans` under `data/sample/` and
//! `data/secret/`, in lexicographic order as the format says, each with the output
//! validator arguments its group gives it (`testdata.yaml` before 2025-09, `test_group.yaml`
//! and `NAME.yaml` since). The validation data (`data/invalid_input/`, `invalid_output/`,
//! `valid_output/`) checks the validators, not submissions, and is not judged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::constants::Constants;
use super::FormatVersion;
use crate::error::{CorpusFault, Error, Result};
use crate::problem::layout::{DATA_DIR, JUDGED_DATA_DIRS, TESTDATA_FILE, TEST_GROUP_FILE};
use crate::problem::TestCase;

/// One group configuration file's keys that matter to judging; the others (scoring,
/// input validators, visualizers) are left alone here.
#[derive(Debug, Default, Deserialize)]
struct GroupYaml {
    /// 2023-07 and later: a sequence of strings (a string is split on spaces).
    output_validator_args: Option<Args>,
    /// Legacy: a string of flags.
    output_validator_flags: Option<Args>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Args {
    Words(String),
    List(Vec<String>),
}

impl Args {
    fn into_vec(self) -> Vec<String> {
        match self {
            Args::Words(text) => text.split_whitespace().map(str::to_owned).collect(),
            Args::List(list) => list,
        }
    }
}

/// Every judged case of the package at `dir`, in the order the format runs them.
pub fn find_package_cases(
    dir: &Path,
    version: FormatVersion,
    constants: &Constants,
) -> Result<Vec<TestCase>> {
    let data = dir.join(DATA_DIR);
    let mut cases = Vec::new();
    for top in JUDGED_DATA_DIRS {
        let folder = data.join(top);
        if folder.is_dir() {
            collect(&data, &folder, version, constants, &mut cases)?;
        }
    }
    if cases.is_empty() {
        return Err(Error::corpus(&data, CorpusFault::NoPackageCases));
    }
    Ok(cases)
}

/// The cases below `folder`: `.in` files with their `.ans`; sorted by path, component by
/// component, so that `secret/a/2` comes before `secret/b`.
fn collect(
    data: &Path,
    folder: &Path,
    version: FormatVersion,
    constants: &Constants,
    cases: &mut Vec<TestCase>,
) -> Result<()> {
    let mut found: BTreeMap<PathBuf, (Option<PathBuf>, Option<PathBuf>)> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(folder).follow_links(true) {
        let entry = entry?; // walkdir's error names its path
        let path = entry.path();
        let extension = path.extension().and_then(|e| e.to_str());
        // `.out` is a sample's example output and `.interaction` an interactive sample's
        // dialogue: both are for the statement, neither is the answer.
        if !matches!(extension, Some("in" | "ans")) {
            continue;
        }
        if entry.file_type().is_dir() {
            return Err(Error::corpus(path, CorpusFault::FolderNotFile));
        }
        if !entry.file_type().is_file() {
            continue;
        }
        let slot = found.entry(path.with_extension("")).or_default();
        match extension {
            Some("in") => slot.0 = Some(path.to_path_buf()),
            _ => slot.1 = Some(path.to_path_buf()),
        }
    }
    for (stem, (input, answer)) in found {
        let (input, expected) = match (input, answer) {
            (Some(input), Some(answer)) => (input, answer),
            (Some(input), None) => return Err(Error::corpus(input, CorpusFault::NoAnswer)),
            (None, Some(answer)) => {
                return Err(Error::corpus(answer, CorpusFault::AnswerWithoutInput))
            }
            (None, None) => unreachable!("a slot is made for a file"),
        };
        let relative = stem.strip_prefix(data).unwrap_or(&stem);
        let name = relative
            .to_str()
            .ok_or_else(|| Error::not_utf8(&input, "file name"))?
            .to_owned();
        let validator_args = validator_args(data, &stem, version, constants)?;
        cases.push(TestCase {
            name,
            input,
            expected,
            validator_args,
            compare: None,
        });
    }
    Ok(())
}

/// The output validator arguments of the case at `stem`: its own `NAME.yaml` (2023-07 and
/// later), else the nearest group file above it that gives them.
fn validator_args(
    data: &Path,
    stem: &Path,
    version: FormatVersion,
    constants: &Constants,
) -> Result<Vec<String>> {
    let group_file = match version {
        FormatVersion::Legacy => TESTDATA_FILE,
        FormatVersion::Draft2023 => TESTDATA_FILE,
        FormatVersion::V2025 => TEST_GROUP_FILE,
    };
    let mut candidates = Vec::new();
    if version != FormatVersion::Legacy {
        candidates.push(stem.with_extension("yaml"));
    }
    candidates.extend(
        stem.ancestors()
            .skip(1)
            .take_while(|dir| dir.starts_with(data))
            .map(|dir| dir.join(group_file)),
    );
    for file in candidates {
        if let Some(args) = read_args(&file, constants)? {
            return Ok(args);
        }
    }
    Ok(Vec::new())
}

fn read_args(file: &Path, constants: &Constants) -> Result<Option<Vec<String>>> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Error::io(file, error)),
    };
    let yaml: Option<GroupYaml> =
        serde_norway::from_str(&constants.apply_text(&text)).map_err(|error| {
            let line = error.location().map(|l| l.line());
            Error::parse(file, line, error.to_string())
        })?;
    let yaml = yaml.unwrap_or_default();
    Ok(yaml
        .output_validator_args
        .or(yaml.output_validator_flags)
        .map(Args::into_vec))
}
