//! Kattis / ICPC problem packages: `problem.yaml` (limits, validation, validator flags),
//! `data/sample` and `data/secret` (with groups), `.ans` answers, output validators, and the
//! `submissions/<verdict>/` folders that `judge verify` checks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::checker::{CheckerSpec, Protocol};
use crate::compare::{CompareMode, KattisFlags};
use crate::discover::natural_cmp;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::problem::Problem;
use crate::profile::{Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};

pub const PACKAGE_FILE: &str = "problem.yaml";
pub const SUBMISSIONS_DIR: &str = "submissions";

/// The parts of `problem.yaml` the judge uses; the format has many more keys (author,
/// license, ...), which are not the judge's business and are left alone.
#[derive(Debug, Default, Deserialize)]
struct PackageYaml {
    name: Option<serde_norway::Value>,
    validation: Option<String>,
    validator_flags: Option<String>,
    limits: Option<LimitsYaml>,
}

#[derive(Debug, Default, Deserialize)]
struct LimitsYaml {
    /// Seconds (2023-07 format); older packages keep it in `.timelimit`.
    time_limit: Option<f64>,
    /// MiB.
    memory: Option<u64>,
    /// MiB.
    output: Option<u64>,
}

/// Whether `dir` is a Kattis package rather than one of our problem folders.
pub fn is_package(dir: &Path) -> bool {
    dir.join(PACKAGE_FILE).is_file() && !dir.join(crate::problem::METADATA_FILE).is_file()
}

/// Loads a package's metadata (`cases` left empty).
pub fn load_package(dir: &Path, id: String) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let text = std::fs::read_to_string(&path).map_err(|error| Error::io(&path, error))?;
    parse_package(dir, id, &text)
}

/// A package's metadata from the text of its `problem.yaml` (`cases` left empty).
pub fn parse_package(dir: &Path, id: String, text: &str) -> Result<Problem> {
    let path = dir.join(PACKAGE_FILE);
    let yaml: PackageYaml = serde_norway::from_str(text).map_err(|error| {
        let line = error
            .location()
            .map(|l| format!("line {}: ", l.line()))
            .unwrap_or_default();
        Error::invalid(&path, format!("{line}{error}"))
    })?;
    let profile = Profile::Kattis;
    let mut limits = profile.limits();
    let limits_yaml = yaml.limits.unwrap_or_default();
    let time_limit = match limits_yaml.time_limit {
        Some(seconds) => Some(seconds),
        None => read_timelimit_file(dir)?,
    };
    let out_of_range = |key: &str, value: String, range: String| {
        let line = yaml_line(text, key)
            .map(|line| format!("line {line}: "))
            .unwrap_or_default();
        Error::invalid(
            &path,
            format!("{line}`limits.{key}` = {value} is out of range: expected {range}"),
        )
    };
    if let Some(seconds) = time_limit {
        let (low, high) = (*TIME_LIMIT_MS.start(), *TIME_LIMIT_MS.end());
        limits.cpu_time = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| (low..=high).contains(&(t.as_millis() as u64)))
            .ok_or_else(|| {
                out_of_range(
                    "time_limit",
                    seconds.to_string(),
                    format!("{} to {} seconds", low as f64 / 1000.0, high / 1000),
                )
            })?;
    }
    let mib = |value: u64, key: &str| {
        if SIZE_LIMIT_MIB.contains(&value) {
            Ok(value << 20)
        } else {
            let range = format!("{} to {} MiB", SIZE_LIMIT_MIB.start(), SIZE_LIMIT_MIB.end());
            Err(out_of_range(key, value.to_string(), range))
        }
    };
    if let Some(value) = limits_yaml.memory {
        limits.memory_bytes = mib(value, "memory")?;
        limits.stack_bytes = profile.stack_bytes(limits.memory_bytes);
    }
    if let Some(value) = limits_yaml.output {
        limits.output_bytes = mib(value, "output")?;
    }
    let flags: Vec<String> = yaml
        .validator_flags
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let validation = yaml.validation.unwrap_or_else(|| "default".to_owned());
    let (compare, checker) = match validation.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["default"] => (CompareMode::Kattis(parse_flags(&flags, &path)?), None),
        ["custom"] => {
            let source = find_validator(dir)?;
            let checker = CheckerSpec { source, protocol: Protocol::Kattis, flags };
            (CompareMode::Kattis(KattisFlags::default()), Some(checker))
        }
        _ => {
            return Err(Error::invalid(
                &path,
                format!("validation `{validation}` is not supported (only default and custom; not interactive)"),
            ))
        }
    };
    Ok(Problem {
        name: yaml
            .name
            .as_ref()
            .and_then(name_of)
            .unwrap_or_else(|| id.clone()),
        source_url: None,
        profile,
        solution: default_submission(dir),
        limits,
        compare,
        checker,
        cases: Vec::new(),
        dir: dir.to_path_buf(),
        id,
    })
}

