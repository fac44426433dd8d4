//! A problem: its metadata from `problem.toml` (every key optional, defaults from the judge
//! profile) and its test cases.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::checker::{CheckerSpec, Protocol};
use crate::compare::CompareMode;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::profile::{Limits, Profile, SIZE_LIMIT_MIB, TIME_LIMIT_MS};

pub const METADATA_FILE: &str = "problem.toml";

/// One problem, ready to judge.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The folder's name: `boj_7682`.
    pub id: String,
    pub dir: PathBuf,
    pub name: String,
    pub source_url: Option<String>,
    pub profile: Profile,
    /// The solution judged by default.
    pub solution: PathBuf,
    pub limits: Limits,
    pub compare: CompareMode,
    /// A custom checker, used instead of `compare` when present.
    pub checker: Option<CheckerSpec>,
    pub cases: Vec<TestCase>,
    /// What a Kattis package adds: its format version, type and timing rules; `None` for
    /// our problems.
    pub package: Option<crate::kattis::Package>,
}

impl Problem {
    /// The limits a program in `language` runs under: the problem's, plus what the profile's
    /// judge grants that language.
    pub fn limits_for(&self, language: &Language) -> Limits {
        self.profile.allowance(language.id).apply(self.limits)
    }
}

/// One input and its expected output.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// Path below the tests folder, without extension: `sample/1`.
    pub name: String,
    pub input: PathBuf,
    pub expected: PathBuf,
    /// Arguments for the output validator on this case, after the problem's own (a Kattis
    /// package's `output_validator_args`); empty for our problems.
    pub validator_args: Vec<String>,
    /// The default validator's mode for this case when its arguments change it (a package's
    /// `output_validator_args: [float_tolerance, ...]`); else the problem's.
    pub compare: Option<CompareMode>,
}

/// `problem.toml` as written; every key may be left out.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Metadata {
    name: Option<String>,
    source: Option<String>,
    profile: Option<Profile>,
    time_limit_ms: Option<Spanned<u64>>,
    memory_limit_mib: Option<Spanned<u64>>,
    output_limit_mib: Option<Spanned<u64>>,
    stack_limit_mib: Option<Spanned<u64>>,
    compare: Option<CompareName>,
    float_absolute_tolerance: Option<f64>,
    float_relative_tolerance: Option<f64>,
    /// Relative to the problem folder, and inside it.
    solution: Option<Spanned<String>>,
    /// A checker program, relative to the problem folder, and inside it.
    checker: Option<Spanned<String>>,
    checker_protocol: Option<Protocol>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum CompareName {
    Exact,
    Lines,
    Tokens,
    Float,
}

const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

impl Problem {
    /// Reads `dir/problem.toml` (a missing file means all defaults); `cases` is left empty
    /// for `discover` to fill. `default_solution` is used when the file names none.
    pub fn load(dir: &Path, default_solution: PathBuf) -> Result<Problem> {
        let id = dir
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or_else(|| Error::not_utf8(dir, "problem folder name"))?
            .to_owned();
        let path = dir.join(METADATA_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(error) => return Err(Error::io(&path, error)),
        };
        Problem::parse(id, dir, &text, default_solution)
    }

    /// A problem from the text of its `problem.toml` (`cases` left empty).
    pub fn parse(id: String, dir: &Path, text: &str, default_solution: PathBuf) -> Result<Problem> {
        let path = dir.join(METADATA_FILE);
        let metadata = parse_toml::<Metadata>(&path, text)?;
        let file = Located { path: &path, text };
        Problem::from_metadata(id, dir, metadata, default_solution, &file)
    }

