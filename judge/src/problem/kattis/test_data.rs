//! A package's judged cases: every `NAME.in` with its `NAME.ans` under `data/sample/` and
//! `data/secret/`, in lexicographic order as the format says, with the output validator
//! arguments of its group (`testdata.yaml` before 2025-09, `test_group.yaml` and `NAME.yaml`
//! since). The validation data checks the validators and is not judged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use walkdir::DirEntry;

use super::constants::Constants;
use super::FormatVersion;
use crate::error::{if_exists, CorpusFault, Error, Result};
use crate::problem::layout::{DATA_DIR, JUDGED_DATA_DIRS, TESTDATA_FILE, TEST_GROUP_FILE};
use crate::problem::TestCase;

/// A group configuration file's keys about validators; the others (scoring, visualizers)
/// are not read here.
#[derive(Debug, Default, Deserialize)]
pub(super) struct GroupYaml {
    /// 2023-07 and later: a sequence of strings (a string is split on spaces).
    output_validator_args: Option<Args>,
    /// Legacy: a string of flags.
    output_validator_flags: Option<Args>,
    /// 2023-07 and later: a sequence, or a map from validator name to sequence. Read as any
    /// YAML value, so that no spelling of it can stop the cases from being judged.
    input_validator_args: Option<serde_norway::Value>,
    /// Legacy: a string, or a map with the keys `name` and `flags`.
    input_validator_flags: Option<serde_norway::Value>,
    /// BAPCtools: as `input_validator_args`, for the answer validators.
    answer_validator_args: Option<serde_norway::Value>,
    /// 2025-09: the submission's command-line arguments.
    args: Option<Args>,
}

impl GroupYaml {
    pub(super) fn submission_args(self) -> Option<Vec<String>> {
        self.args.map(Args::into_vec)
    }

    pub(super) fn output_args(self) -> Option<Vec<String>> {
        self.output_validator_args
            .or(self.output_validator_flags)
            .map(Args::into_vec)
    }

    pub(super) fn input_args(self) -> Option<ValidatorArgs> {
        self.input_validator_args
            .or(self.input_validator_flags)
            .map(|value| ValidatorArgs::from_yaml(&value))
    }

    pub(super) fn answer_args(self) -> Option<ValidatorArgs> {
        self.answer_validator_args
            .map(|value| ValidatorArgs::from_yaml(&value))
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(
    untagged,
    expecting = "arguments: a string of words, or a list of them"
)]
enum Args {
    Words(String),
    List(Vec<Word>),
}

/// A word of a list of arguments: YAML reads `[float_tolerance, 1e-6]`'s second as a number.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged, expecting = "an argument: a string or a number")]
enum Word {
    Text(String),
    Number(serde_norway::Number),
    Flag(bool),
}

impl Args {
    fn into_vec(self) -> Vec<String> {
        match self {
            Args::Words(text) => text.split_whitespace().map(str::to_owned).collect(),
            Args::List(list) => (list.into_iter())
                .map(|word| match word {
                    Word::Text(text) => text,
                    Word::Number(number) => number.to_string(),
                    Word::Flag(flag) => flag.to_string(),
                })
                .collect(),
        }
    }
}

/// The arguments a test group gives its input (or answer) validators.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum ValidatorArgs {
    #[default]
    None,
    /// The same to each validator.
    All(Vec<String>),
    /// By the validator's file or folder name, or its stem; one not named gets none.
    Each(BTreeMap<String, Vec<String>>),
}

impl ValidatorArgs {
    /// A string (split on spaces), a sequence (each item one argument), a map from
    /// validator name to either, or legacy's one map `{name: validator, flags: "..."}`.
    fn from_yaml(value: &serde_norway::Value) -> ValidatorArgs {
        use serde_norway::Value;
        // A sequence's items are arguments as they are (an empty one, one with spaces).
        fn scalar(value: &Value) -> Option<String> {
            match value {
                Value::String(text) => Some(text.clone()),
                Value::Number(number) => Some(number.to_string()),
                Value::Bool(flag) => Some(flag.to_string()),
                _ => None,
            }
        }
        fn words(value: &Value) -> Vec<String> {
            match value {
                Value::String(text) => text.split_whitespace().map(str::to_owned).collect(),
                Value::Sequence(items) => items.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect(),
            }
        }
        let Value::Mapping(map) = value else {
            return ValidatorArgs::All(words(value));
        };
        let key = |value: &Value| value.as_str().map(str::to_owned);
        let keys: Vec<Option<String>> = map.keys().map(key).collect();
        let legacy = keys
            .iter()
            .all(|k| matches!(k.as_deref(), Some("name" | "flags")));
        if let (true, Some(name)) = (legacy, map.get("name").and_then(Value::as_str)) {
            let flags = map.get("flags").map(words).unwrap_or_default();
            return ValidatorArgs::Each(BTreeMap::from([(name.to_owned(), flags)]));
        }
        let each = map
            .iter()
            .filter_map(|(name, args)| Some((key(name)?, words(args))));
        ValidatorArgs::Each(each.collect())
    }

