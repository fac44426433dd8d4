//! What each submission of a package must get: its folder's default (`accepted`: only AC;
//! `wrong_answer`: AC or WA, at least one WA; ...) and, in 2025-09, the requirements of
//! `submissions/submissions.yaml`, keyed by globs (`*` within a name, `{a,b}`) matching a
//! submission or a folder above it. A key inside an entry naming test data (`secret/*-hard`,
//! relative to `data/`) limits its `permitted` and `required` to those cases.

use std::collections::BTreeSet;
use std::path::Path;

use serde_norway::Value;

use crate::error::{if_exists, Error, Result};
use crate::judging::verdict::VerdictKind;
use crate::problem::layout::SUBMISSIONS_YAML;

/// Every judged case's verdict is in `permitted`, some case's in `required`, the score in
/// `score` (inclusive), and some case's validator message holds `message` (each `None` when
/// not constrained).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Requirement {
    pub permitted: Option<BTreeSet<VerdictKind>>,
    pub required: Option<BTreeSet<VerdictKind>>,
    pub score: Option<(f64, f64)>,
    /// Case-sensitive.
    pub message: Option<String>,
    /// A glob of test data (relative to `data/`): the requirement is on the cases it matches,
    /// or in a group it matches.
    pub cases: Option<String>,
}

/// Scores printed with six decimals are equal to the score they print.
const SCORE_TOLERANCE: f64 = 1e-6;

impl Requirement {
    fn new(permitted: &[VerdictKind], required: &[VerdictKind]) -> Requirement {
        let set =
            |kinds: &[VerdictKind]| (!kinds.is_empty()).then(|| kinds.iter().copied().collect());
        Requirement {
            permitted: set(permitted),
            required: set(required),
            ..Requirement::default()
        }
    }

    /// `name` is relative to `data/` (`secret/12`).
    pub fn applies_to_case(&self, name: &str) -> bool {
        self.cases
            .as_ref()
            .is_none_or(|pattern| matches(pattern, name))
    }

    /// `score` is `None` when the problem gives none.
    pub fn score_kept_by(&self, score: Option<f64>) -> bool {
        match (self.score, score) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((low, high)), Some(score)) => {
                low - SCORE_TOLERANCE <= score && score <= high + SCORE_TOLERANCE
            }
        }
    }

    /// The format knows four verdicts: memory and output over their limits are run-time
    /// errors there.
    pub fn kept_by(&self, kinds: &[VerdictKind]) -> bool {
        let spec = |kind: &VerdictKind| match kind {
            VerdictKind::MemoryLimitExceeded | VerdictKind::OutputLimitExceeded => {
                VerdictKind::RuntimeError
            }
            kind => *kind,
        };
        let permitted = self
            .permitted
            .as_ref()
            .is_none_or(|set| kinds.iter().all(|kind| set.contains(&spec(kind))));
        let required = self
            .required
            .as_ref()
            .is_none_or(|set| kinds.iter().any(|kind| set.contains(&spec(kind))));
        permitted && required && !kinds.is_empty()
    }
}

pub fn default_for(folder: &str) -> Option<Requirement> {
    use VerdictKind::*;
    Some(match folder {
        "accepted" => Requirement::new(&[Accepted], &[]),
        "rejected" => Requirement::new(&[], &[RuntimeError, TimeLimitExceeded, WrongAnswer]),
        "wrong_answer" => Requirement::new(&[Accepted, WrongAnswer], &[WrongAnswer]),
        "time_limit_exceeded" => {
            Requirement::new(&[Accepted, TimeLimitExceeded], &[TimeLimitExceeded])
        }
        "run_time_error" => Requirement::new(&[Accepted, RuntimeError], &[RuntimeError]),
        "brute_force" => Requirement::new(
            &[Accepted, RuntimeError, TimeLimitExceeded],
            &[RuntimeError, TimeLimitExceeded],
        ),
        _ => return None,
    })
}

/// In file order.
#[derive(Debug, Default)]
pub struct SubmissionsYaml {
    entries: Vec<(String, YamlEntry)>,
}

#[derive(Debug, Default)]
struct YamlEntry {
    requirement: Requirement,
    /// On test data groups (keys naming data, with maps as values).
    groups: Vec<Requirement>,
    /// Keys this judge does not check: a submission they apply to cannot be verified as the
    /// file asks.
    unchecked: Vec<String>,
    /// A code of the format's table.
    language: Option<String>,
    entrypoint: Option<String>,
}