    fn from_metadata(
        id: String,
        dir: &Path,
        metadata: Metadata,
        default_solution: PathBuf,
        file: &Located,
    ) -> Result<Problem> {
        let path = file.path;
        let profile = metadata.profile.unwrap_or(Profile::Boj);
        let defaults = profile.limits();
        let mib = |value: &Option<Spanned<u64>>, key: &str, default: u64| match value {
            Some(mib) => file
                .in_range(mib, key, &SIZE_LIMIT_MIB)
                .map(|mib| mib << 20),
            None => Ok(default),
        };
        let memory_bytes = mib(
            &metadata.memory_limit_mib,
            "memory_limit_mib",
            defaults.memory_bytes,
        )?;
        let limits = Limits {
            cpu_time: match &metadata.time_limit_ms {
                Some(ms) => {
                    Duration::from_millis(file.in_range(ms, "time_limit_ms", &TIME_LIMIT_MS)?)
                }
                None => defaults.cpu_time,
            },
            memory_bytes,
            output_bytes: mib(
                &metadata.output_limit_mib,
                "output_limit_mib",
                defaults.output_bytes,
            )?,
            stack_bytes: mib(
                &metadata.stack_limit_mib,
                "stack_limit_mib",
                profile.stack_bytes(memory_bytes),
            )?,
        };
        let compare = compare_mode(&metadata, profile, path)?;
        let checker = match (&metadata.checker, metadata.checker_protocol) {
            (Some(source), protocol) => Some(CheckerSpec {
                source: file.inside(dir, source, "checker")?,
                protocol: protocol.unwrap_or(Protocol::Testlib),
                flags: Vec::new(),
            }),
            (None, Some(_)) => {
                return Err(Error::parse(
                    path,
                    None,
                    "`checker_protocol` needs `checker`",
                ))
            }
            (None, None) => None,
        };
        Ok(Problem {
            name: metadata.name.unwrap_or_else(|| id.clone()),
            source_url: metadata.source,
            profile,
            solution: match &metadata.solution {
                Some(solution) => file.inside(dir, solution, "solution")?,
                None => default_solution,
            },
            limits,
            compare,
            checker,
            cases: Vec::new(),
            dir: dir.to_path_buf(),
            id,
            package: None,
        })
    }
}

/// Parses a TOML file into `T`; an error names the file and the line.
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    toml::from_str(text).map_err(|error| {
        let line = error.span().map(|span| line_at(text, span.start));
        Error::parse(path, line, error.message())
    })
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_at(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A TOML file being validated: where a value is, for errors that name file, line and key.
pub struct Located<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl Located<'_> {
    /// An error at `span` of this file about `key`.
    pub fn error(&self, span: std::ops::Range<usize>, key: &str, message: &str) -> Error {
        let line = line_at(self.text, span.start);
        Error::parse(self.path, Some(line), format!("`{key}` {message}"))
    }

    /// The value when `range` holds it; otherwise an error naming the range.
    pub fn in_range(
        &self,
        value: &Spanned<u64>,
        key: &str,
        range: &std::ops::RangeInclusive<u64>,
    ) -> Result<u64> {
        let number = *value.get_ref();
        if range.contains(&number) {
            return Ok(number);
        }
        Err(self.error(
            value.span(),
            key,
            &format!(
                "= {number} is out of range: expected {} to {}",
                range.start(),
                range.end()
            ),
        ))
    }

    /// `dir/relative` when the path stays inside the problem folder `dir`.
    pub fn inside(&self, dir: &Path, relative: &Spanned<String>, key: &str) -> Result<PathBuf> {
        crate::confine::inside(dir, relative.get_ref())
            .map_err(|reason| self.error(relative.span(), key, &reason))
    }
}