    pub fn of(&self, path: &Path) -> &[String] {
        match self {
            ValidatorArgs::None => &[],
            ValidatorArgs::All(args) => args,
            ValidatorArgs::Each(map) => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let stem = path.file_stem().map(|n| n.to_string_lossy().into_owned());
                [name, stem]
                    .into_iter()
                    .flatten()
                    .find_map(|key| map.get(&key))
                    .map_or(&[], Vec::as_slice)
            }
        }
    }
}

/// In the order the format runs them.
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

/// The files and folders below `folder`, links followed, but not what a case's `NAME.files`
/// holds: those are the submission's files, never cases.
pub(super) fn walk_data(folder: &Path) -> impl Iterator<Item = walkdir::Result<DirEntry>> {
    let case_files = |entry: &DirEntry| {
        entry.depth() > 0
            && entry.file_type().is_dir()
            && entry.path().extension().is_some_and(|e| e == "files")
    };
    (walkdir::WalkDir::new(folder).follow_links(true).into_iter())
        .filter_entry(move |entry| !case_files(entry))
}

/// Sorted by path, component by component: `secret/a/2` before `secret/b`.
fn collect(
    data: &Path,
    folder: &Path,
    version: FormatVersion,
    constants: &Constants,
    cases: &mut Vec<TestCase>,
) -> Result<()> {
    let mut found: BTreeMap<PathBuf, (Option<PathBuf>, Option<PathBuf>)> = BTreeMap::new();
    for entry in walk_data(folder) {
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
        let setting = |pick| group_setting(data, &stem, version, constants, pick);
        let validator_args = setting(GroupYaml::output_args)?;
        let args = setting(GroupYaml::submission_args)?;
        cases.push(TestCase {
            name,
            input,
            expected,
            validator_args: validator_args.unwrap_or_default(),
            args: args.unwrap_or_default(),
            compare: None,
            files: case_files(&stem)?,
        });
    }
    Ok(())
}

/// The case's `NAME.files` folder, if it has one whose every entry can be copied.
fn case_files(stem: &Path) -> Result<Option<PathBuf>> {
    let folder = stem.with_extension("files");
    if !folder.is_dir() {
        return Ok(None);
    }
    for entry in walkdir::WalkDir::new(&folder).min_depth(1) {
        let entry = entry?;
        let kind = entry.file_type();
        if !(kind.is_dir() || kind.is_file() || kind.is_symlink()) {
            return Err(Error::corpus(entry.path(), CorpusFault::NotCopyable));
        }
    }
    Ok(Some(folder))
}

/// What `pick` takes from the case's own `NAME.yaml` (2023-07 and later), else from the
/// nearest group file above it that gives it.
pub(super) fn group_setting<T>(
    data: &Path,
    stem: &Path,
    version: FormatVersion,
    constants: &Constants,
    pick: fn(GroupYaml) -> Option<T>,
) -> Result<Option<T>> {
    let group_file = match version {
        FormatVersion::Legacy | FormatVersion::Draft2023 => TESTDATA_FILE,
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
        if let Some(value) = read_group(&file, constants)?.and_then(pick) {
            return Ok(Some(value));
        }
    }
    Ok(None)
}

fn read_group(file: &Path, constants: &Constants) -> Result<Option<GroupYaml>> {
    let Some(text) = if_exists(file, std::fs::read_to_string)? else {
        return Ok(None);
    };
    let yaml: Option<GroupYaml> =
        serde_norway::from_str(&constants.apply_text(&text)).map_err(|error| {
            let line = error.location().map(|l| l.line());
            Error::parse(file, line, error.to_string())
        })?;
    Ok(Some(yaml.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(yaml: &str) -> ValidatorArgs {
        let value: serde_norway::Value = serde_norway::from_str(yaml).unwrap();
        ValidatorArgs::from_yaml(&value)
    }

    #[test]
    fn input_validator_arguments_are_read_in_every_spelling_of_the_format() {
        let all =
            |words: &[&str]| ValidatorArgs::All(words.iter().map(|w| w.to_string()).collect());
        // Legacy: a string of flags, split on spaces.
        assert_eq!(args("\"--max  10\""), all(&["--max", "10"]));
        // 2023-07 and later: each item one argument, as written.
        assert_eq!(args("[\"\", \"a  b\", 10]"), all(&["", "a  b", "10"]));
        let validate = Path::new("input_validators/validate.py");
        let other = Path::new("input_validators/other");
        // Legacy's one map names its validator; a 2025 map names each, by file or stem.
        let legacy = args("{name: validate.py, flags: \"--max 10\"}");
        assert_eq!(legacy.of(validate), ["--max", "10"]);
        assert!(legacy.of(other).is_empty());
        let each = args("{validate: [--max, 3], other: [--min, 1]}");
        assert_eq!(each.of(validate), ["--max", "3"]);
        assert_eq!(each.of(other), ["--min", "1"]);
    }

    #[test]
    fn output_validator_arguments_may_be_numbers_and_a_bad_value_is_named() {
        let read =
            |yaml: &str| serde_norway::from_str::<GroupYaml>(yaml).map(GroupYaml::output_args);
        let numbers = read("output_validator_args: [float_tolerance, 1e-6, 1, true]\n").unwrap();
        let words: Vec<f64> = numbers.unwrap()[1..3]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(words, [1e-6, 1.0]);
        let error = read("output_validator_args: {a: 1}\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("arguments: a string of words, or a list of them"),
            "{error}"
        );
    }
}