/// A group's requirements under `pattern` (`field` names the group's cases), added to `entry`.
fn group_requirement(
    path: &Path,
    pattern: &str,
    field: &str,
    group: serde_norway::Mapping,
    entry: &mut YamlEntry,
) -> Result<()> {
    let where_ = format!("{pattern}: {field}");
    let mut requirement = Requirement {
        cases: Some(field.to_owned()),
        ..Requirement::default()
    };
    for (key, value) in group {
        match key.as_str().unwrap_or_default() {
            "permitted" => requirement.permitted = Some(verdicts(path, &where_, &value)?),
            "required" => requirement.required = Some(verdicts(path, &where_, &value)?),
            "message" => requirement.message = Some(message(path, &where_, &value)?),
            // The time limit is not inferred from these bounds.
            "use_for_time_limit" => {}
            key => entry.unchecked.push(format!("{field}: {key}")),
        }
    }
    if requirement.permitted.is_some()
        || requirement.required.is_some()
        || requirement.message.is_some()
    {
        entry.groups.push(requirement);
    }
    Ok(())
}

impl SubmissionsYaml {
    /// No file is no entries.
    pub fn read(submissions: &Path) -> Result<SubmissionsYaml> {
        let path = submissions.join(SUBMISSIONS_YAML);
        let Some(text) = if_exists(&path, std::fs::read_to_string)? else {
            return Ok(SubmissionsYaml::default());
        };
        let value: Value = serde_norway::from_str(&text).map_err(|error| {
            let line = error.location().map(|l| l.line());
            Error::parse(&path, line, error.to_string())
        })?;
        let mut entries = Vec::new();
        let map = match value {
            Value::Mapping(map) => map,
            // An empty file.
            Value::Null => return Ok(SubmissionsYaml::default()),
            _ => {
                let message = "expected a map from submission patterns to their requirements";
                return Err(Error::parse(&path, Some(1), message));
            }
        };
        for (key, value) in map {
            let pattern = key.as_str().unwrap_or_default().to_owned();
            let entry = entry(&path, &pattern, value).map_err(|error| match error {
                Error::Parse {
                    path,
                    line: None,
                    message,
                } => Error::Parse {
                    line: line_of(&text, &pattern),
                    path,
                    message,
                },
                other => other,
            })?;
            entries.push((pattern, entry));
        }
        Ok(SubmissionsYaml { entries })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `relative` is below `submissions/`, with `/`. Also the keys that apply but are not
    /// checked.
    pub fn requirements(&self, relative: &str) -> (Vec<Requirement>, Vec<String>) {
        let folder = relative.split('/').next().unwrap_or_default();
        // A key that is exactly the folder's name overrides its default, key by key.
        let mut base = default_for(folder);
        let mut extra = Vec::new();
        let mut unchecked = Vec::new();
        for (folder_key, entry) in self.entries_for(relative) {
            if folder_key {
                let default = base.clone().unwrap_or_default();
                base = Some(Requirement {
                    permitted: entry.requirement.permitted.clone().or(default.permitted),
                    required: entry.requirement.required.clone().or(default.required),
                    score: entry.requirement.score.or(default.score),
                    message: entry.requirement.message.clone().or(default.message),
                    cases: None,
                });
                extra.extend(entry.groups.iter().cloned());
                unchecked.extend(entry.unchecked.iter().cloned());
            } else {
                extra.push(entry.requirement.clone());
                extra.extend(entry.groups.iter().cloned());
                unchecked.extend(entry.unchecked.iter().cloned());
            }
        }
        // An entry of metadata only (`use_for_time_limit`) asks nothing of the verdicts.
        let asks_something = |r: &Requirement| {
            r.permitted.is_some()
                || r.required.is_some()
                || r.score.is_some()
                || r.message.is_some()
        };
        let all = base.into_iter().chain(extra).filter(asks_something);
        (all.collect(), unchecked)
    }

    /// As written; a later entry over an earlier one.
    pub fn program(&self, relative: &str) -> (Option<String>, Option<String>) {
        let (mut language, mut entrypoint) = (None, None);
        for (_, entry) in self.entries_for(relative) {
            language = entry.language.clone().or(language);
            entrypoint = entry.entrypoint.clone().or(entrypoint);
        }
        (language, entrypoint)
    }

    /// In file order, each with whether its key is exactly the submission's folder.
    fn entries_for<'a>(&'a self, relative: &'a str) -> impl Iterator<Item = (bool, &'a YamlEntry)> {
        let folder = relative.split('/').next().unwrap_or_default();
        self.entries.iter().filter_map(move |(pattern, entry)| {
            let folder_key = pattern == folder;
            (folder_key || matches(pattern, relative)).then_some((folder_key, entry))
        })
    }
}