fn compare_mode(metadata: &Metadata, profile: Profile, path: &Path) -> Result<CompareMode> {
    let tolerance = |value: Option<f64>, key: &str| match value {
        Some(t) if !(t.is_finite() && t >= 0.0) => Err(Error::parse(
            path,
            None,
            format!("`{key}` must be a non-negative number"),
        )),
        Some(t) => Ok(t),
        None => Ok(DEFAULT_FLOAT_TOLERANCE),
    };
    let abs = tolerance(
        metadata.float_absolute_tolerance,
        "float_absolute_tolerance",
    )?;
    let rel = tolerance(
        metadata.float_relative_tolerance,
        "float_relative_tolerance",
    )?;
    let has_tolerance =
        metadata.float_absolute_tolerance.is_some() || metadata.float_relative_tolerance.is_some();
    Ok(match metadata.compare {
        None if has_tolerance => CompareMode::Float { abs, rel },
        None => profile.compare(),
        Some(CompareName::Float) => CompareMode::Float { abs, rel },
        Some(_) if has_tolerance => {
            return Err(Error::parse(
                path,
                None,
                "float tolerances need `compare = \"float\"`",
            ))
        }
        Some(CompareName::Exact) => CompareMode::Exact,
        Some(CompareName::Lines) => CompareMode::Lines,
        Some(CompareName::Tokens) => CompareMode::Tokens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Problem> {
        let path = Path::new("problems/p/problem.toml");
        let metadata = parse_toml::<Metadata>(path, text)?;
        Problem::from_metadata(
            "p".into(),
            Path::new("problems/p"),
            metadata,
            "s.rs".into(),
            &Located { path, text },
        )
    }

    fn error(text: &str) -> String {
        load(text).expect_err("should be rejected").to_string()
    }

    #[test]
    fn empty_file_takes_the_boj_defaults() {
        let problem = load("").unwrap();
        assert_eq!(problem.profile, Profile::Boj);
        assert_eq!(problem.limits, Profile::Boj.limits());
        assert_eq!(problem.compare, CompareMode::Lines);
        assert_eq!(problem.name, "p");
        assert_eq!(problem.solution, PathBuf::from("s.rs"));
    }

    #[test]
    fn keys_override_the_profile() {
        let problem = load(
            "name = \"Omok\"\nprofile = \"swea\"\ntime_limit_ms = 1500\nmemory_limit_mib = 128\n\
             compare = \"tokens\"\nsolution = \"alt.rs\"\n",
        )
        .unwrap();
        assert_eq!(problem.name, "Omok");
        assert_eq!(problem.limits.cpu_time, Duration::from_millis(1500));
        assert_eq!(problem.limits.memory_bytes, 128 << 20);
        assert_eq!(
            problem.limits.stack_bytes,
            1 << 20,
            "SWEA's stack stays 1 MiB"
        );
        let boj = load("memory_limit_mib = 128\n").unwrap();
        assert_eq!(
            boj.limits.stack_bytes,
            112 << 20,
            "Baekjoon's stack follows the memory limit"
        );
        assert_eq!(problem.compare, CompareMode::Tokens);
        assert_eq!(problem.solution, Path::new("problems/p/alt.rs"));
    }

    #[test]
    fn float_tolerances_imply_float_mode() {
        let problem = load("float_absolute_tolerance = 1e-4\n").unwrap();
        assert_eq!(
            problem.compare,
            CompareMode::Float {
                abs: 1e-4,
                rel: 1e-6
            }
        );
        assert!(
            error("compare = \"lines\"\nfloat_relative_tolerance = 0.1\n")
                .contains("float tolerances need `compare = \"float\"`")
        );
        assert!(error("float_relative_tolerance = -1.0\n").contains("non-negative"));
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let message = error("name = \"x\"\ntime_limt_ms = 5\n");
        assert!(
            message.starts_with("problems/p/problem.toml: line 2: unknown field `time_limt_ms`"),
            "{message}"
        );
        let message = error("profile = \"atcoder\"\n");
        assert!(
            message.contains("line 1: unknown variant `atcoder`"),
            "{message}"
        );
        let message = error("time_limit_ms = \"fast\"\n");
        assert!(message.contains("line 1: invalid type"), "{message}");
        assert!(error("time_limit_ms = 0\n")
            .contains("line 1: `time_limit_ms` = 0 is out of range: expected 1 to 3600000"));
        let message = error("name = \n");
        assert!(
            message.starts_with("problems/p/problem.toml: line 1: "),
            "{message}"
        );
    }
}