/// The line of the first `key:` in a YAML text (for errors: serde_norway keeps no spans).
fn yaml_line(text: &str, key: &str) -> Option<usize> {
    let prefix = format!("{key}:");
    text.lines()
        .position(|line| line.trim_start().starts_with(&prefix))
        .map(|index| index + 1)
}

/// `name: Mean`, or the 2023 format's `name: {en: Mean, ...}`.
fn name_of(value: &serde_norway::Value) -> Option<String> {
    match value {
        serde_norway::Value::String(name) => Some(name.clone()),
        serde_norway::Value::Mapping(names) => names
            .get("en")
            .or_else(|| names.values().next())
            .and_then(|name| name.as_str().map(str::to_owned)),
        _ => None,
    }
}

fn read_timelimit_file(dir: &Path) -> Result<Option<f64>> {
    let path = dir.join(".timelimit");
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| Error::invalid(&path, "expected a number of seconds")),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(Error::io(&path, error)),
    }
}

/// The default output validator's flags.
fn parse_flags(flags: &[String], path: &Path) -> Result<KattisFlags> {
    let mut parsed = KattisFlags::default();
    let (mut abs, mut rel) = (None, None);
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut value = || -> Result<f64> {
            words
                .next()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    Error::invalid(
                        path,
                        format!("validator flag `{flag}` needs a non-negative number"),
                    )
                })
        };
        match flag.as_str() {
            "case_sensitive" => parsed.case_sensitive = true,
            "space_change_sensitive" => parsed.space_change_sensitive = true,
            "float_tolerance" => {
                let tolerance = value()?;
                (abs, rel) = (Some(tolerance), Some(tolerance));
            }
            "float_absolute_tolerance" => abs = Some(value()?),
            "float_relative_tolerance" => rel = Some(value()?),
            other => {
                return Err(Error::invalid(
                    path,
                    format!("unknown validator flag `{other}`"),
                ))
            }
        }
    }
    if abs.is_some() || rel.is_some() {
        parsed.tolerance = Some((abs.unwrap_or(0.0), rel.unwrap_or(0.0)));
    }
    Ok(parsed)
}

/// The one source file of the package's output validator: `output_validators/<name>/` (the
/// legacy layout) or `output_validator/`.
fn find_validator(dir: &Path) -> Result<PathBuf> {
    let mut folders: Vec<PathBuf> = Vec::new();
    if dir.join("output_validator").is_dir() {
        folders.push(dir.join("output_validator"));
    }
    if let Ok(entries) = std::fs::read_dir(dir.join("output_validators")) {
        folders.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    let sources: Vec<PathBuf> = folders
        .iter()
        .flat_map(|folder| {
            std::fs::read_dir(folder)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
        })
        .filter(|path| path.is_file() && Language::of(path).is_some())
        .collect();
    match sources.as_slice() {
        [source] => Ok(source.clone()),
        [] => Err(Error::invalid(dir, "validation is custom but no output validator source was found in output_validators/")),
        _ => Err(Error::invalid(
            dir,
            "the output validator has several source files: only single-file validators are supported",
        )),
    }
}

/// The solution judged when none is named: the first accepted submission.
fn default_submission(dir: &Path) -> PathBuf {
    let accepted = dir.join(SUBMISSIONS_DIR).join("accepted");
    submissions_in(&accepted)
        .into_iter()
        .next()
        .unwrap_or(accepted)
}

/// The submissions in one verdict folder, in natural order; dot-files (`.gitkeep`) are no
/// submissions.
pub fn submissions_in(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .collect();
    files.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Result<KattisFlags> {
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        parse_flags(&words, Path::new("problem.yaml"))
    }

    #[test]
    fn validator_flags_map_to_the_default_validator() {
        assert_eq!(flags("").unwrap(), KattisFlags::default());
        let parsed = flags("case_sensitive float_tolerance 1e-6").unwrap();
        assert!(parsed.case_sensitive && !parsed.space_change_sensitive);
        assert_eq!(parsed.tolerance, Some((1e-6, 1e-6)));
        assert_eq!(
            flags("float_relative_tolerance 0.01").unwrap().tolerance,
            Some((0.0, 0.01))
        );
        assert!(flags("float_tolerance")
            .unwrap_err()
            .to_string()
            .contains("needs a non-negative number"));
        assert!(flags("ignore_everything")
            .unwrap_err()
            .to_string()
            .contains("unknown validator flag `ignore_everything`"));
    }
}