/// One entry of `submissions.yaml`: `pattern`'s requirements and program.
fn entry(path: &Path, pattern: &str, value: Value) -> Result<YamlEntry> {
    let Value::Mapping(fields) = value else {
        return Err(Error::parse(
            path,
            None,
            format!("`{pattern}`: expected a map of requirements"),
        ));
    };
    let mut entry = YamlEntry::default();
    for (field, value) in fields {
        let field = field.as_str().unwrap_or_default().to_owned();
        match field.as_str() {
            "permitted" => entry.requirement.permitted = Some(verdicts(path, pattern, &value)?),
            "required" => entry.requirement.required = Some(verdicts(path, pattern, &value)?),
            "score" => entry.requirement.score = Some(score_range(path, pattern, &value)?),
            "message" => entry.requirement.message = Some(message(path, pattern, &value)?),
            "language" => entry.language = Some(string(path, pattern, &field, &value)?),
            "entrypoint" => entry.entrypoint = Some(string(path, pattern, &field, &value)?),
            "authors" | "model_solution" | "use_for_time_limit" => {}
            _ => match value {
                Value::Mapping(group) => {
                    group_requirement(path, pattern, &field, group, &mut entry)?
                }
                _ => entry.unchecked.push(field),
            },
        }
    }
    Ok(entry)
}

/// The line of `pattern`'s key, for a fault the YAML value no longer places.
fn line_of(text: &str, pattern: &str) -> Option<usize> {
    let keys = [
        format!("{pattern}:"),
        format!("\"{pattern}\":"),
        format!("'{pattern}':"),
    ];
    let at =
        (text.lines()).position(|line| keys.iter().any(|key| line.starts_with(key.as_str())))?;
    Some(at + 1)
}

fn string(path: &Path, pattern: &str, key: &str, value: &Value) -> Result<String> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| Error::parse(path, None, format!("`{pattern}`: `{key}` must be a string")))
}

fn message(path: &Path, pattern: &str, value: &Value) -> Result<String> {
    string(path, pattern, "message", value)
}

/// `score: 60` (exactly) or `score: [40, 60]` (inclusive).
fn score_range(path: &Path, pattern: &str, value: &Value) -> Result<(f64, f64)> {
    let number = |value: &Value| value.as_f64().filter(|n| n.is_finite());
    let range = match value {
        Value::Sequence(items) => match items.as_slice() {
            [low, high] => number(low).zip(number(high)),
            _ => None,
        },
        value => number(value).map(|score| (score, score)),
    };
    range.filter(|(low, high)| low <= high).ok_or_else(|| {
        Error::parse(
            path,
            None,
            format!("`{pattern}`: `score` expects a number or a list of two, lowest first"),
        )
    })
}

fn verdicts(path: &Path, pattern: &str, value: &Value) -> Result<BTreeSet<VerdictKind>> {
    let bad = || {
        Error::parse(
            path,
            None,
            format!("`{pattern}`: expected a list of AC, WA, TLE, RTE"),
        )
    };
    let Value::Sequence(items) = value else {
        return Err(bad());
    };
    // The format's four codes, not `VerdictKind`'s (`RTE` is our `RE`; no MLE, OLE, JE).
    items
        .iter()
        .map(|item| match item.as_str() {
            Some("AC") => Ok(VerdictKind::Accepted),
            Some("WA") => Ok(VerdictKind::WrongAnswer),
            Some("TLE") => Ok(VerdictKind::TimeLimitExceeded),
            Some("RTE") => Ok(VerdictKind::RuntimeError),
            _ => Err(bad()),
        })
        .collect()
}

/// Whether `pattern` matches `path` or one of the folders above it.
fn matches(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    expand_braces(pattern).iter().any(|pattern| {
        let wanted: Vec<&str> = pattern.split('/').collect();
        wanted.len() <= parts.len()
            && wanted
                .iter()
                .zip(&parts)
                .all(|(want, part)| glob_name(want.as_bytes(), part.as_bytes()))
    })
}

/// `x.{py,cpp}` → `x.py`, `x.cpp`.
fn expand_braces(pattern: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (pattern.find('{'), pattern.find('}')) else {
        return vec![pattern.to_owned()];
    };
    if close < open {
        return vec![pattern.to_owned()];
    }
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    // Spaces around an alternative are not part of it (`{ 4 }` is `4`), as BAPCtools reads them.
    pattern[open + 1..close]
        .split(',')
        .map(str::trim)
        .flat_map(|choice| expand_braces(&format!("{head}{choice}{tail}")))
        .collect()
}

/// `*` matches any run of characters within one name.
fn glob_name(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| glob_name(rest, &name[skip..])),
        Some((first, rest)) => name.first() == Some(first) && glob_name(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use VerdictKind::*;

    #[test]
    fn globs_match_names_and_the_folders_above() {
        assert!(matches("accepted", "accepted/a.py"));
        assert!(matches("accepted/*", "accepted/a.py"));
        assert!(matches("wa/ac*", "wa/ac_fast.py"));
        assert!(
            !matches("*/nested_wa.py", "match/nested/nested_wa.py"),
            "`*` stops at `/`"
        );
        assert!(matches("expansion/ac.{py,cpp}", "expansion/ac.cpp"));
        assert!(
            !matches("match/match", "match/match_wa/x.py"),
            "whole names only"
        );
        assert!(!matches("match_wa.py", "match/match_wa.py"), "from the top");
    }

    #[test]
    fn requirements_of_the_default_folders() {
        let wrong = default_for("wrong_answer").unwrap();
        assert!(wrong.kept_by(&[Accepted, WrongAnswer]));
        assert!(!wrong.kept_by(&[Accepted, Accepted]));
        assert!(!wrong.kept_by(&[WrongAnswer, TimeLimitExceeded]));
        let run_time_error = default_for("run_time_error").unwrap();
        assert!(
            run_time_error.kept_by(&[MemoryLimitExceeded]),
            "memory is a run-time error"
        );
        assert!(default_for("rejected")
            .unwrap()
            .kept_by(&[Accepted, TimeLimitExceeded]));
        assert!(
            !default_for("accepted").unwrap().kept_by(&[]),
            "judging nothing proves nothing"
        );
    }

    #[test]
    fn a_file_that_is_no_map_of_entries_is_refused_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let read = |text: &str| {
            std::fs::write(dir.path().join(SUBMISSIONS_YAML), text).unwrap();
            SubmissionsYaml::read(dir.path()).map_err(|error| error.to_string())
        };
        assert!(read("").unwrap().is_empty());
        let listed = read("- accepted/a.py\n").unwrap_err();
        assert!(
            listed
                .ends_with("line 1: expected a map from submission patterns to their requirements"),
            "{listed}"
        );
        let entry = read("accepted:\n  score: 100\n'wrong_answer': [WA]\n").unwrap_err();
        assert!(
            entry.ends_with("line 3: `wrong_answer`: expected a map of requirements"),
            "{entry}"
        );
        let field = read("accepted:\n  score: 100\nmine/a.py:\n  permitted: AC\n").unwrap_err();
        assert!(
            field.ends_with("line 3: `mine/a.py`: expected a list of AC, WA, TLE, RTE"),
            "{field}"
        );
    }

    #[test]
    fn a_yaml_entry_overrides_its_folder_and_globs_add_requirements() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(SUBMISSIONS_YAML),
            "accepted:\n  permitted: [WA]\n  required: [WA]\nmine:\n  permitted: [AC, WA]\nmine/ac.py:\n  permitted: [AC]\nmine/msg.py:\n  message: hello\nmine/s.py:\n  score: [40, 60.5]\nmine/t.py:\n  score: 7\n",
        )
        .unwrap();
        let yaml = SubmissionsYaml::read(dir.path()).unwrap();
        let (accepted, _) = yaml.requirements("accepted/wa.py");
        assert_eq!(accepted.len(), 1);
        assert!(accepted[0].kept_by(&[WrongAnswer]));
        let (mine, _) = yaml.requirements("mine/ac.py");
        assert_eq!(mine.len(), 2, "the folder's entry and the file's");
        assert!(mine.iter().all(|r| r.kept_by(&[Accepted])));
        assert!(!mine.iter().all(|r| r.kept_by(&[WrongAnswer])));
        let (said, unchecked) = yaml.requirements("mine/msg.py");
        assert!(unchecked.is_empty(), "message is checked");
        assert_eq!(said[1].message.as_deref(), Some("hello"));
        let (scored, unchecked) = yaml.requirements("mine/s.py");
        assert!(unchecked.is_empty(), "score is checked");
        assert!(scored.iter().all(|r| r.score_kept_by(Some(40.0))));
        assert!(!scored[1].score_kept_by(Some(60.6)));
        assert!(!scored[1].score_kept_by(None), "no score, no keeping");
        let (exact, _) = yaml.requirements("mine/t.py");
        assert!(exact[1].score_kept_by(Some(7.0)) && !exact[1].score_kept_by(Some(7.5)));
        assert!(
            yaml.requirements("other/x.py").0.is_empty(),
            "no folder default, no entry"
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(SUBMISSIONS_YAML),
            "tle:\n  sample:\n    use_for_time_limit: lower\n",
        )
        .unwrap();
        let yaml = SubmissionsYaml::read(dir.path()).unwrap();
        assert!(
            yaml.requirements("tle/sleep.py").0.is_empty(),
            "an entry naming its folder, with no requirement, asks nothing"
        );
    }
}
